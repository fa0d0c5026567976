/** What the physical-planning step knows of the machine it plans for. */

/** Options of {@link physicalPlan}. */
export interface PhysicalOptions {
  /** worker threads available besides the statement's own (0: nothing runs in parallel) */
  readonly workers: number
  /** tables with fewer rows run on one thread (handing rows to workers costs more than it saves) */
  readonly minRows: number
}

/** Default {@link PhysicalOptions.minRows}. */
export const PARALLEL_MIN_ROWS = 1_000_000

/** The tunables statements plan with (tests lower `minRows` to split small tables). */
export const PHYSICAL_TUNING = { minRows: PARALLEL_MIN_ROWS }
