/**
 * DECIMAL window aggregates: `sum`, `avg`, `min`, `max` over frames, exact. A decimal's values
 * are its unscaled integers; while every partial sum stays a safe integer (the absolute values
 * of the whole input add up to at most 2^53) the double loops of window-aggregate.ts run on them
 * unchanged and are exact, otherwise sums slide on BigInt. `min`/`max` run on the values' ranks
 * (exact for any width). `sum` gives QuestDB's sum type (`sumResultType`), `avg` the input's
 * type rounded half to even, `min`/`max` the input's type; an empty frame gives null.
 */
import { LONG_NULL } from '../../types/column-type.js'
import { type DecimalType, divHalfEven, isNarrowDecimal } from '../../types/decimal.js'
import type { Vector } from '../../types/vector.js'
import { DecimalWriter, unscaledAt } from '../../functions/decimal-vectors.js'
import type { WindowOrder } from './window-sort.js'
import type { FrameBounds } from './window-frame.js'
import { frameExtremes, frameSums } from './window-aggregate.js'

/** The unscaled values of a decimal vector as doubles (NaN for null), or undefined when one is not a safe integer. */
function unscaledDoubles(v: Vector, n: number): Float64Array | undefined {
  const d = v.data
  if (v.kind !== 'i64' || !(d instanceof Float64Array)) return undefined
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x === LONG_NULL ? NaN : x }
  return out
}

function unscaledBig(v: Vector, n: number): (bigint | null)[] {
  const out = new Array<bigint | null>(n)
  for (let i = 0; i < n; i++) out[i] = unscaledAt(v, i)
  return out
}

/** The doubles as a vector of `type` (a narrow decimal): NaN is null. */
function narrowVector(type: DecimalType, r: Float64Array): Vector {
  for (let i = 0; i < r.length; i++) if (r[i] !== r[i]) r[i] = LONG_NULL
  return { kind: 'i64', type, length: r.length, data: r }
}

/** sum / avg of a decimal `v` over each row's frame, as a vector of `type`. */
export function decimalFrameSums(o: WindowOrder, f: FrameBounds, v: Vector, what: 'sum' | 'avg', type: DecimalType): Vector {
  const n = o.rows.length
  const x = unscaledDoubles(v, n)
  let total = 0
  if (x !== undefined) for (let i = 0; i < n; i++) { const a = x[i]!; if (a === a) total += Math.abs(a) }
  if (x !== undefined && total <= Number.MAX_SAFE_INTEGER) {
    const sums = frameSums(o, f, x, 'sum')
    if (what === 'sum') {
      if (isNarrowDecimal(type)) return narrowVector(type, sums)
      const w = new DecimalWriter(type, n)
      for (let i = 0; i < n; i++) { const s = sums[i]!; w.set(i, s === s ? BigInt(s) : null) }
      return w.finish()
    }
    const counts = frameSums(o, f, x, 'count')
    const w = new DecimalWriter(type, n)
    for (let i = 0; i < n; i++) {
      const s = sums[i]!, c = counts[i]!
      w.set(i, s === s && c > 0 ? divHalfEven(BigInt(s), BigInt(c)) : null)
    }
    return w.finish()
  }
  return bigFrameSums(o, f, unscaledBig(v, n), what, type)
}

/** The BigInt path of {@link decimalFrameSums}: the same sliding window as frameSumsSteps. */
function bigFrameSums(o: WindowOrder, f: FrameBounds, x: (bigint | null)[], what: 'sum' | 'avg', type: DecimalType): Vector {
  const { rows, partStart } = o
  const n = rows.length
  const w = new DecimalWriter(type, n)
  let a = 0, b = 0, sum = 0n, cnt = 0
  for (let p = 0; p < n; p++) {
    if (p === partStart[p]) { a = b = p; sum = 0n; cnt = 0 }
    const fs = f.start[p]!
    const fe = Math.max(f.end[p]!, fs)
    while (b < fe) { const v = x[rows[b++]!]; if (v !== null && v !== undefined) { sum += v; cnt++ } }
    while (a < fs) { const v = x[rows[a++]!]; if (v !== null && v !== undefined) { sum -= v; cnt-- } }
    w.set(rows[p]!, cnt === 0 ? null : what === 'sum' ? sum : divHalfEven(sum, BigInt(cnt)))
  }
  return w.finish()
}

/** min / max of a decimal `v` over each row's frame, as a vector of its own type. */
export function decimalFrameExtremes(o: WindowOrder, f: FrameBounds, v: Vector, max: boolean, type: DecimalType): Vector {
  const n = o.rows.length
  const x = unscaledDoubles(v, n)
  if (x !== undefined && isNarrowDecimal(type)) return narrowVector(type, frameExtremes(o, f, x, max))
  // any width: the extremes of the values' ranks pick the same rows
  const big = unscaledBig(v, n)
  const distinct = [...new Set(big.filter((u): u is bigint => u !== null))].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0))
  const rank = new Map(distinct.map((u, k) => [u, k]))
  const ranks = new Float64Array(n)
  for (let i = 0; i < n; i++) { const u = big[i]; ranks[i] = u === null || u === undefined ? NaN : rank.get(u)! }
  const r = frameExtremes(o, f, ranks, max)
  const w = new DecimalWriter(type, n)
  for (let i = 0; i < n; i++) { const k = r[i]!; w.set(i, k === k ? distinct[k]! : null) }
  return w.finish()
}
