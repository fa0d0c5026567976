/**
 * SAMPLE BY operator: a bucketed aggregation over the designated timestamp.
 *
 * Each batch is clipped to [FROM, TO), each row gets its bucket ordinal by arithmetic on the
 * timestamp ({@link BucketTable}), and, with other keys, a dense group id per (bucket, key)
 * ({@link GroupTable}); without other keys the bucket ordinal is the group id. The aggregate
 * kernels fold whole batches by group id. The output (one batch, keys then aggregates, in bucket
 * order) is laid out and filled in a post-pass ({@link filledLayout}, {@link fillColumn}).
 *
 * Contract: the input is expected in ascending designated-timestamp order (what a table scan
 * gives); other orders are still aggregated correctly, through a slower pair map.
 */
import { SqlError, SqlState } from '../../errors.js'
import { BATCH_SIZE, type Batch, type Scalar, type Vector, gather, sliceVector, vectorOf } from '../../types/vector.js'
import { localToUtc } from '../../types/time-zone.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { SampleByNode } from '../../plan/plan-node.js'
import { parseUtcOffset } from '../../types/utc-offset.js'
import type { ExecContext } from '../context.js'
import { compileExpr, evalConstant } from '../evaluate.js'
import type { Runner } from './runner.js'
import { BucketTable, type SamplerSpec, makeSampler } from './sample-by-buckets.js'
import { GroupTable } from './sample-by-keys.js'
import { KeyIndex } from '../keys/key-index.js'
import { type Groups, fillColumn, filledLayout, plainLayout } from './sample-by-fill.js'
import { clipBatch, timestamps } from './sample-by-clip.js'
import { NsShift } from './sample-by-ns.js'
import { MAP_ENTRY_BYTES, type Reservation } from '../memory.js'
import { fuseDoubleSums } from '../../functions/aggregate/fused-double-sums.js'
import { pairMinMax } from '../../functions/aggregate/fused-min-max.js'

/** What SAMPLE BY gathered from its input: buckets, keys, (bucket, key) groups and the kernels' state. */
export interface SampleState {
  readonly spec: SamplerSpec
  /** FROM / TO as UTC bounds */
  readonly lo: number | undefined
  readonly hi: number | undefined
  readonly buckets: BucketTable | undefined
  /** the non-timestamp keys' index; undefined without such keys (the bucket is the group) */
  readonly keyIndex: KeyIndex | undefined
  readonly groups: Groups
  readonly kernels: readonly AggregateKernel[]
  readonly memory: Reservation
  /** a nanosecond stride's shift (bucket starts are then nanoseconds past its origin) */
  readonly shift?: NsShift | undefined
}

/** Runs a SAMPLE BY node. */
export async function* runSampleBy(node: SampleByNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const state = await accumulateSamples(node, run(node.input, ctx), ctx)
  const { spec, lo, hi, keyIndex, groups, kernels, memory, shift } = state
  let buckets = state.buckets
  const keyCount = keyIndex?.count ?? 1
  if (node.fill !== undefined && buckets === undefined && lo !== undefined && hi !== undefined && keyIndex === undefined) {
    buckets = new BucketTable(makeSampler(spec, lo))
  }
  const rows = node.fill === undefined
    ? plainLayout(groups)
    : await filledLayout(groups, keyIndex === undefined ? 1 : keyCount, buckets?.sampler, lo, hi, -1, ctx)
  if (rows.length === 0) return
  memory.grow(rows.length * (16 + 8 * node.output.length))
  const vectors: Vector[] = []
  let other = 0
  for (let k = 0; k < node.keys.length; k++) {
    const col = node.output[k]!
    if (k === node.bucketKey) { vectors.push(shift === undefined ? vectorOf('TIMESTAMP', rows.start, rows.length) : shift.starts(rows.start, rows.length)); continue }
    vectors.push(gather(keyIndex!.vector(other++, col), rows.key, rows.length))
  }
  for (let a = 0; a < kernels.length; a++) {
    kernels[a]!.resize(groups.count)
    vectors.push(await fillColumn(kernels[a]!.result(groups.count), node.fill?.[a], rows, keyIndex === undefined ? 1 : keyCount, ctx))
  }
  memory.close()
  // in batches: a FILL over a wide range makes up to 50M rows, which no consumer should get at once
  for (let from = 0; from < rows.length; from += BATCH_SIZE) {
    const to = Math.min(from + BATCH_SIZE, rows.length)
    yield from === 0 && to === rows.length ? { length: rows.length, vectors } : { length: to - from, vectors: vectors.map((v) => sliceVector(v, from, to)) }
    await ctx.maybeYield()
  }
}

