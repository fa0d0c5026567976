/**
 * GROUP BY (explicit or QuestDB's implicit one): assigns each row a dense group id from its key
 * values ({@link KeyIndex}: one SYMBOL key through a remap array, one numeric key through a Map
 * on the number, anything else through a composite text key), then lets each aggregate kernel
 * fold whole batches by group id. {@link accumulateGroups} is also one share of a parallel
 * GROUP BY (exec/parallel), whose partial groups the kernels' `merge` folds together. Without keys
 * the batches go whole to the kernels' `updateOne` (no ids, no index): see {@link accumulateOne}.
 */
import { type Batch, type Vector, sliceVector } from '../../types/vector.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { AggregateNode, BoundAggregate, BoundExpr, OutputColumn } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { Reservation } from '../memory.js'
import { compileExpr } from '../evaluate.js'
import type { Runner } from './runner.js'
import { KeyIndex } from '../keys/key-index.js'
import { fuseDoubleSums } from '../../functions/aggregate/fused-double-sums.js'
import { PerfectGroups, perfectAggregate } from '../keys/perfect-groups.js'
import { pairMinMax } from '../../functions/aggregate/fused-min-max.js'
import { countsFromStats } from './count-from-stats.js'

/**
 * Rows of a batch refused by perfect groups that fold by key ids before the rest is offered to
 * them again: enough for every key of a small key range to appear (the keys the rest needs known).
 */
const PROBE_ROWS = 4096

/** Rows [start, end) of `b` (typed arrays viewed, not copied). */
function sliceBatch(b: Batch, start: number, end: number): Batch {
  return { length: end - start, vectors: b.vectors.map((v) => sliceVector(v, start, end)) }
}

/** Bytes per group an aggregate kernel's fixed-width state takes (typed arrays grown by doubling). */
const KERNEL_GROUP_BYTES = 16

/** The groups of an aggregation: their keys (by group id) and the kernels' state. */
export interface GroupState {
  /** the keys' index; undefined without keys (one group, id 0) */
  readonly index: KeyIndex | undefined
  readonly kernels: readonly AggregateKernel[]
  /** number of groups (1 without keys) */
  readonly count: number
  /** the statement memory the groups hold, given back by {@link groupsBatch} */
  readonly memory: Reservation
}

/** Runs a GROUP BY node: keyed or not. */
export async function* runAggregate(node: AggregateNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  if (node.keys.length === 0 && node.input.kind === 'scan') {
    const counted = await countsFromStats(node, node.input, ctx)
    if (counted !== undefined) { yield counted; return }
  }
  const state = await accumulateGroups(node.keys, node.aggregates, run(node.input, ctx), ctx)
  if (state.count === 0) return
  yield groupsBatch(state, node.output)
}

/**
 * Batches to aggregate: an operator's async stream, or (a parallel share without a filter) views
 * of shared columns produced synchronously, read without a promise per batch.
 */
export type BatchSource = AsyncIterable<Batch> | Iterable<Batch>

/**
 * Calls `fold` on every batch of `input`, yielding to the event loop when due (and throwing 57014
 * when the statement is cancelled or timed out) after each.
 */
async function eachBatch(input: BatchSource, ctx: ExecContext, fold: (b: Batch) => void): Promise<void> {
  if (Symbol.asyncIterator in input) {
    for await (const b of input) { fold(b); await ctx.maybeYield() }
    return
  }
  for (const b of input) {
    fold(b)
    const due = ctx.yieldIfDue()
    if (due !== undefined) await due
  }
}

