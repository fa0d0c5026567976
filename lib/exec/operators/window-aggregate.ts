/**
 * Aggregates over window frames: sum, avg, ksum, count, min and max. Each partition is walked
 * once in window order with a sliding window [a, b) that follows the frame bounds (both only
 * move forward): sums add entering values and subtract leaving ones (a running sum when the
 * frame starts at UNBOUNDED PRECEDING), min/max keep a monotonic deque of positions. Results
 * are written by input row. Nulls are skipped; an empty (or all-null) frame gives null, and
 * count gives 0.
 */
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { type Vector, materialize } from '../../types/vector.js'
import type { WindowOrder } from './window-sort.js'
import type { FrameBounds } from './window-frame.js'
import { STEP_MASK, STEP_WORK, type Steps, runNow } from '../steps.js'

/** The values of a numeric or temporal vector as doubles, NaN for null. */
export function toFloat64(v0: Vector, n: number): Float64Array {
  const v = materialize(v0)
  const out = new Float64Array(n)
  switch (v.kind) {
    case 'f64': case 'f32': { const d = v.data; for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x - x === 0 ? x : NaN } break }
    case 'i32': { const d = v.data; for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x === INT_NULL ? NaN : x } break }
    case 'i64': {
      const d = v.data
      if (d instanceof Float64Array) for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x === LONG_NULL ? NaN : x }
      else for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x === -9223372036854775808n ? NaN : Number(x) }
      break
    }
    case 'i8': case 'i16': case 'bool': out.set(v.data); break
    case 'u16': case 'sym': case 'str': case 'bin': case 'null': out.fill(NaN); break
  }
  return out
}

/** sum / avg / ksum (Kahan-compensated) / count(x) of the non-null values in each frame. */
export function frameSums(o: WindowOrder, f: FrameBounds, x: Float64Array, what: 'sum' | 'avg' | 'ksum' | 'count'): Float64Array {
  return runNow(frameSumsSteps(o, f, x, what))
}

/** {@link frameSums} in steps of about {@link STEP_WORK} positions and window moves (see exec/steps.ts). */
export function* frameSumsSteps(o: WindowOrder, f: FrameBounds, x: Float64Array, what: 'sum' | 'avg' | 'ksum' | 'count'): Steps<Float64Array> {
  const { rows, partStart } = o
  const n = rows.length
  const out = new Float64Array(n)
  let a = 0, b = 0, sum = 0, comp = 0, cnt = 0
  const add = (v: number) => {
    if (what === 'ksum') { const y = v - comp; const t = sum + y; comp = (t - sum) - y; sum = t } else sum += v
  }
  // a and b only move forward: work counts positions and their moves
  let work = 0
  for (let p = 0; p < n; p++) {
    if (work >= STEP_WORK) { work = 0; yield }
    if (p === partStart[p]) { a = b = p; sum = 0; comp = 0; cnt = 0 }
    const fs = f.start[p]!
    const fe = Math.max(f.end[p]!, fs)
    work += 1 + Math.max(0, fe - b) + Math.max(0, fs - a)
    while (b < fe) { const v = x[rows[b++]!]!; if (v === v) { add(v); cnt++ } }
    while (a < fs) { const v = x[rows[a++]!]!; if (v === v) { add(-v); cnt-- } }
    if (cnt === 0) { sum = 0; comp = 0 }
    out[rows[p]!] = what === 'count' ? cnt : cnt === 0 ? NaN : what === 'avg' ? sum / cnt : sum
  }
  return out
}

/** count(*): the number of rows in each frame. */
export function frameCounts(o: WindowOrder, f: FrameBounds): Float64Array {
  return runNow(frameCountsSteps(o, f))
}

/** {@link frameCounts} in steps of {@link STEP_WORK} positions. */
export function* frameCountsSteps(o: WindowOrder, f: FrameBounds): Steps<Float64Array> {
  const out = new Float64Array(o.rows.length)
  for (let p = 0; p < o.rows.length; p++) {
    if ((p & STEP_MASK) === STEP_MASK) yield
    out[o.rows[p]!] = Math.max(0, f.end[p]! - f.start[p]!)
  }
  return out
}

/** min or max of the non-null values in each frame (monotonic deque of sorted positions). */
export function frameExtremes(o: WindowOrder, f: FrameBounds, x: Float64Array, max: boolean): Float64Array {
  return runNow(frameExtremesSteps(o, f, x, max))
}

/** {@link frameExtremes} in steps of about {@link STEP_WORK} positions and window moves. */
export function* frameExtremesSteps(o: WindowOrder, f: FrameBounds, x: Float64Array, max: boolean): Steps<Float64Array> {
  const { rows, partStart } = o
  const n = rows.length
  const out = new Float64Array(n)
  const dq = new Int32Array(n)
  let head = 0, tail = 0, a = 0, b = 0
  // a, b and the deque's ends only move forward: work counts positions and window moves
  let work = 0
  for (let p = 0; p < n; p++) {
    if (work >= STEP_WORK) { work = 0; yield }
    if (p === partStart[p]) { a = b = p; head = tail = 0 }
    const fs = f.start[p]!
    const fe = Math.max(f.end[p]!, fs)
    work += 1 + 2 * Math.max(0, fe - b) + Math.max(0, fs - a)
    while (b < fe) {
      const v = x[rows[b]!]!
      if (v === v) {
        if (max) while (tail > head && x[rows[dq[tail - 1]!]!]! <= v) tail--
        else while (tail > head && x[rows[dq[tail - 1]!]!]! >= v) tail--
        dq[tail++] = b
      }
      b++
    }
    while (a < fs) { if (head < tail && dq[head] === a) head++; a++ }
    out[rows[p]!] = head < tail ? x[rows[dq[head]!]!]! : NaN
  }
  return out
}