/**
 * Folds the batches of `input` (the node's input rows, or one share's rows of a parallel SAMPLE
 * BY) into buckets and (bucket, key) groups with the node's aggregate kernels. `first` is the
 * first observation when `input` does not start with it (a share of a parallel SAMPLE BY
 * aligned to the first observation: every share buckets from the whole input's first row).
 */
export async function accumulateSamples(node: SampleByNode, input: AsyncIterable<Batch>, ctx: ExecContext, first?: number): Promise<SampleState> {
  const nodeSpec = samplerSpec(node, ctx)
  const toValue = node.to === undefined ? null : evalConstant(node.to, ctx)
  // SAMPLE BY 100n: buckets numbered from an origin (sample-by-ns.ts); FROM / TO are TIMESTAMP_NS
  const shift = node.unit === 'n'
    ? new NsShift({ stride: node.stride, spec: nodeSpec, from: node.from === undefined ? null : evalConstant(node.from, ctx), to: toValue, fill: node.fill !== undefined })
    : undefined
  const spec = shift === undefined ? nodeSpec : shift.spec(nodeSpec)
  const tz = spec.timeZone
  let lo = spec.from === undefined ? undefined : tz === undefined ? spec.from : localToUtc(tz, spec.from)
  let hi = toValue === null || shift !== undefined ? undefined : tz === undefined ? Number(toValue) : localToUtc(tz, Number(toValue))
  const otherKeys = node.keys.map((_, i) => i).filter((i) => i !== node.bucketKey)
  const keyEvals = otherKeys.map((i) => compileExpr(node.keys[i]!, ctx))
  const argEvals = node.aggregates.map((a) => a.args.map((e) => compileExpr(e, ctx)))
  const kernels: AggregateKernel[] = node.aggregates.map((a) => a.def.create(a.site))
  // several avg/sum(double) fold in one pass over the rows; the others one kernel each
  const { fused, rest: notFused } = fuseDoubleSums(kernels)
  // min(c) and max(c) of one column read it once
  const { pairs: minMax, rest } = pairMinMax(kernels, node.aggregates, notFused)
  const keyIndex = otherKeys.length > 0 ? new KeyIndex(otherKeys.length) : undefined
  const pairs = keyIndex === undefined ? undefined : new GroupTable()
  let buckets: BucketTable | undefined
  let bucketIds = new Int32Array(0)
  let keyIds = new Int32Array(0)
  let groupIds = new Int32Array(0)
  // buckets, keys, (bucket, key) pairs and the kernels' state; then the output layout
  const memory = ctx.memory.reservation('SAMPLE BY')
  for await (const batch of input) {
    const b = shift === undefined ? clipBatch(batch, node.timestampColumn, lo, hi) : shift.clip(batch, node.timestampColumn)
    const n = b.length
    if (n === 0) continue
    const ts = shift === undefined ? timestamps(b.vectors[node.timestampColumn]!) : shift.shifted(b.vectors[node.timestampColumn]!, n)
    buckets ??= new BucketTable(makeSampler(spec, first ?? ts[0]!))
    if (bucketIds.length < n) { bucketIds = new Int32Array(n); keyIds = new Int32Array(n); groupIds = new Int32Array(n) }
    let groups = bucketIds
    let count: number
    if (keyIndex !== undefined && pairs !== undefined) {
      const keys = keyEvals.map((e) => e(b))
      const sym = keys.length === 1 && keys[0]!.kind === 'sym' ? keys[0]! : undefined
      if (sym === undefined || !pairs.assignSymbolRows(ts, sym.data, sym.dict, n, buckets, keyIndex, groupIds)) {
        buckets.assign(ts, n, bucketIds)
        keyIndex.assign(keys, n, keyIds)
        pairs.assign(bucketIds, keyIds, n, groupIds)
      }
      groups = groupIds
      count = pairs.count
    } else {
      buckets.assign(ts, n, bucketIds)
      count = buckets.count
    }
    const single = keyIndex === undefined && groups[0] === groups[n - 1] && buckets.ordered
    for (const a of rest) {
      kernels[a]!.resize(count)
      const args = argEvals[a]!.map((e) => e(b))
      if (single) kernels[a]!.updateOne(groups[0]!, args, n)
      else kernels[a]!.update(groups, args, n)
    }
    for (const p of minMax) {
      p.fused.resize(count)
      const args = argEvals[p.of[0]]!.map((e) => e(b))
      if (single) p.fused.updateOne(groups[0]!, args, n)
      else p.fused.update(groups, args, n)
    }
    for (const f of fused) {
      f.sums.resize(count)
      const args = f.of.map((a) => argEvals[a]![0]!(b))
      if (single) f.sums.updateOne(groups[0]!, args, n)
      else f.sums.update(groups, args, n)
    }
    memory.resize(stateBytes(buckets.count, keyIndex?.count ?? 0, count, kernels))
    await ctx.maybeYield()
  }
  for (const f of fused) f.sums.settle()
  // FROM / TO as bucket numbers matter only to a FILL (a far TO need not fit in 2^53 buckets otherwise)
  if (shift !== undefined && node.fill !== undefined) ({ lo, hi } = shift.bounds())
  return { spec, lo, hi, buckets, keyIndex, groups: groupsOf(buckets, pairs), kernels, memory, shift }
}

