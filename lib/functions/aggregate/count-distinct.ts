/**
 * `count_distinct(x)` (also what the binder maps `count(DISTINCT x)` to) and
 * `approx_count_distinct(x)` (computed exactly here): the number of distinct non-null values
 * per group, LONG; 0 for a group without values.
 */
import { getScalar, type Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, growArray, nullMask, sameGroup } from './agg-util.js'
import { objectKey } from '../../types/array.js'

type Key = number | bigint | string | boolean

/** One Set of values per group. */
export class CountDistinctKernel implements AggregateKernel {
  sets: (Set<Key> | null)[] = []
  /** values held across all sets (for {@link heapBytes}) */
  private held = 0
  /** estimated bytes of the held values beyond their Set entries (strings) */
  private heldChars = 0

  resize(count: number): void {
    growArray(this.sets, count, null)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const sets = this.sets
    switch (v.kind) {
      case 'f64': case 'f32': case 'i32': case 'u16': case 'i8': case 'i16': case 'bool': {
        const d = v.data
        const m = nullMask(v, length)
        let added = 0
        for (let i = 0; i < length; i++) {
          if (m[i] !== 0) continue
          const s = (sets[groups[i]!] ??= new Set())
          const n = s.size
          added += s.add(d[i]!).size - n
        }
        this.held += added
        return
      }
      case 'sym': {
        const d = v.data
        const vals = v.dict.values
        let added = 0
        for (let i = 0; i < length; i++) {
          const k = d[i]!
          if (k < 0) continue
          const s = (sets[groups[i]!] ??= new Set())
          const n = s.size
          added += s.add(vals[k]!).size - n
        }
        this.held += added
        return
      }
      default: {
        for (let i = 0; i < length; i++) {
          const s = getScalar(v, i)
          if (s === null) continue
          const key: Key = typeof s === 'object' ? objectKey(s) : s
          const set = (sets[groups[i]!] ??= new Set())
          const n = set.size
          if (set.add(key).size !== n) {
            this.held++
            this.heldChars += typeof key === 'string' ? key.length * 2 + 24 : 16
          }
        }
      }
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as CountDistinctKernel
    for (let i = 0; i < count; i++) {
      const src = o.sets[from[i]!]
      if (src === null || src === undefined) continue
      const g = to[i]!
      const dst = (this.sets[g] ??= new Set())
      const n = dst.size
      for (const k of src) dst.add(k)
      this.held += dst.size - n
    }
  }

  heapBytes(): number {
    return this.held * 48 + this.heldChars + this.sets.length * 8
  }

  result(count: number): Vector {
    const data = new Float64Array(count)
    for (let g = 0; g < count; g++) data[g] = this.sets[g]?.size ?? 0
    return { kind: 'i64', type: 'LONG', length: count, data }
  }
}

/** count_distinct and approx_count_distinct. */
export const COUNT_DISTINCT_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'count_distinct',
    signatures: [{ args: ['ANY'], returns: 'LONG' }],
    description: 'Number of distinct non-null values; count(DISTINCT x) is the same function.',
    example: 'SELECT count_distinct(x % 3) FROM long_sequence(10)',
    create: () => new CountDistinctKernel(),
  }),
  aggregate({
    name: 'approx_count_distinct',
    signatures: [{ args: ['ANY'], returns: 'LONG' }],
    description: 'Number of distinct non-null values (EpochDB computes it exactly).',
    example: 'SELECT approx_count_distinct(x % 3) FROM long_sequence(10)',
    create: () => new CountDistinctKernel(),
  }),
]
