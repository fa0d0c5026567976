/**
 * Work done in bounded steps: a generator that yields between steps (a column file written, a
 * dictionary written, ...). The checkpoint runs this way in the background, one step per turn
 * of the event loop, so queries are answered while it writes; a caller that needs it finished
 * now runs the remaining steps at once ({@link runSteps}).
 */

/** A piece of work in steps, returning a `T` when done. */
export type Steps<T> = Generator<void, T, void>

/** Runs every remaining step of `steps` now; returns what it returns. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}
