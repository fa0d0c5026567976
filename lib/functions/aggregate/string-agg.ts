/**
 * `string_agg(s, delimiter)`: the non-null values of each group joined by a constant delimiter,
 * in row order (STRING, or VARCHAR for varchar input); a group without a value gives null.
 * `string_distinct_agg(s, delimiter)` (QuestDB's aggregation page) keeps each distinct value once,
 * in the order first seen.
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, growArray, sameGroup } from './agg-util.js'

/** Collects the parts of each group (each distinct value once when `distinct`). */
export class StringAggKernel implements AggregateKernel {
  parts: (string[] | null)[] = []
  /** the values each group holds, when `distinct` */
  seen: (Set<string> | null)[] = []
  /** estimated bytes of the parts held (for {@link heapBytes}) */
  private held = 0

  constructor(readonly delimiter: string, readonly type: 'STRING' | 'VARCHAR', readonly distinct = false) {}

  /** Adds `s` to group `g` (once, when distinct); returns whether it was added. */
  private add(g: number, s: string): boolean {
    if (this.distinct) {
      const seen = this.seen[g] ??= new Set()
      if (seen.has(s)) return false
      seen.add(s)
    }
    ;(this.parts[g] ??= []).push(s)
    return true
  }

  resize(count: number): void {
    growArray(this.parts, count, null)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const parts = this.parts
    if (v.kind === 'sym') {
      for (let i = 0; i < length; i++) {
        const k = v.data[i]!
        if (k < 0) continue
        const g = groups[i]!
        if (this.distinct) { if (this.add(g, v.dict.values[k]!)) this.held += 16; continue }
        ;(parts[g] ??= []).push(v.dict.values[k]!)
        this.held += 8
      }
      return
    }
    if (v.kind === 'u16') {
      for (let i = 0; i < length; i++) {
        const c = v.data[i]!
        if (c !== 0 && this.add(groups[i]!, String.fromCharCode(c))) this.held += 8
      }
      return
    }
    if (v.kind !== 'str') return
    const d = v.data
    for (let i = 0; i < length; i++) {
      const s = d[i]
      if (s === null || s === undefined) continue
      if (this.distinct) { if (this.add(groups[i]!, s)) this.held += 16 + 24 + s.length * 2; continue }
      ;(parts[groups[i]!] ??= []).push(s)
      this.held += 8 + 24 + s.length * 2
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as StringAggKernel
    for (let i = 0; i < count; i++) {
      const p = o.parts[from[i]!]
      if (p === null || p === undefined) continue
      const g = to[i]!
      if (this.distinct) { for (const s of p) this.add(g, s); continue }
      ;(this.parts[g] ??= []).push(...p)
    }
    this.held += o.held
  }

  heapBytes(): number {
    return this.held + this.parts.length * 8
  }

  result(count: number): Vector {
    const data = new Array<string | null>(count)
    for (let g = 0; g < count; g++) { const p = this.parts[g]; data[g] = p === null || p === undefined ? null : p.join(this.delimiter) }
    return { kind: 'str', type: this.type, length: count, data }
  }
}

/** string_agg, string_distinct_agg. */
export const STRING_AGG_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'string_distinct_agg',
    signatures: [
      { args: ['STRING', 'STRING'], constant: [1], returns: 'STRING' },
      { args: ['VARCHAR', 'VARCHAR'], constant: [1], returns: 'VARCHAR' },
    ],
    description: 'The distinct non-null values of the group, each once in the order first seen, separated by a constant delimiter.',
    example: "SELECT string_distinct_agg((x % 3)::string, ',') FROM long_sequence(10)",
    create: (site) => {
      const d = site.constants[1]
      return new StringAggKernel(typeof d === 'string' ? d : '', site.returns === 'VARCHAR' ? 'VARCHAR' : 'STRING', true)
    },
  }),
  aggregate({
    name: 'string_agg',
    signatures: [
      { args: ['STRING', 'STRING'], constant: [1], returns: 'STRING' },
      { args: ['VARCHAR', 'VARCHAR'], constant: [1], returns: 'VARCHAR' },
    ],
    description: 'The non-null values of the group concatenated in row order, separated by a constant delimiter.',
    example: "SELECT string_agg(x::string, ',') FROM long_sequence(5)",
    create: (site) => {
      const d = site.constants[1]
      return new StringAggKernel(typeof d === 'string' ? d : '', site.returns === 'VARCHAR' ? 'VARCHAR' : 'STRING')
    },
  }),
]