/**
 * The keys of each group of `state`, by group id, in the node's key order (the bucket key as the
 * bucket's start): what one share of a parallel SAMPLE BY hands to the merge.
 */
export function sampleGroupKeys(node: SampleByNode, state: SampleState): Vector[] {
  const { groups, keyIndex } = state
  const n = groups.count
  const starts = new Float64Array(n)
  for (let g = 0; g < n; g++) starts[g] = groups.starts[groups.bucketOf[g]!]!
  let other = 0
  return node.keys.map((_, k) => (k === node.bucketKey ? vectorOf('TIMESTAMP', starts, n) : gather(keyIndex!.vector(other++, node.output[k]!), groups.keyOf, n)))
}

/** Estimated bytes of SAMPLE BY's state: bucket and key maps, (bucket, key) pairs, kernels. */
function stateBytes(buckets: number, keys: number, groups: number, kernels: readonly AggregateKernel[]): number {
  let n = buckets * (MAP_ENTRY_BYTES + 16) + keys * (MAP_ENTRY_BYTES + 64) + (keys > 0 ? groups * (MAP_ENTRY_BYTES + 8) : 0)
  for (const k of kernels) n += groups * 16 + (k.heapBytes?.() ?? 0)
  return n
}

function groupsOf(buckets: BucketTable | undefined, pairs: GroupTable | undefined): Groups {
  if (buckets === undefined) return { count: 0, bucketOf: new Int32Array(0), keyOf: new Int32Array(0), starts: [], ordered: true }
  if (pairs !== undefined) return { count: pairs.count, bucketOf: pairs.bucketOf, keyOf: pairs.keyOf, starts: buckets.starts, ordered: buckets.ordered }
  const n = buckets.count
  const bucketOf = new Int32Array(n)
  for (let i = 0; i < n; i++) bucketOf[i] = i
  return { count: n, bucketOf, keyOf: new Int32Array(n), starts: buckets.starts, ordered: buckets.ordered }
}

/** Evaluates the node's constant parameters (FROM, TIME ZONE, WITH OFFSET). */
function samplerSpec(node: SampleByNode, ctx: ExecContext): SamplerSpec {
  const from = node.from === undefined ? null : evalConstant(node.from, ctx)
  let timeZone: string | undefined
  let offset = 0
  if (node.align.kind === 'calendar') {
    const tz = node.align.timeZone === undefined ? null : getText(evalConstant(node.align.timeZone, ctx))
    if (tz !== null && !/^(utc|z|gmt|\+00:00)$/i.test(tz)) timeZone = tz
    const off = node.align.offset === undefined ? null : getText(evalConstant(node.align.offset, ctx))
    if (off !== null) {
      const micros = parseUtcOffset(off.trim(), { unsigned: true })
      if (micros === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid offset: ${off}`)
      offset = micros
    }
  }
  return {
    unit: node.unit, stride: node.stride, firstObservation: node.align.kind === 'first observation',
    timeZone, offset, from: from === null ? undefined : Number(from),
  }
}

function getText(v: Scalar): string | null {
  return v === null ? null : String(v)
}
