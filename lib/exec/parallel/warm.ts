/**
 * Starting the worker pool before the first parallel query needs it. Loading a worker takes
 * hundreds of milliseconds from `dist/` and seconds from TypeScript sources on a loaded machine;
 * a pool created by the first parallel query leaves that query (and those that follow within the
 * load time) to the statement's thread alone. The pool starts instead as soon as a table holds
 * enough rows for a parallel plan (a quarter of `minRows`, the fewest `worthSplitting` splits):
 * when a database opens with such a table, or when an append makes one. A database whose tables
 * stay small never starts a worker.
 */
import { TABLE_GROWTH } from '../../storage/table-growth.js'
import { parallelWorkers, workerPool } from './pool.js'

/**
 * Rows a table must hold before the workers start loading: the fewest a parallel plan reads, a
 * quarter of `minRows` (the physical planner's `PHYSICAL_TUNING.minRows`, handed in by the caller:
 * execution does not import the planners).
 */
export function warmRows(minRows: number): number {
  return minRows / 4
}

/**
 * Starts the worker pool now when `largestTable` (the most rows any table holds) reaches
 * {@link warmRows} of `minRows`, and otherwise when an append first makes a table that large. No-op when
 * parallelism is off or the pool exists. Never waits for the workers.
 */
export function warmWorkersFor(largestTable: number, minRows: number): void {
  if (parallelWorkers() === 0) return
  if (largestTable >= warmRows(minRows)) { startPool(); return }
  if (TABLE_GROWTH.reached === undefined) {
    TABLE_GROWTH.rows = warmRows(minRows)
    TABLE_GROWTH.reached = startPool
  }
}

/** Creates the pool (its workers start loading) on the next turn of the event loop, so the caller's turn is not lengthened by it. */
function startPool(): void {
  setImmediate(() => { workerPool() }).unref()
}
