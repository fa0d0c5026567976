/**
 * Row access shared by the time-series operators: gathering rows that live in several retained
 * batches ("parts") into one vector, and reading a timestamp vector as doubles.
 */
import { splitNs } from '../../types/timestamp-ns.js'
import { internalError } from '../../errors.js'
import { type ColumnType, LONG_NULL } from '../../types/column-type.js'
import { type Vector, VectorWriter, allocate, getScalar, materialize } from '../../types/vector.js'

/**
 * Row `row[i]` of part `part[i]` for i in [0, n); a negative part gives a null. `parts` holds one
 * column's vector per retained batch. Typed arrays are copied value by value; symbol parts with
 * different dictionaries and BigInt-backed i64 parts take the (slower) scalar path.
 */
export function gatherParts(type: ColumnType, parts: readonly Vector[], part: Int32Array, row: Int32Array, n: number): Vector {
  const ps = parts.map(materialize)
  const first = ps[0]
  const dict = first?.kind === 'sym' ? first.dict : undefined
  const slow = ps.some((p) => (p.kind === 'sym' && p.dict !== dict) || (p.kind === 'i64' && p.data instanceof BigInt64Array))
  if (slow) {
    const w = new VectorWriter(type, n, dict)
    for (let i = 0; i < n; i++) { const p = part[i]!; w.set(i, p < 0 ? null : getScalar(ps[p]!, row[i]!)) }
    return w.finish()
  }
  const out = allocate(type, n, dict)
  if (out.kind === 'null') return out
  const dst = out.data as unknown as unknown[]
  const src = ps.map((p) => p.data as unknown as ArrayLike<unknown>)
  for (let i = 0; i < n; i++) {
    const p = part[i]!
    if (p >= 0) dst[i] = src[p]![row[i]!]
  }
  return out
}

/** Rows `sel[i]` of one vector (-1 gives a null): {@link gatherParts} over a single part. */
export function gatherOrNull(v: Vector, sel: Int32Array, n: number): Vector {
  const part = new Int32Array(n)
  for (let i = 0; i < n; i++) part[i] = sel[i]! < 0 ? -1 : 0
  return gatherParts(v.type, [v], part, sel, n)
}

/**
 * A TIMESTAMP (or other i64) vector's values as doubles (null is -2^63). TIMESTAMP_NS values are
 * given in microseconds (floored, exactly), so micro and nano tables join on one scale; their
 * nanosecond remainders come from {@link nsRemaindersOf}.
 */
export function timestampsOf(v0: Vector): Float64Array {
  const v = materialize(v0)
  if (v.kind !== 'i64') throw internalError('timestamp vector is not i64')
  if (v.type === 'TIMESTAMP_NS') return splitNs(v, v.length).micros
  if (v.data instanceof Float64Array) return v.data
  const out = new Float64Array(v.length)
  for (let i = 0; i < v.length; i++) { const x = v.data[i]!; out[i] = x === -9223372036854775808n ? LONG_NULL : Number(x) }
  return out
}

/** The 0-999 nanosecond remainders of a TIMESTAMP_NS vector (beside {@link timestampsOf}); undefined for other types. */
export function nsRemaindersOf(v0: Vector): Uint16Array | undefined {
  if (v0.type !== 'TIMESTAMP_NS') return undefined
  const v = materialize(v0)
  return v.kind === 'i64' ? splitNs(v, v.length).sub : undefined
}
