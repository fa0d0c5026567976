/**
 * The final step of a parallel aggregation: folds the shares' partial groups, in row order, into
 * one set of groups with `AggregateKernel.merge` (the groups matched by key through one
 * {@link KeyIndex}), then lays them out as the aggregation's output. Groups come out in order of
 * first appearance over the shares, which is the order one thread gives; a SAMPLE BY's rows are
 * put in bucket order when its parts were not (out-of-order data across parts).
 */
import { type Batch, type Vector, concatVectors, gather, sliceVector } from '../../types/vector.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { ParallelAggregateNode } from '../../plan/plan-node.js'
import { KeyIndex } from '../keys/key-index.js'
import type { Partial } from './partial.js'

/** The merged groups of `partials` in `node`'s output layout, or undefined when there are none. */
export function mergePartials(node: ParallelAggregateNode, partials: readonly Partial[]): Batch | undefined {
  const share = node.share
  if (share.kind === 'sample_by' && share.keys.length > 1) {
    const sliced = mergeTimeSlices(node, partials, share.bucketKey)
    if (sliced !== null) return sliced
  }
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

/** The bucket column of a partial as numbers, when it is a plain Float64Array (TIMESTAMP). */
function bucketsOf(p: Partial, bucketKey: number): Float64Array | undefined {
  const v = p.keys[bucketKey]!
  return !v.isConst && v.data instanceof Float64Array ? v.data : undefined
}

/**
 * A keyed SAMPLE BY whose shares are time-ordered slices of the rows: two shares' groups can only
 * meet in a bucket where one share ends and the next begins. The groups are concatenated in
 * share order and only those in a share's first and last bucket are matched by key, instead of
 * keying every group again (with 10^5 groups that re-keying cost what the second core saved).
 * Null when the shares are not so ordered (out-of-order data across parts): the caller keys all.
 */
function mergeTimeSlices(node: ParallelAggregateNode, partials: readonly Partial[], bucketKey: number): Batch | undefined | null {
  const share = node.share
  const live = partials.filter((p) => p.count > 0)
  let prevLast = -Infinity
  for (const p of live) {
    const b = bucketsOf(p, bucketKey)
    if (b === undefined) return null
    if (b[0]! < prevLast) return null
    for (let i = 1; i < p.count; i++) if (b[i]! < b[i - 1]!) return null
    prevLast = b[p.count - 1]!
  }
  if (live.length === 0) return undefined
  // the groups of an edge bucket, matched by their other keys (one index per bucket start: no
  // composite key per group)
  const edges = new Map<number, { index: KeyIndex; dest: number[] }>()
  const others = share.keys.map((_, k) => k).filter((k) => k !== bucketKey)
  const kernels: AggregateKernel[] = share.aggregates.map((a) => a.def.create(a.site))
  const parts: Vector[][] = share.keys.map(() => [])
  let count = 0
  let ids = new Int32Array(0)
  const edgeOf = (start: number): { index: KeyIndex; dest: number[] } => {
    let edge = edges.get(start)
    if (edge === undefined) { edge = { index: new KeyIndex(others.length), dest: [] }; edges.set(start, edge) }
    return edge
  }
  for (const p of live) {
    const b = bucketsOf(p, bucketKey)!
    const n = p.count
    // rows are in bucket order: the first bucket's groups are a prefix, the last one's a suffix
    let loEnd = 1
    while (loEnd < n && b[loEnd] === b[0]) loEnd++
    let hiStart = n
    if (loEnd < n) { hiStart = n - 1; while (b[hiStart - 1] === b[n - 1]) hiStart-- }
    if (ids.length < n) ids = new Int32Array(n)
    const lo = edgeOf(b[0]!)
    lo.index.assign(others.map((k) => sliceVector(p.keys[k]!, 0, loEnd)), loEnd, ids)
    const hi = hiStart < n ? edgeOf(b[n - 1]!) : undefined
    if (hi !== undefined) hi.index.assign(others.map((k) => sliceVector(p.keys[k]!, hiStart, n)), n - hiStart, ids.subarray(hiStart))
    const from = new Int32Array(n)
    const to = new Int32Array(n)
    const fresh = new Int32Array(n)
    let nFresh = 0
    for (let i = 0; i < n; i++) {
      from[i] = i
      const edge = i < loEnd ? lo : i >= hiStart ? hi : undefined
      if (edge === undefined) { to[i] = count++; fresh[nFresh++] = i; continue }
      const id = ids[i]!
      let d = edge.dest[id]
      if (d === undefined) { d = count++; edge.dest[id] = d; fresh[nFresh++] = i }
      to[i] = d
    }
    for (let a = 0; a < kernels.length; a++) {
      kernels[a]!.resize(count)
      kernels[a]!.merge(p.kernels[a]!, from, to, p.count)
    }
    for (let k = 0; k < share.keys.length; k++) parts[k]!.push(gather(p.keys[k]!, fresh, nFresh))
  }
  const vectors: Vector[] = parts.map((ps, k) => concatVectors(node.output[k]!.type, ps))
  for (const k of kernels) { k.resize(count); vectors.push(k.result(count)) }
  return inBucketOrder({ length: count, vectors }, bucketKey)
}
