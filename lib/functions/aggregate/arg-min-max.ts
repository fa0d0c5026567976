/**
 * `arg_max(value, key)` / `arg_min(value, key)` (QuestDB's aggregation page): the value at the
 * row where the key is largest / smallest, of the value's type (DOUBLE, LONG or TIMESTAMP; keys
 * DOUBLE, LONG or TIMESTAMP). Rows with a NULL key are skipped; the value at the chosen row may
 * be NULL; a group without a key is NULL. On equal keys the first row wins (parallel shares
 * merge in row order and take a later share's row only for a strictly better key). Keys are
 * compared as doubles (a LONG key beyond 2^53 compares rounded); values keep every digit.
 */
import { type ColumnType, LONG_NULL, LONG_NULL_BIG } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

/** Per group: the best key so far, the value at its row, and whether a key was seen. */
export class ArgExtremeKernel implements AggregateKernel {
  key = new Float64Array(0)
  val = new Float64Array(0)
  /** exact values, once a BigInt-stored LONG/TIMESTAMP batch arrives */
  big: BigInt64Array | null = null
  seen = new Uint8Array(0)

  constructor(readonly max: boolean, readonly type: ColumnType) {}

  resize(count: number): void {
    this.key = grow(this.key, count)
    this.val = grow(this.val, count)
    this.seen = grow(this.seen, count)
    if (this.big !== null) this.big = grow(this.big, count)
  }

  private exact(): BigInt64Array {
    if (this.big === null) {
      const b = new BigInt64Array(this.val.length)
      for (let g = 0; g < b.length; g++) { const v = this.val[g]!; b[g] = v === LONG_NULL || v !== v ? LONG_NULL_BIG : BigInt(v) }
      this.big = b
    }
    return this.big
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const k = toF64(arg(args, 1)).data
    const { key, val, seen, max } = this
    const raw = v.data
    const bigBatch = raw instanceof BigInt64Array
    const big = bigBatch || this.big !== null ? this.exact() : null
    const f = v.kind === 'f64' || (v.kind === 'i64' && raw instanceof Float64Array) ? raw as Float64Array : bigBatch ? null : toF64(v).data
    for (let i = 0; i < length; i++) {
      const x = k[i]!
      if (x !== x) continue
      const g = groups[i]!
      if (seen[g] === 1 && (max ? !(x > key[g]!) : !(x < key[g]!))) continue
      seen[g] = 1
      key[g] = x
      if (f !== null) { val[g] = f[i]!; if (big !== null) { const y = f[i]!; big[g] = y === LONG_NULL || y !== y ? LONG_NULL_BIG : BigInt(y) } }
      else { const y = (raw as BigInt64Array)[i]!; big![g] = y; val[g] = y === LONG_NULL_BIG ? LONG_NULL : Number(y) }
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as ArgExtremeKernel
    if (o.big !== null) this.exact()
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      if (o.seen[f] === 0) continue
      const x = o.key[f]!
      if (this.seen[g] === 1 && (this.max ? !(x > this.key[g]!) : !(x < this.key[g]!))) continue
      this.seen[g] = 1
      this.key[g] = x
      this.val[g] = o.val[f]!
      if (this.big !== null) { const y = o.val[f]!; this.big[g] = o.big !== null ? o.big[f]! : y === LONG_NULL || y !== y ? LONG_NULL_BIG : BigInt(y) }
    }
  }

  result(count: number): Vector {
    if (this.type === 'DOUBLE') {
      const data = new Float64Array(count)
      for (let g = 0; g < count; g++) data[g] = this.seen[g] === 1 ? this.val[g]! : NaN
      return { kind: 'f64', type: 'DOUBLE', length: count, data }
    }
    if (this.big !== null) {
      const data = new BigInt64Array(count)
      for (let g = 0; g < count; g++) data[g] = this.seen[g] === 1 ? this.big[g]! : LONG_NULL_BIG
      return { kind: 'i64', type: this.type, length: count, data } as Vector
    }
    const data = new Float64Array(count)
    for (let g = 0; g < count; g++) data[g] = this.seen[g] === 1 ? this.val[g]! : LONG_NULL
    return { kind: 'i64', type: this.type, length: count, data } as Vector
  }
}

const TYPES = ['DOUBLE', 'LONG', 'TIMESTAMP'] as const

function argExtreme(max: boolean): FunctionDef {
  const name = max ? 'arg_max' : 'arg_min'
  return aggregate({
    name,
    signatures: TYPES.flatMap((v) => TYPES.map((k) => ({ args: [v, k], returns: v }))),
    description: `The value at the row where the key is ${max ? 'largest' : 'smallest'} (first such row); rows with a NULL key are skipped.`,
    example: `SELECT ${name}(x, x % 4) FROM long_sequence(10)`,
    create: (site) => new ArgExtremeKernel(max, site.returns as ColumnType),
  })
}

/** arg_max, arg_min. */
export const ARG_EXTREME_FUNCTIONS: readonly FunctionDef[] = [argExtreme(true), argExtreme(false)]
