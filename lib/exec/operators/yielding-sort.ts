/**
 * Sorting that never holds the event loop for long: runs of {@link SORT_RUN} rows are sorted
 * with the built-in sort, then merged pairwise, yielding (and checking for cancellation and the
 * statement timeout) every {@link YIELD_CHECK_WORK} comparisons. The result is stable, as the
 * built-in sort is: a merge takes from the left run unless the right one is strictly smaller.
 */
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'

/** Rows sorted in one go by the built-in sort (a few milliseconds of work). */
export const SORT_RUN = 16384

/** Sorts `rows` in place by `cmp`, yielding between bounded steps. */
export async function sortYielding(rows: Int32Array, cmp: (a: number, b: number) => number, ctx: ExecContext): Promise<void> {
  const n = rows.length
  if (n <= SORT_RUN) { rows.sort(cmp); return }
  for (let s = 0; s < n; s += SORT_RUN) {
    rows.subarray(s, Math.min(n, s + SORT_RUN)).sort(cmp)
    await ctx.maybeYield()
  }
  let src: Int32Array = rows
  let dst: Int32Array = new Int32Array(n)
  for (let width = SORT_RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const run: MergeRun = { i: lo, mid: Math.min(lo + width, n), j: Math.min(lo + width, n), hi: Math.min(lo + 2 * width, n), k: lo }
      while (!mergeSome(src, dst, run, cmp, YIELD_CHECK_WORK)) await ctx.maybeYield()
    }
    const t = src; src = dst; dst = t
  }
  if (src !== rows) rows.set(src)
}

/** A pairwise merge in progress: left run [i, mid), right run [j, hi), next output at k. */
interface MergeRun { i: number; readonly mid: number; j: number; readonly hi: number; k: number }

/** Merges up to `budget` rows of `run` from `src` into `dst`; true when the run is done. */
function mergeSome(src: Int32Array, dst: Int32Array, run: MergeRun, cmp: (a: number, b: number) => number, budget: number): boolean {
  let { i, j, k } = run
  const { mid, hi } = run
  const stop = k + budget
  while (i < mid && j < hi && k < stop) dst[k++] = cmp(src[j]!, src[i]!) < 0 ? src[j++]! : src[i++]!
  run.i = i; run.j = j; run.k = k
  if (i < mid && j < hi) return false
  if (i < mid) dst.set(src.subarray(i, mid), k)
  else if (j < hi) dst.set(src.subarray(j, hi), k)
  return true
}
