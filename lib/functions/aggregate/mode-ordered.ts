/**
 * `mode(x)`: the most frequent non-null value of a group (ties: the value seen first; a group
 * of nulls only gives null), and `isOrdered(x)`: whether the group's values never decrease in
 * row order (QuestDB's boolean function over a column; nulls are skipped).
 */
import { type ColumnType } from '../../types/column-type.js'
import { type Scalar, type Vector, VectorWriter, getScalar, materialize } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, growArray, sameGroup } from './agg-util.js'

/** A Map key of a value (bigints and numbers of the same value meet). */
function keyOf(v: Scalar): unknown {
  return typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v
}

/** Per group: each value's count, in first-seen order. */
export class ModeKernel implements AggregateKernel {
  counts: (Map<unknown, { value: Scalar; n: number }> | null)[] = []

  constructor(readonly type: ColumnType) {}

  resize(count: number): void {
    growArray(this.counts, count, null)
  }

  private add(g: number, key: unknown, value: Scalar, n: number): void {
    let m = this.counts[g]
    if (m === null || m === undefined) this.counts[g] = m = new Map()
    const e = m.get(key)
    if (e === undefined) m.set(key, { value, n })
    else e.n += n
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = materialize(args[0]!)
    for (let i = 0; i < length; i++) {
      const x = getScalar(v, i)
      if (x !== null) this.add(groups[i]!, keyOf(x), x, 1)
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = (other as ModeKernel).counts
    for (let i = 0; i < count; i++) {
      const m = o[from[i]!]
      if (m !== null && m !== undefined) for (const [k, e] of m) this.add(to[i]!, k, e.value, e.n)
    }
  }

  result(count: number): Vector {
    const w = new VectorWriter(this.type, count)
    for (let g = 0; g < count; g++) {
      let best: { value: Scalar; n: number } | undefined
      for (const e of this.counts[g]?.values() ?? []) if (best === undefined || e.n > best.n) best = e
      w.set(g, best?.value ?? null)
    }
    return w.finish()
  }
}

/** Per group: ordered so far, and the first and last non-null values. */
export class IsOrderedKernel implements AggregateKernel {
  // values as read (a bigint past 2^53): JavaScript compares a bigint and a number exactly
  state: ({ ordered: boolean; first: number | bigint; last: number | bigint } | null)[] = []

  resize(count: number): void {
    growArray(this.state, count, null)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = materialize(args[0]!)
    for (let i = 0; i < length; i++) {
      const x = getScalar(v, i)
      if (x === null) continue
      const n = typeof x === 'bigint' ? x : Number(x)
      const g = groups[i]!
      const s = this.state[g]
      if (s === null || s === undefined) this.state[g] = { ordered: true, first: n, last: n }
      else { if (n < s.last) s.ordered = false; s.last = n }
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  /** Folds a partial result of `other` that covers rows after this kernel's rows. */
  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = (other as IsOrderedKernel).state
    for (let i = 0; i < count; i++) {
      const b = o[from[i]!]
      if (b === null || b === undefined) continue
      const g = to[i]!
      const a = this.state[g]
      if (a === null || a === undefined) { this.state[g] = { ...b }; continue }
      a.ordered = a.ordered && b.ordered && b.first >= a.last
      a.last = b.last
    }
  }

  result(count: number): Vector {
    const data = new Uint8Array(count)
    for (let g = 0; g < count; g++) data[g] = this.state[g]?.ordered === false ? 0 : 1
    return { kind: 'bool', type: 'BOOLEAN', length: count, data }
  }
}

const MODE_TYPES: readonly ColumnType[] = ['BOOLEAN', 'BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'CHAR', 'STRING', 'VARCHAR', 'DATE', 'TIMESTAMP', 'TIMESTAMP_NS']
const ORDERED_TYPES: readonly ColumnType[] = ['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'TIMESTAMP_NS']

/** mode and isOrdered. */
export const MODE_ORDERED_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'mode',
    signatures: [...MODE_TYPES.map((t) => ({ args: [t], returns: t })), { args: ['SYMBOL'], returns: 'STRING' as ColumnType }],
    description: 'The most frequent non-null value of the group (ties: the one seen first); null when there is none.',
    example: 'SELECT mode(x % 3) FROM long_sequence(10)',
    create: (site) => new ModeKernel(site.returns),
  }),
  aggregate({
    name: 'isordered',
    signatures: ORDERED_TYPES.map((t) => ({ args: [t], returns: 'BOOLEAN' as ColumnType })),
    description: 'True when the values of the group never decrease in row order (nulls skipped).',
    example: 'SELECT isOrdered(x) FROM long_sequence(10)',
    create: () => new IsOrderedKernel(),
  }),
]
