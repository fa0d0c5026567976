/** Helpers for aggregate kernel tests: run a definition over vectors, keyed or not. */
import { AGGREGATE_FUNCTIONS } from '../../../../lib/functions/aggregate/index.js'
import type { AggregateKernel, CallSite } from '../../../../lib/functions/registry-types.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'
import { getScalar, VectorWriter, type Scalar, type Vector } from '../../../../lib/types/vector.js'

/** A vector of `type` from scalars. */
export function vec(type: ColumnType, values: Scalar[]): Vector {
  const w = new VectorWriter(type, values.length)
  values.forEach((v, i) => w.set(i, v))
  return w.finish()
}

/** Creates the kernel of aggregate `name` for argument types `types`. */
export function kernel(name: string, types: ColumnType[], constants: Scalar[] = []): AggregateKernel {
  const def = AGGREGATE_FUNCTIONS.find((d) => d.name === name || d.aliases?.includes(name))
  if (def === undefined || def.kind !== 'aggregate') throw new Error(`no aggregate ${name}`)
  const sig = def.signatures.find((s) => s.args.length === types.length && s.args.every((a, i) => a === types[i] || a === 'ANY')) ?? def.signatures[0]!
  const returns = typeof sig.returns === 'function' ? sig.returns(types) : sig.returns
  const site: CallSite = { argTypes: types, constants: types.map((_, i) => constants[i]), returns, argPositions: types.map(() => 0), pos: 0 }
  return def.create(site)
}

/** Results of groups 0..count-1 as scalars. */
export function results(k: AggregateKernel, count: number): Scalar[] {
  const v = k.result(count)
  return Array.from({ length: count }, (_, i) => getScalar(v, i))
}

/** Runs `name` non-keyed over the vectors (one batch) and returns the single result. */
export function one(name: string, types: ColumnType[], args: Vector[], constants: Scalar[] = []): Scalar {
  const k = kernel(name, types, constants)
  k.resize(1)
  k.updateOne(0, args, args[0]?.length ?? 0)
  return results(k, 1)[0]!
}

/** Runs `name` keyed by `groups` and returns results of groups 0..n-1. */
export function keyed(name: string, types: ColumnType[], groups: number[], args: Vector[], constants: Scalar[] = []): Scalar[] {
  const k = kernel(name, types, constants)
  const n = Math.max(0, ...groups) + 1
  k.resize(n)
  k.update(Int32Array.from(groups), args, groups.length)
  return results(k, n)
}
