/**
 * The final step of a parallel aggregation: folds the shares' partial groups, in row order, into
 * one set of groups with `AggregateKernel.merge` (the groups matched by key through one
 * {@link KeyIndex}), then lays them out as the aggregation's output. Groups come out in order of
 * first appearance over the shares, which is the order one thread gives; a SAMPLE BY's rows are
 * put in bucket order when its parts were not (out-of-order data across parts).
 */
import { type Batch, type Vector, gather } from '../../types/vector.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { ParallelAggregateNode } from '../../plan/plan-node.js'
import { KeyIndex } from '../keys/key-index.js'
import type { Partial } from './partial.js'

/** The merged groups of `partials` in `node`'s output layout, or undefined when there are none. */
export function mergePartials(node: ParallelAggregateNode, partials: readonly Partial[]): Batch | undefined {
  const share = node.share
  const index = new KeyIndex(share.keys.length)
  const kernels: AggregateKernel[] = share.aggregates.map((a) => a.def.create(a.site))
  let to = new Int32Array(0)
  let from = new Int32Array(0)
  for (const p of partials) {
    if (p.count === 0) continue
    if (to.length < p.count) {
      to = new Int32Array(p.count)
      from = new Int32Array(p.count)
      for (let i = 0; i < p.count; i++) from[i] = i
    }
    index.assign(p.keys, p.count, to)
    for (let a = 0; a < kernels.length; a++) {
      kernels[a]!.resize(index.count)
      kernels[a]!.merge(p.kernels[a]!, from, to, p.count)
    }
  }
  const count = share.keys.length === 0 ? 1 : index.count
  if (count === 0) return undefined
  const vectors: Vector[] = share.keys.map((_, k) => index.vector(k, node.output[k]!))
  for (const k of kernels) { k.resize(count); vectors.push(k.result(count)) }
  const batch: Batch = { length: count, vectors }
  return share.kind === 'sample_by' ? inBucketOrder(batch, share.bucketKey) : batch
}

/** `b` with its rows stably sorted by the bucket column when they are not in bucket order already. */
function inBucketOrder(b: Batch, bucketKey: number): Batch {
  const ts = b.vectors[bucketKey]!.data as Float64Array
  let sorted = true
  for (let i = 1; i < b.length && sorted; i++) if (ts[i]! < ts[i - 1]!) sorted = false
  if (sorted) return b
  const order = Int32Array.from({ length: b.length }, (_, i) => i).sort((x, y) => ts[x]! - ts[y]! || x - y)
  return { length: b.length, vectors: b.vectors.map((v) => gather(v, order, b.length)) }
}
