/**
 * Helpers shared by the aggregate kernels: geometric growth of per-group typed arrays, the
 * null test of each physical layout, and a builder for {@link AggregateFunctionDef}s.
 *
 * Kernels keep one typed array per accumulator, indexed by dense group id; `resize` grows them
 * (doubling), `update` is a tight loop over a batch with an Int32Array of group ids, and
 * `updateOne` is the non-keyed path (all rows in one group).
 */
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { materialize, type Vector } from '../../types/vector.js'
import { arrIsNull } from '../../types/array-vector.js'
import type { AggregateFunctionDef, AggregateKernel, CallSite, Signature } from '../registry-types.js'

/** Typed arrays a kernel may keep per group. */
export type GroupArray = Float64Array | Float32Array | Int32Array | Uint8Array | Int8Array | Int16Array | Uint16Array | BigInt64Array

/** Returns `a` when it holds `n` groups, else a copy with capacity >= max(n, 2 * length, 16); new slots hold `fill`. */
export function grow<T extends GroupArray>(a: T, n: number, fill: number | bigint = 0): T {
  if (a.length >= n) return a
  const cap = Math.max(n, a.length * 2, 16)
  const out = new (a.constructor as new (n: number) => T)(cap)
  out.set(a as never)
  if (fill !== 0 && fill !== 0n) out.fill(fill as never, a.length)
  return out
}

/** Grows a plain array of per-group values (strings, sets), new slots holding `fill`. */
export function growArray<T>(a: T[], n: number, fill: T): T[] {
  while (a.length < n) a.push(fill)
  return a
}

/** The argument vector, with a constant vector expanded (constants are rare in aggregates). */
export function arg(args: readonly Vector[], i: number): Vector {
  return materialize(args[i]!)
}

/**
 * A null mask of a batch: 1 where row i is null. Non-nullable layouts (bool, i8, i16) give all 0.
 */
export function nullMask(v: Vector, length: number): Uint8Array {
  const m = new Uint8Array(length)
  switch (v.kind) {
    case 'bool': case 'i8': case 'i16': break
    case 'u16': { const d = v.data; for (let i = 0; i < length; i++) m[i] = d[i] === 0 ? 1 : 0; break }
    case 'i32': {
      const d = v.data
      const nul = v.type === 'IPV4' ? 0 : INT_NULL
      for (let i = 0; i < length; i++) m[i] = d[i] === nul ? 1 : 0
      break
    }
    case 'i64': {
      const d = v.data
      if (d instanceof Float64Array) for (let i = 0; i < length; i++) m[i] = d[i] === LONG_NULL ? 1 : 0
      else for (let i = 0; i < length; i++) m[i] = d[i] === -9223372036854775808n ? 1 : 0
      break
    }
    case 'f32': case 'f64': { const d = v.data; for (let i = 0; i < length; i++) { const x = d[i]!; m[i] = x - x === 0 ? 0 : 1 } break }
    case 'sym': { const d = v.data; for (let i = 0; i < length; i++) m[i] = d[i]! < 0 ? 1 : 0; break }
    case 'str': case 'bin': { const d = v.data; for (let i = 0; i < length; i++) m[i] = d[i] === null ? 1 : 0; break }
    case 'arr': for (let i = 0; i < length; i++) m[i] = arrIsNull(v, i) ? 1 : 0; break
    case 'null': m.fill(1); break
  }
  return m
}

/** A group-id array of `length` copies of `group` (lets `updateOne` reuse `update`). */
export function sameGroup(group: number, length: number): Int32Array {
  const g = new Int32Array(length)
  if (group !== 0) g.fill(group)
  return g
}

/** Fields of an aggregate definition; the family is always `aggregate`. */
export interface AggregateSpec {
  readonly name: string
  readonly aliases?: readonly string[]
  readonly signatures: readonly Signature[]
  readonly description: string
  readonly example: string
  readonly create: (site: CallSite) => AggregateKernel
}

/** Builds an {@link AggregateFunctionDef}. */
export function aggregate(spec: AggregateSpec): AggregateFunctionDef {
  return { kind: 'aggregate', family: 'aggregate', ...spec }
}
