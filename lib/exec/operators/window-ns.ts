/**
 * `min` / `max` over a window frame of TIMESTAMP_NS values, exact to the nanosecond.
 *
 * The frame kernels compare doubles, and a double of a nanosecond timestamp drops digits. So the
 * values are ranked once (sorted by their whole microseconds, then the 0–999 remainder; no BigInt
 * per row), the frame's extreme rank is found by the double kernel, and the row holding that rank
 * is copied through the value's two 32-bit halves.
 */
import type { I64Vector, Vector } from '../../types/vector.js'
import { splitNs } from '../../types/timestamp-ns.js'
import { LONG_NULL } from '../../types/column-type.js'
import type { FrameBounds } from './window-frame.js'
import type { WindowOrder } from './window-sort.js'
import { frameExtremesSteps } from './window-aggregate.js'
import { runSteps } from '../steps.js'
import type { ExecContext } from '../context.js'

/** Row i of the result is the least (or greatest) TIMESTAMP_NS of row i's frame, null when it has none. */
export async function nsFrameExtremes(o: WindowOrder, f: FrameBounds, v: I64Vector, max: boolean, ctx: ExecContext): Promise<Vector> {
  const n = o.rows.length
  const { micros, sub } = splitNs(v, n)
  const at = (i: number) => (v.isConst ? 0 : i)
  const present: number[] = []
  for (let i = 0; i < n; i++) if (micros[at(i)] !== LONG_NULL) present.push(i)
  const sorted = Uint32Array.from(present).sort((a, b) => (micros[at(a)]! - micros[at(b)]!) || (sub[at(a)]! - sub[at(b)]!))
  await ctx.maybeYield()
  // dense ranks: equal values share one; rankRow[k] is a row holding rank k
  const ranks = new Float64Array(n).fill(NaN)
  const rankRow = new Int32Array(sorted.length)
  let k = -1
  for (let j = 0; j < sorted.length; j++) {
    const i = sorted[j]!
    if (j === 0 || micros[at(i)] !== micros[at(sorted[j - 1]!)] || sub[at(i)] !== sub[at(sorted[j - 1]!)]) rankRow[++k] = i
    ranks[i] = k
  }
  const r = await runSteps(frameExtremesSteps(o, f, ranks, max), ctx)
  const src = v.data
  if (!(src instanceof BigInt64Array)) {
    // values held as doubles (exact below 2^53): the result is held the same way
    const out = new Float64Array(n)
    for (let i = 0; i < n; i++) { const q = r[i]!; out[i] = q !== q ? LONG_NULL : src[at(rankRow[q]!)]! }
    return { kind: 'i64', type: 'TIMESTAMP_NS', length: n, data: out }
  }
  const out = new BigInt64Array(n)
  const ow = new Uint32Array(out.buffer)
  const sw = new Uint32Array(src.buffer, src.byteOffset, (v.isConst ? 1 : n) * 2)
  for (let i = 0; i < n; i++) {
    const q = r[i]!
    if (q !== q) { ow[2 * i] = 0; ow[2 * i + 1] = 0x80000000; continue }
    const s = at(rankRow[q]!)
    ow[2 * i] = sw[2 * s]!; ow[2 * i + 1] = sw[2 * s + 1]!
  }
  return { kind: 'i64', type: 'TIMESTAMP_NS', length: n, data: out }
}
