/**
 * `first(x)`, `last(x)`, `first_not_null(x)`, `last_not_null(x)`: the value of the first / last
 * row of each group in input (row) order — for first/last even when it is null — for every
 * type. Values are kept in a typed array of the input's layout (a plain array for text, binary
 * and symbols, which are kept as strings so batches with different dictionaries mix freely;
 * arrays as copies of each group's array, as QuestDB's aggregation page says these four accept
 * array columns).
 */
import { physicalOf, type ColumnType } from '../../types/column-type.js'
import { allocate, SymbolTable, type Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, growArray, nullMask, sameGroup, type GroupArray } from './agg-util.js'
import { isDecimal, isNarrowDecimal } from '../../types/decimal.js'
import { DecimalFirstLastKernel } from './decimal-first-last-kernel.js'
import { arrGet, arrOf } from '../../types/array-vector.js'
import { DoubleArray } from '../../types/array.js'

type Which = 'first' | 'last'

/** first/last kernel. */
export class FirstLastKernel implements AggregateKernel {
  seen = new Uint8Array(0)
  /** fixed-width values (typed array of the input layout), or null for text/binary/symbol */
  fixed: GroupArray | null
  objs: (string | Uint8Array | DoubleArray | null)[] = []

  constructor(readonly which: Which, readonly skipNulls: boolean, readonly type: ColumnType) {
    const probe = allocate(type, 0)
    this.fixed = probe.kind === 'str' || probe.kind === 'bin' || probe.kind === 'sym' || probe.kind === 'arr' || probe.kind === 'null' ? null : (probe.data as GroupArray)
  }

  resize(count: number): void {
    this.seen = grow(this.seen, count)
    if (this.fixed !== null) this.fixed = grow(this.fixed, count)
    else growArray(this.objs, count, null)
  }

  /** Makes the i64 store exact when BigInt input arrives. */
  private promote(): void {
    const f = this.fixed
    if (f instanceof Float64Array && physicalOf(this.type) === 'i64') {
      const b = new BigInt64Array(f.length)
      for (let i = 0; i < f.length; i++) b[i] = BigInt(f[i]!)
      this.fixed = b
    }
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const mask = this.skipNulls ? nullMask(v, length) : null
    const seen = this.seen
    const first = this.which === 'first'
    if (v.kind === 'i64' && v.data instanceof BigInt64Array) this.promote()
    const fixed = this.fixed
    if (fixed !== null) {
      const d = v.data as ArrayLike<number | bigint>
      const big = fixed instanceof BigInt64Array
      for (let i = 0; i < length; i++) {
        if (mask !== null && mask[i] === 1) continue
        const g = groups[i]!
        if (first && seen[g] === 1) continue
        const x = d[i]!
        fixed[g] = (big && typeof x === 'number' ? BigInt(x) : x) as never
        seen[g] = 1
      }
      return
    }
    const objs = this.objs
    if (v.kind === 'arr') {
      for (let i = 0; i < length; i++) {
        if (mask !== null && mask[i] === 1) continue
        const g = groups[i]!
        if (first && seen[g] === 1) continue
        const a = arrGet(v, i)
        objs[g] = a === null ? null : new DoubleArray(a.shape, a.values.slice())
        seen[g] = 1
      }
      return
    }
    const vals = v.kind === 'sym' ? v.dict.values : null
    const d = v.data as ArrayLike<unknown>
    for (let i = 0; i < length; i++) {
      if (mask !== null && mask[i] === 1) continue
      const g = groups[i]!
      if (first && seen[g] === 1) continue
      if (vals !== null) { const k = d[i] as number; objs[g] = k < 0 ? null : vals[k]! } else objs[g] = (d === null ? null : d[i]) as string | Uint8Array | null
      seen[g] = 1
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  /** Folds a partial result of `other` that covers rows after this kernel's rows. */
  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as FirstLastKernel
    if (o.fixed instanceof BigInt64Array) this.promote()
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      const g = to[i]!
      if (o.seen[f] !== 1 || (this.which === 'first' && this.seen[g] === 1)) continue
      if (this.fixed !== null) {
        const x = o.fixed![f]!
        this.fixed[g] = (this.fixed instanceof BigInt64Array && typeof x === 'number' ? BigInt(x) : x) as never
      } else this.objs[g] = o.objs[f] ?? null
      this.seen[g] = 1
    }
  }

  result(count: number): Vector {
    const out = allocate(this.type, count)
    if (this.fixed !== null) {
      const src = this.fixed
      if (src instanceof BigInt64Array) {
        const data = new BigInt64Array(count).fill(-9223372036854775808n)
        for (let g = 0; g < count; g++) if (this.seen[g] === 1) data[g] = src[g]!
        return { kind: 'i64', type: this.type, length: count, data }
      }
      const dst = out.data as Float64Array
      for (let g = 0; g < count; g++) if (this.seen[g] === 1) dst[g] = src[g] as number
      return out
    }
    if (out.kind === 'sym') {
      const dict = new SymbolTable()
      const data = out.data
      for (let g = 0; g < count; g++) { const s = this.objs[g]; data[g] = s === null || s === undefined ? -1 : dict.intern(s as string) }
      return { ...out, dict }
    }
    if (out.kind === 'arr') return arrOf(this.type, this.objs.map((a) => (a instanceof DoubleArray ? a : null)))
    if (out.kind === 'str' || out.kind === 'bin') {
      const dst = out.data as unknown[]
      for (let g = 0; g < count; g++) dst[g] = this.objs[g] ?? null
    }
    return out
  }
}

function firstLast(name: string, which: Which, skipNulls: boolean, description: string): FunctionDef {
  return aggregate({
    name,
    signatures: [{ args: ['ANY'], returns: (a) => a[0]! }],
    description,
    example: `SELECT ${name}(x) FROM long_sequence(10)`,
    create: (site) => (isDecimal(site.returns) && isNarrowDecimal(site.returns) ? new DecimalFirstLastKernel(which === 'first', skipNulls, site.returns) : new FirstLastKernel(which, skipNulls, site.returns)),
  })
}

/** first, last, first_not_null, last_not_null. */
export const FIRST_LAST_FUNCTIONS: readonly FunctionDef[] = [
  firstLast('first', 'first', false, 'The value of the first row of the group (in row order), even when null.'),
  firstLast('last', 'last', false, 'The value of the last row of the group (in row order), even when null.'),
  firstLast('first_not_null', 'first', true, 'The first non-null value of the group (in row order).'),
  firstLast('last_not_null', 'last', true, 'The last non-null value of the group (in row order).'),
]
