/**
 * Work in steps run one per turn of the event loop, for an in-memory table (no store, so no
 * files to sync): a large `db.append` is applied a slice at a time (`Table.appendInTurns`), and
 * the event loop answers queries between slices. Whoever needs the table as it will be (any other
 * change to it) finishes the remaining steps at once.
 */
import type { ColumnType } from '../types/column-type.js'
import { type Steps, background } from './durable/steps.js'
import { rowsPerRecord } from './durable/wal-codec.js'

/** Bytes of rows an in-memory append copies per turn of the event loop (as a durable commit's steps, `STEP_BYTES`). */
const TURN_BYTES = 4 << 20

/** Rows of a table with these column types that an in-memory append copies per turn of the event loop. */
export function rowsPerTurn(types: readonly ColumnType[]): number {
  return rowsPerRecord(types, TURN_BYTES)
}

/** Steps running one per turn of the event loop. */
export interface Turns<T> {
  /** settles with what the steps return, or what they throw */
  readonly done: Promise<T>
  /** runs every remaining step now (does nothing when called from inside a step) */
  finish(): void
}

/**
 * Runs `steps` one per turn of the event loop (the first now, each next one after the I/O and
 * timers that came meanwhile: `setImmediate`). The steps must yield nothing to sync (in-memory
 * work only). The runner is {@link background}'s (steps.ts), with a guard that makes `finish`
 * from inside a step do nothing.
 */
export function inTurns<T>(steps: Steps<T>): Turns<T> {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const done = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  let value: T | undefined
  let failed = false
  const all = (function* (): Steps<void> {
    try { value = yield* steps } catch (e) { failed = true; reject(e) }
  })()
  let running = false
  const around = (run: () => void): void => {
    if (running) return
    running = true
    try { run() } finally { running = false }
  }
  const run = background(all, around, (e) => { if (e !== undefined) reject(e); else if (!failed) resolve(value as T) }, true)
  return { done, finish: () => run.finish() }
}
