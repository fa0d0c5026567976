/** What the physical-planning step knows of the machine it plans for. */

/** Options of {@link physicalPlan}. */
export interface PhysicalOptions {
  /** worker threads available besides the statement's own (0: nothing runs in parallel) */
  readonly workers: number
  /** tables with fewer rows run on one thread (handing rows to workers costs more than it saves) */
  readonly minRows: number
  /**
   * whether a filter alone (not under an aggregation) may run in parallel: off by default, since
   * building a large filter's output on the statement's thread outweighs the split so far
   * (docs/benchmarks.md); `EPOCHDB_PARALLEL_FILTER=1` turns it on
   */
  readonly filters?: boolean
}

/** Default {@link PhysicalOptions.minRows}. */
export const PARALLEL_MIN_ROWS = 1_000_000

const ENV_MIN_ROWS = typeof process !== 'undefined' ? Number(process.env['EPOCHDB_PARALLEL_MIN_ROWS'] ?? '') : NaN

/**
 * The tunables statements plan with: `minRows` is {@link PARALLEL_MIN_ROWS} unless the
 * environment's `EPOCHDB_PARALLEL_MIN_ROWS` says otherwise (tests lower it to split small tables).
 */
export const PHYSICAL_TUNING = {
  minRows: Number.isFinite(ENV_MIN_ROWS) && ENV_MIN_ROWS > 0 ? ENV_MIN_ROWS : PARALLEL_MIN_ROWS,
  filters: typeof process !== 'undefined' && process.env['EPOCHDB_PARALLEL_FILTER'] === '1',
}
