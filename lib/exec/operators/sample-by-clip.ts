/**
 * SAMPLE BY input helpers: the designated timestamp of a batch as a Float64Array, and clipping a
 * batch to FROM (inclusive) / TO (exclusive), the range filter QuestDB adds for FROM-TO.
 */
import { internalError } from '../../errors.js'
import { type Batch, type Vector, gather, materialize, sliceVector } from '../../types/vector.js'

/** The timestamps of `v` (microseconds) as doubles. */
export function timestamps(v: Vector): Float64Array {
  const m = materialize(v)
  if (m.kind !== 'i64') throw internalError('designated timestamp is not a 64-bit column')
  if (m.data instanceof Float64Array) return m.data
  const out = new Float64Array(m.length)
  for (let i = 0; i < m.length; i++) out[i] = Number(m.data[i]!)
  return out
}

/** Rows of `b` whose timestamp is in [lo, hi) (either bound may be absent). */
export function clipBatch(b: Batch, tsColumn: number, lo: number | undefined, hi: number | undefined): Batch {
  if ((lo === undefined && hi === undefined) || b.length === 0) return b
  const ts = timestamps(b.vectors[tsColumn]!)
  const min = lo ?? -Infinity
  const max = hi ?? Infinity
  return clipWhere(b, (i) => ts[i]! >= min && ts[i]! < max)
}

/** Rows `i` of `b` for which `inside(i)`; a slice when they form one run (ordered input), else a gather. */
export function clipWhere(b: Batch, inside: (i: number) => boolean): Batch {
  const n = b.length
  let start = 0
  while (start < n && inside(start)) start++
  if (start === n) return b
  // ordered input: the rows in range form one run
  let first = 0
  while (first < n && !inside(first)) first++
  let end = first
  while (end < n && inside(end)) end++
  let rest = end
  while (rest < n && !inside(rest)) rest++
  if (rest === n) {
    if (first === end) return { length: 0, vectors: b.vectors.map((v) => sliceVector(v, 0, 0)) }
    return { length: end - first, vectors: b.vectors.map((v) => sliceVector(v, first, end)) }
  }
  const sel = new Int32Array(n)
  let count = 0
  for (let i = 0; i < n; i++) if (inside(i)) sel[count++] = i
  return { length: count, vectors: b.vectors.map((v) => gather(v, sel, count)) }
}
