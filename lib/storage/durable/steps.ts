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

/** A file (open descriptor) to sync before the next step; the steps close it themselves. */
export interface SyncWait {
  readonly fsync: number
}

/** A piece of work in steps, returning a `T` when done. */
export type Steps<T> = Generator<SyncWait | void, T, void>

/** Runs every remaining step of `steps` now (syncing the files they yield, blocking); returns what it returns. */
export function runSteps<T>(steps: Steps<T>): T {
  let failed: { readonly e: unknown } | undefined
  for (;;) {
    const r = failed === undefined ? steps.next() : steps.throw(failed.e)
    failed = undefined
    if (r.done === true) return r.value
    if (r.value !== undefined) {
      try { io.fsyncSync(r.value.fsync) } catch (e) { failed = { e } }
    }
  }
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
 * turn), the syncs they yield on the thread pool. `around` wraps each run of steps (the caller
 * marks "a step is running"); `onEnd` is called once when they end: with the error they threw,
 * or undefined.
 */
export function background(steps: Steps<void>, around: (run: () => void) => void, onEnd: (error: unknown) => void): Background {
  let ended = false
  // the sync running off the main thread, if any, and what to throw into the steps next
  let waiting: SyncWait | undefined
  let failed: { readonly e: unknown } | undefined
  const end = (error: unknown): void => {
    if (ended) return
    ended = true
    onEnd(error)
  }
  const syncNow = (w: SyncWait): void => {
    try { io.fsyncSync(w.fsync) } catch (e) { failed = { e } }
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
        for (;;) {
          const f = failed
          failed = undefined
          const r = f === undefined ? steps.next() : steps.throw(f.e)
          if (r.done === true) { end(undefined); return }
          if (r.value !== undefined) {
            if (all) { syncNow(r.value); continue }
            const w = r.value
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
  const resume = (w: SyncWait, f: { readonly e: unknown } | undefined): void => {
    // finished meanwhile (its sync was done again, blocking): nothing to do
    if (waiting !== w) return
    waiting = undefined
    failed = f
    run(false)
  }
  setImmediate(() => run(false))
  return {
    finish: () => run(true),
    stop: () => {
      if (ended) return
      try { steps.return() } catch { /* closing its files */ }
      end(undefined)
    },
  }
}
