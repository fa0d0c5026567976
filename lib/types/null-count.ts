/**
 * The number of nulls in a vector, each layout's own null (NaN and ±Infinity for DOUBLE / FLOAT,
 * the sentinels of INT, IPV4 and LONG-like types, -1 keys of SYMBOL, null references of text):
 * unkeyed `count(x)`'s whole work, and the per-part non-null counts a checkpoint records
 * (`PartitionEntry.nonNull`, so `count(x)` can answer without reading the column).
 */
import { INT_NULL, LONG_NULL } from './column-type.js'
import type { Vector } from './vector.js'
import { arrIsNull } from './array-vector.js'

/**
 * Nulls among the first `length` values of `v` (a constant: all or none): the unkeyed count's
 * whole work. Each layout's test runs four rows a step into four counters, so the compares do
 * not wait on one counter's increments (0.75 against 1.28 ns/row for one counter over 2M LONG
 * values in 64 Ki batches; docs/benchmarks.md, unkeyed session).
 */
export function nullsOf(v: Vector, length: number): number {
  if (v.isConst === true) return constIsNull(v) ? length : 0
  if (v.kind === 'f64') return nonFiniteF64(v.data, length)
  if (v.kind === 'f32') return nonFiniteF32(v.data, length)
  if (v.kind === 'i64' && v.data instanceof Float64Array) return equalToF64(v.data, LONG_NULL, length)
  if (v.kind === 'i32') return equalToI32(v.data, v.type === 'IPV4' ? 0 : INT_NULL, length)
  return otherNulls(v, length)
}

/** Whether the one value of a constant vector is null. */
function constIsNull(v: Vector): boolean {
  return nullsOf({ ...v, isConst: false, length: 1 } as Vector, 1) === 1
}

/** {@link nullsOf} for the layouts without a loop of their own. */
function otherNulls(v: Vector, length: number): number {
  let n = 0
  switch (v.kind) {
    case 'bool': case 'i8': case 'i16': return 0
    case 'u16': { const d = v.data; for (let i = 0; i < length; i++) if (d[i] === 0) n++; return n }
    case 'i64': { const d = v.data; for (let i = 0; i < length; i++) if (d[i] === -9223372036854775808n) n++; return n }
    case 'sym': { const d = v.data; for (let i = 0; i < length; i++) if (d[i]! < 0) n++; return n }
    case 'str': case 'bin': { const d = v.data; for (let i = 0; i < length; i++) if (d[i] === null) n++; return n }
    case 'arr': for (let i = 0; i < length; i++) if (arrIsNull(v, i)) n++; return n
    case 'null': return length
    default: return 0
  }
}

/*
 * One function per array type, so each loop's loads stay monomorphic (V8 compiles a loop per
 * call site's element kinds; a shared loop over two array types slows both).
 */

/** Values among the first `length` of `d` that are NaN or infinite (DOUBLE nulls). */
function nonFiniteF64(d: Float64Array, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a - a !== 0) n0++
    if (b - b !== 0) n1++
    if (c - c !== 0) n2++
    if (e - e !== 0) n3++
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x !== 0) n0++ }
  return n0 + n1 + n2 + n3
}

/** Values among the first `length` of `d` that are NaN or infinite (FLOAT nulls). */
function nonFiniteF32(d: Float32Array, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a - a !== 0) n0++
    if (b - b !== 0) n1++
    if (c - c !== 0) n2++
    if (e - e !== 0) n3++
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x !== 0) n0++ }
  return n0 + n1 + n2 + n3
}

/** Values among the first `length` of `d` equal to the null sentinel `nul` (LONG-like values held as doubles). */
function equalToF64(d: Float64Array, nul: number, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    if (d[i] === nul) n0++
    if (d[i + 1] === nul) n1++
    if (d[i + 2] === nul) n2++
    if (d[i + 3] === nul) n3++
  }
  for (; i < length; i++) if (d[i] === nul) n0++
  return n0 + n1 + n2 + n3
}

/** Values among the first `length` of `d` equal to the null sentinel `nul` (INT, IPV4). */
function equalToI32(d: Int32Array, nul: number, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    if (d[i] === nul) n0++
    if (d[i + 1] === nul) n1++
    if (d[i + 2] === nul) n2++
    if (d[i + 3] === nul) n3++
  }
  for (; i < length; i++) if (d[i] === nul) n0++
  return n0 + n1 + n2 + n3
}

