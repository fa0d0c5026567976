/**
 * Work done in bounded steps: a generator that yields between steps (a column file written, a
 * dictionary written, ...). The checkpoint runs this way in the background, one step per turn
 * of the event loop, so queries are answered while it writes; a caller that needs it finished
 * now runs the remaining steps at once ({@link runSteps}).
 *
 * A step may yield a {@link SyncWait}: a file it wrote that must be synced before the next step.
 * Run in the background ({@link background}) the sync runs off the main thread (the loop is free
 * meanwhile); run at once, it is a blocking fsync. Either way the steps continue only once the
 * file is durable, and a failed sync is thrown into the steps where they yielded.
 */
import { io } from './io.js'

/**
 * What a step may yield:
 * - `{ fsync }`: a file (open descriptor) to sync before the next step; the steps close it themselves;
 * - `{ fsync, later: true }`: a file to sync, not waited for: the next step goes on meanwhile
 *   (syncs of several files overlap on the thread pool), and the runner closes the descriptor
 *   once synced — the steps must not touch it again;
 * - `{ drain: true }`: every `later` sync yielded before it is done before the next step (a
 *   failed one is thrown into the steps here). A commit point (`_meta` replaced) comes after one.
 */
export type SyncWait = { readonly fsync: number; readonly later?: boolean } | { readonly drain: true; readonly fsync?: undefined }

/** A piece of work in steps, returning a `T` when done. */
export type Steps<T> = Generator<SyncWait | void, T, void>

/** Runs every remaining step of `steps` now (syncing the files they yield, blocking); returns what it returns. */
export function runSteps<T>(steps: Steps<T>): T {
  let failed: { readonly e: unknown } | undefined
  for (;;) {
    const r = failed === undefined ? steps.next() : steps.throw(failed.e)
    failed = undefined
    if (r.done === true) return r.value
    const w = r.value
    if (w === undefined || w.fsync === undefined) continue
    try { io.fsyncSync(w.fsync) } catch (e) { failed = { e } }
    if (w.later === true) io.closeSync(w.fsync)
  }
}

/** A `later` sync running on the thread pool (see {@link SyncWait}). */
interface LaterSync {
  readonly fd: number
  /** settled once synced (or failed) and closed */
  readonly done: Promise<void>
  error: { readonly e: unknown } | undefined
  settled: boolean
  /** synced again, blocking, by a forced finish: its own outcome no longer matters */
  forced: boolean
}

/** Steps running in the background (see {@link background}). */
export interface Background {
  /** runs every remaining step now (a sync running off the main thread is done again, blocking) */
  finish(): void
  /** ends it without running the remaining steps (their files are closed) */
  stop(): void
}

/**
 * Runs `steps` in the background: one step per turn of the event loop (the first on the next
 * turn, or with `firstNow` at once), the syncs they yield on the thread pool. `around` wraps each
 * run of steps (the caller marks "a step is running"); `onEnd` is called once when they end: with
 * the error they threw, or undefined.
 */
export function background(steps: Steps<void>, around: (run: () => void) => void, onEnd: (error: unknown) => void, firstNow = false): Background {
  let ended = false
  // the sync running off the main thread, if any, and what to throw into the steps next
  let waiting: { readonly fsync: number } | undefined
  let failed: { readonly e: unknown } | undefined
  // `later` syncs not yet drained
  let later: LaterSync[] = []
  // a drain the steps wait at (the syncs it waits for run off the main thread)
  let draining: LaterSync[] | undefined
  const startLater = (fd: number): void => {
    const l: LaterSync = { fd, error: undefined, settled: false, forced: false, done: undefined as unknown as Promise<void> }
    ;(l as { done: Promise<void> }).done = io.fsync(fd).then(() => undefined, (e: unknown) => { if (!l.forced) l.error = { e } }).finally(() => {
      l.settled = true
      // the descriptor stays open until its sync ended, so its number is never reused under it
      void io.closeLater(fd)
    })
    later.push(l)
  }
  /** The first failure among `ls` (all settled or forced). */
  const firstError = (ls: readonly LaterSync[]): { readonly e: unknown } | undefined => ls.find((l) => l.error !== undefined)?.error
  /** Makes the undrained `later` syncs durable now, blocking (a forced finish). */
  const forceLater = (): void => {
    for (const l of later) {
      if (l.settled) continue
      l.forced = true
      try { io.fsyncSync(l.fd) } catch (e) { l.error = { e } }
    }
  }
  const end = (error: unknown): void => {
    if (ended) return
    ended = true
    onEnd(error)
  }
  const syncNow = (w: { readonly fsync: number }): void => {
    try { io.fsyncSync(w.fsync) } catch (e) { failed = { e } }
  }
  const drainNow = (): void => {
    forceLater()
    failed = firstError(later)
    later = []
  }
  const run = (all: boolean): void => {
    if (ended) return
    around(() => {
      try {
        if (waiting !== undefined) {
          // finishing now while its sync runs off the main thread: sync again here, blocking
          const w = waiting
          waiting = undefined
          syncNow(w)
        }
        // finishing now while a drain waits off the main thread: drain here, blocking
        if (draining !== undefined) { later = draining.concat(later); draining = undefined; drainNow() }
        for (;;) {
          const f = failed
          failed = undefined
          const r = f === undefined ? steps.next() : steps.throw(f.e)
          if (r.done === true) { end(undefined); return }
          const w = r.value
          if (w !== undefined && w.fsync === undefined) {
            // a drain
            if (all || later.every((l) => l.settled)) { drainNow(); continue }
            const ls = later
            draining = ls
            later = []
            void Promise.all(ls.map((l) => l.done)).then(() => {
              if (draining !== ls) return
              draining = undefined
              failed = firstError(ls)
              run(false)
            })
            return
          }
          if (w !== undefined && w.later === true) {
            if (all) { syncNow(w); io.closeSync(w.fsync) } else startLater(w.fsync)
            continue
          }
          if (w !== undefined) {
            if (all) { syncNow(w); continue }
            waiting = w
            io.fsync(w.fsync).then(() => resume(w, undefined), (e: unknown) => resume(w, { e }))
            return
          }
          if (!all) { setImmediate(() => run(false)); return }
        }
      } catch (e) {
        end(e)
      }
    })
  }
  const resume = (w: { readonly fsync: number }, f: { readonly e: unknown } | undefined): void => {
    // finished meanwhile (its sync was done again, blocking): nothing to do
    if (waiting !== w) return
    waiting = undefined
    failed = f
    run(false)
  }
  if (firstNow) run(false)
  else setImmediate(() => run(false))
  return {
    finish: () => run(true),
    stop: () => {
      if (ended) return
      try { steps.return() } catch { /* closing its files */ }
      end(undefined)
    },
  }
}
