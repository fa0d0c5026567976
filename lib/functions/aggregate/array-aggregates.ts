/**
 * QuestDB 9's array aggregates (aggregation page, "Array aggregates"):
 *
 * - `array_agg(value)`: each row's DOUBLE becomes one element of the group's DOUBLE[], in row
 *   order, NULLs kept; a group always gives an array. `array_agg(array)`: the group's non-null,
 *   non-empty 1-D arrays concatenated into one flat DOUBLE[] (NULL elements kept), NULL when none
 *   has an element; a multi-dimensional array is refused.
 * - `array_elem_min` / `_max` / `_sum` / `_avg(array)`: element-wise over the group's arrays, with
 *   the multi-argument forms' rules (scalar/array-elementwise.ts: NULL arrays and elements skipped,
 *   the per-dimension maximum shape, Kahan sums).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { type ArrVector, ArrBuilder } from '../../types/array-vector.js'
import type { ColumnType } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { ElemAccumulator, type ElemOp } from '../scalar/array-elementwise.js'
import { toF64 } from '../kernel-helpers.js'
import { aggregate, arg, growArray, sameGroup } from './agg-util.js'

/** Growable list of doubles for one group. */
class Doubles {
  data = new Float64Array(8)
  n = 0
  push(x: number): void {
    if (this.n === this.data.length) { const d = new Float64Array(this.n * 2); d.set(this.data); this.data = d }
    this.data[this.n++] = x
  }
  pushAll(src: Float64Array, from: number, to: number): void {
    const k = to - from
    if (this.n + k > this.data.length) { let c = this.data.length * 2; while (c < this.n + k) c *= 2; const d = new Float64Array(c); d.set(this.data.subarray(0, this.n)); this.data = d }
    this.data.set(src.subarray(from, to), this.n)
    this.n += k
  }
}

/** `array_agg`: the group's values (scalar form) or arrays' elements (array form), in row order. */
export class ArrayAggKernel implements AggregateKernel {
  groups: (Doubles | null)[] = []
  private held = 0

  /** @param fromArrays - the array form (concatenation; a group of no element is NULL) */
  constructor(readonly fromArrays: boolean, readonly pos: number) {}

  resize(count: number): void {
    growArray(this.groups, count, null)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const gs = this.groups
    if (this.fromArrays) {
      if (v.kind !== 'arr') return
      const a = v as ArrVector
      if (a.dims !== 1) throw new SqlError(SqlState.DATATYPE_MISMATCH, 'array_agg accepts only one-dimensional arrays', this.pos)
      for (let i = 0; i < length; i++) {
        const j = a.isConst === true ? 0 : i
        const g = groups[i]!
        const list = (gs[g] ??= new Doubles())
        if (a.shapes[j]! <= 0) continue
        const from = a.offsets[j]!, to = a.offsets[j + 1]!
        list.pushAll(a.data, from, to)
        this.held += 8 * (to - from)
      }
      return
    }
    const x = toF64(v)
    for (let i = 0; i < length; i++) {
      const y = x.data[i * x.s]!
      ;(gs[groups[i]!] ??= new Doubles()).push(Number.isFinite(y) ? y : NaN)
    }
    this.held += 8 * length
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as ArrayAggKernel
    for (let i = 0; i < count; i++) {
      const p = o.groups[from[i]!]
      if (p === null || p === undefined) continue
      ;(this.groups[to[i]!] ??= new Doubles()).pushAll(p.data, 0, p.n)
    }
    this.held += o.held
  }

  heapBytes(): number {
    return this.held + this.groups.length * 8
  }

  result(count: number): Vector {
    const b = new ArrBuilder('DOUBLE[]', count)
    for (let g = 0; g < count; g++) {
      const p = this.groups[g]
      if (p === null || p === undefined || (this.fromArrays && p.n === 0)) b.pushNull()
      else b.pushRaw([p.n], p.data, 0, p.n)
    }
    return b.finish()
  }
}

/** `array_elem_*(array)`: one {@link ElemAccumulator} per group. */
export class ArrayElemKernel implements AggregateKernel {
  groups: (ElemAccumulator | null)[] = []

  constructor(readonly op: ElemOp, readonly type: ColumnType) {}

  resize(count: number): void {
    growArray(this.groups, count, null)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    if (v.kind !== 'arr') return
    const a = v as ArrVector
    const d = a.dims
    for (let i = 0; i < length; i++) {
      const j = a.isConst === true ? 0 : i
      if (a.shapes[j * d]! < 0) continue
      const acc = (this.groups[groups[i]!] ??= new ElemAccumulator(this.op))
      acc.add(a.shapes.subarray(j * d, (j + 1) * d), a.data, a.offsets[j]!, a.offsets[j + 1]!)
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as ArrayElemKernel
    for (let i = 0; i < count; i++) {
      const p = o.groups[from[i]!]
      if (p === null || p === undefined) continue
      const g = to[i]!
      const mine = this.groups[g]
      if (mine === null || mine === undefined) this.groups[g] = p
      else mine.merge(p)
    }
  }

  heapBytes(): number {
    let n = this.groups.length * 8
    for (const g of this.groups) if (g !== null && g !== undefined) n += g.acc.length * 24
    return n
  }

  result(count: number): Vector {
    const b = new ArrBuilder(this.type, count)
    for (let g = 0; g < count; g++) {
      const acc = this.groups[g]
      const vals = acc === null || acc === undefined ? null : acc.values()
      if (vals === null) b.pushNull()
      else b.pushRaw(acc!.shape, vals, 0, vals.length)
    }
    return b.finish()
  }
}

function elemAggregate(name: string, op: ElemOp, what: string): FunctionDef {
  return aggregate({
    name,
    signatures: [{ args: ['ARRAY'], returns: (t) => (t[0] === 'NULL' || t[0] === undefined ? 'DOUBLE[]' : t[0]) }],
    description: `Element-wise ${what} of the group's arrays (NULL arrays and elements skipped, as long as the longest array); with two or more arrays it is a scalar function.`,
    example: `SELECT ${name}(bids) FROM book SAMPLE BY 1h`,
    create: (site) => new ArrayElemKernel(op, site.returns),
  })
}

/** array_agg and the aggregate forms of array_elem_min/max/sum/avg. */
export const ARRAY_AGGREGATES: readonly FunctionDef[] = [
  aggregate({
    name: 'array_agg',
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE[]' }, { args: ['ARRAY'], returns: 'DOUBLE[]' }],
    description: "The group's values as one DOUBLE[] in row order (NULLs kept), or its 1-D arrays concatenated (NULL and empty arrays skipped; NULL when no element).",
    example: 'SELECT array_agg(x::double) FROM long_sequence(3)',
    create: (site) => new ArrayAggKernel(site.argTypes[0] !== 'DOUBLE' && site.argTypes[0] !== 'NULL', site.argPositions[0] ?? site.pos),
  }),
  elemAggregate('array_elem_min', 'min', 'minimum'),
  elemAggregate('array_elem_max', 'max', 'maximum'),
  elemAggregate('array_elem_sum', 'sum', 'sum'),
  elemAggregate('array_elem_avg', 'avg', 'average'),
]
