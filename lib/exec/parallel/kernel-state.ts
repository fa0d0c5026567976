/**
 * Aggregate kernel state crossing a thread boundary. A kernel keeps its state in own fields of
 * structured-cloneable values (typed arrays, arrays, Maps, Sets, strings, numbers, bigints — the
 * contract of `AggregateKernel`), so the fields travel by structured clone and a fresh kernel
 * of the same call site takes them back.
 */
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { BoundAggregate } from '../../plan/plan-node.js'

/** The kernel's state as plain data (its own fields). */
export function kernelState(k: AggregateKernel): object {
  return { ...k }
}

/** A kernel of `agg` holding `state` (from {@link kernelState}, possibly on another thread). */
export function kernelFrom(agg: Pick<BoundAggregate, 'def' | 'site'>, state: object): AggregateKernel {
  return Object.assign(agg.def.create(agg.site), state)
}
