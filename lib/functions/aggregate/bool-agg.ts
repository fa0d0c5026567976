/**
 * `bool_and(b)` (true when every value is true) and `bool_or(b)` (true when any value is true),
 * BOOLEAN; a group without rows gives false (BOOLEAN has no null).
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

/** AND / OR over booleans per group. */
export class BoolAggKernel implements AggregateKernel {
  /** per group: 0 = no rows yet, 1 = false, 2 = true */
  state = new Uint8Array(0)

  constructor(readonly isAnd: boolean) {}

  resize(count: number): void {
    this.state = grow(this.state, count)
  }

  private fold(g: number, x: number): void {
    const s = this.state[g]!
    if (s === 0) this.state[g] = x === 0 ? 1 : 2
    else if (this.isAnd ? x === 0 : x !== 0) this.state[g] = this.isAnd ? 1 : 2
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const d = arg(args, 0).data as Uint8Array
    for (let i = 0; i < length; i++) this.fold(groups[i]!, d[i]!)
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = (other as BoolAggKernel).state
    for (let i = 0; i < count; i++) { const s = o[from[i]!]!; if (s !== 0) this.fold(to[i]!, s - 1) }
  }

  result(count: number): Vector {
    const data = new Uint8Array(count)
    for (let g = 0; g < count; g++) data[g] = this.state[g] === 2 ? 1 : 0
    return { kind: 'bool', type: 'BOOLEAN', length: count, data }
  }
}

/** bool_and and bool_or. */
export const BOOL_AGG_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'bool_and',
    signatures: [{ args: ['BOOLEAN'], returns: 'BOOLEAN' }],
    description: 'True when every value of the group is true.',
    example: 'SELECT bool_and(x > 0) FROM long_sequence(5)',
    create: () => new BoolAggKernel(true),
  }),
  aggregate({
    name: 'bool_or',
    signatures: [{ args: ['BOOLEAN'], returns: 'BOOLEAN' }],
    description: 'True when any value of the group is true.',
    example: 'SELECT bool_or(x > 4) FROM long_sequence(5)',
    create: () => new BoolAggKernel(false),
  }),
]