/** Folds the batches of `input` into groups by `keyExprs`, each with the `aggregates`' kernels. */
export async function accumulateGroups(keyExprs: readonly BoundExpr[], aggregates: readonly BoundAggregate[], input: BatchSource, ctx: ExecContext): Promise<GroupState> {
  if (keyExprs.length === 0) return accumulateOne(aggregates, input, ctx)
  const keyEvals = keyExprs.map((k) => compileExpr(k, ctx))
  const argEvals = aggregates.map((a) => a.args.map((e) => compileExpr(e, ctx)))
  const kernels: AggregateKernel[] = aggregates.map((a) => a.def.create(a.site))
  // several avg/sum(double) fold in one pass over the rows; the others one kernel each
  const { fused, rest: single } = fuseDoubleSums(kernels)
  // min(c) and max(c) of one column read it once
  const { pairs, rest } = pairMinMax(kernels, aggregates, single)
  const index = keyExprs.length > 0 ? new KeyIndex(keyExprs.length) : undefined
  let groups = new Int32Array(0)
  // one key, every aggregate merging exactly: batches of known small keys skip the id assignment
  const perfect = index !== undefined && keyExprs.length === 1 && fused.length === 0 && aggregates.every((a, i) => perfectAggregate(a, kernels[i]!))
    ? new PerfectGroups(() => aggregates.map((a) => a.def.create(a.site)), index, aggregates, kernels) : undefined
  // given back when the groups are emitted; on failure or an early stop, when the statement ends
  const memory = ctx.memory.reservation(index !== undefined ? 'GROUP BY' : 'aggregate')
  if (index === undefined) for (const k of kernels) k.resize(1)
  /** Folds `b` by key ids from the index (new keys get ids in order of first appearance). */
  const ordinary = (b: Batch, keys: readonly Vector[]): void => {
    if (groups.length < b.length) groups = new Int32Array(b.length)
    index!.assign(keys, b.length, groups)
    perfect?.note(keys[0]!, groups, b.length)
    for (const a of rest) {
      kernels[a]!.resize(index!.count)
      kernels[a]!.update(groups, argEvals[a]!.map((e) => e(b)), b.length)
    }
    for (const p of pairs) {
      p.fused.resize(index!.count)
      p.fused.update(groups, argEvals[p.of[0]]!.map((e) => e(b)), b.length)
    }
    for (const f of fused) {
      f.sums.resize(index!.count)
      f.sums.update(groups, f.of.map((a) => argEvals[a]![0]!(b)), b.length)
    }
  }
  /** Folds `b` through perfect groups when its keys allow (see perfect-groups.ts); false when nothing was folded. */
  const take = (b: Batch, keys: readonly Vector[]): boolean => perfect!.take(keys[0]!, b.length, (a) => argEvals[a]!.map((e) => e(b)))
  // a batch refused by perfect groups folds its first PROBE_ROWS rows by ids, then offers the rest again
  // (the first batch of every statement and share brings all its keys in its first rows); stopped once it does not help
  let probe = true
  await eachBatch(input, ctx, (b) => {
    if (index === undefined) return // unreachable: no keys go to accumulateOne
    const keys = keyEvals.map((e) => e(b))
    if (perfect !== undefined && take(b, keys)) {
      memory.resize(index.bytes + kernelBytes(kernels, index.count + perfect.groups))
      return
    }
    perfect?.flush(kernels)
    if (perfect !== undefined && probe && b.length >= 2 * PROBE_ROWS) {
      const head = sliceBatch(b, 0, PROBE_ROWS), tail = sliceBatch(b, PROBE_ROWS, b.length)
      ordinary(head, keyEvals.map((e) => e(head)))
      const tailKeys = keyEvals.map((e) => e(tail))
      if (take(tail, tailKeys)) {
        memory.resize(index.bytes + kernelBytes(kernels, index.count + perfect.groups))
      } else {
        probe = false
        ordinary(tail, tailKeys)
        memory.resize(index.bytes + kernelBytes(kernels, index.count))
      }
      return
    }
    ordinary(b, keys)
    memory.resize(index.bytes + kernelBytes(kernels, index.count))
  })
  perfect?.flush(kernels)
  for (const f of fused) f.sums.settle()
  return { index, kernels, count: index?.count ?? 1, memory }
}

/**
 * An aggregation without keys: one group, each batch handed whole to the kernels' `updateOne`
 * (their loop over the column is the work; nothing is done per row here). Several double sums
 * still fold in one pass and min/max of one column in one read.
 */
async function accumulateOne(aggregates: readonly BoundAggregate[], input: BatchSource, ctx: ExecContext): Promise<GroupState> {
  const argEvals = aggregates.map((a) => a.args.map((e) => compileExpr(e, ctx)))
  const kernels: AggregateKernel[] = aggregates.map((a) => a.def.create(a.site))
  const { fused, rest: single } = fuseDoubleSums(kernels)
  const { pairs, rest } = pairMinMax(kernels, aggregates, single)
  const memory = ctx.memory.reservation('aggregate')
  for (const k of kernels) k.resize(1)
  memory.resize(kernelBytes(kernels, 1))
  await eachBatch(input, ctx, (b) => {
    for (const a of rest) kernels[a]!.updateOne(0, argEvals[a]!.map((e) => e(b)), b.length)
    for (const f of fused) f.sums.updateOne(0, f.of.map((a) => argEvals[a]![0]!(b)), b.length)
    for (const p of pairs) p.fused.updateOne(0, argEvals[p.of[0]]!.map((e) => e(b)), b.length)
    memory.resize(kernelBytes(kernels, 1))
  })
  for (const f of fused) f.sums.settle()
  return { index: undefined, kernels, count: 1, memory }
}

/** The groups as one batch in `output`'s layout (keys, then each aggregate's result); gives back their memory. */
export function groupsBatch(state: GroupState, output: readonly OutputColumn[]): Batch {
  const { index, kernels, count } = state
  const vectors: Vector[] = []
  const width = output.length - kernels.length
  for (let k = 0; k < width; k++) vectors.push(index!.vector(k, output[k]!))
  for (const k of kernels) { k.resize(count); vectors.push(k.result(count)) }
  state.memory.close()
  return { length: count, vectors }
}

/** Estimated bytes of the kernels' state for `groups` groups. */
export function kernelBytes(kernels: readonly AggregateKernel[], groups: number): number {
  let n = 0
  for (const k of kernels) n += groups * KERNEL_GROUP_BYTES + (k.heapBytes?.() ?? 0)
  return n
}
