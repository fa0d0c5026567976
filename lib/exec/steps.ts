/**
 * Long kernels in steps. A kernel that walks a whole input in one loop (a window's frame bounds
 * over 2M rows) is written as a synchronous generator that `yield`s after about
 * {@link YIELD_CHECK_WORK} units of work; {@link runSteps} drives it and lets the statement's
 * scheduler yield to the event loop (and check cancellation and the timeout) between steps, and
 * {@link runNow} drives it in one go for callers that are not executing a statement.
 */
import { type ExecContext, YIELD_CHECK_WORK } from './context.js'

/** A computation of a `T` that pauses (yields nothing) between bounded steps. */
export type Steps<T> = Generator<void, T, undefined>

/** Units of work between two pauses of a {@link Steps} kernel (a power of two, so `(i & STEP_MASK) === STEP_MASK` marks them). */
export const STEP_WORK = YIELD_CHECK_WORK
/** {@link STEP_WORK} - 1. */
export const STEP_MASK = STEP_WORK - 1

/** Runs `steps` to the end, calling the statement's scheduler between steps. */
export async function runSteps<T>(steps: Steps<T>, ctx: ExecContext): Promise<T> {
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
    await ctx.maybeYield()
  }
}

/** Runs `steps` to the end at once. */
export function runNow<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}
