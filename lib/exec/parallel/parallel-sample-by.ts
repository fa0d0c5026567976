/**
 * Parallel SAMPLE BY over a table scan. Rows arrive in timestamp order, so splitting a part's
 * rows into one contiguous range per thread splits the buckets too: each thread samples its
 * range into partial groups (avg -> sum and count, as for parallel GROUP BY), the partial
 * results are concatenated in row order, and only the one bucket a split can cut in two is
 * merged (its groups matched by key). A final projection turns the partials into the
 * aggregates' values.
 *
 * Taken for calendar-aligned SAMPLE BY without FILL and FROM/TO, with decomposable aggregates
 * over fixed-width columns, on tables of at least PARALLEL_MIN_ROWS rows.
 */
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { type Batch, type Scalar, type Vector, gather, getScalar } from '../../types/vector.js'
import type { BoundExpr, PlanNode, SampleByNode } from '../../plan/plan-node.js'
import { castTo } from '../../plan/bind-expr.js'
import type { ExecContext } from '../context.js'
import { evalConstant } from '../evaluate.js'
import { runPlan } from '../operators/runner.js'
import { concatBatches, rowKey } from '../operators/sort.js'
import { DECOMPOSE, batchNode, divide } from './decompose.js'
import { type Shares, partialOutput, prepareShares, runShares } from './shares.js'
import type { WireSample } from './wire.js'

/** The parallel plan for `node`, or undefined when it does not qualify. */
export function parallelSampleBy(node: SampleByNode, ctx: ExecContext): AsyncGenerator<Batch> | undefined {
  if (node.fill !== undefined || node.from !== undefined || node.to !== undefined) return undefined
  if (node.align.kind !== 'calendar' || node.bucketKey < 0) return undefined
  const shares = prepareShares(node.input, node.keys, node.aggregates, [node.timestampColumn])
  if (shares === undefined) return undefined
  const text = (e: BoundExpr | undefined) => { const v = e === undefined ? null : evalConstant(e, ctx); return v === null ? undefined : String(v) }
  const sample: WireSample = {
    timestampColumn: shares.remap(node.timestampColumn), bucketKey: node.bucketKey, stride: node.stride, unit: node.unit,
    timeZone: text(node.align.timeZone), offset: text(node.align.offset),
  }
  return run(node, shares, sample, ctx)
}

async function* run(node: SampleByNode, shares: Shares, sample: WireSample, ctx: ExecContext): AsyncGenerator<Batch> {
  const parts = await runShares(shares, ctx, { sample })
  const k = node.keys.length
  const layout = partialOutput(shares.keys, shares.partials)
  const merges: string[] = node.aggregates.flatMap((a) => DECOMPOSE[a.def.name]!.merge)
  const all = concatBatches(parts, layout)
  const kept = mergeSplitBuckets(all, parts.map((b) => b.length), node.bucketKey, k, merges)
  const merged: Batch = { length: kept.count, vectors: all.vectors.map((v) => gather(v, kept.sel, kept.count)) }
  const exprs: BoundExpr[] = node.keys.map((e, i) => ({ kind: 'column', type: e.type, index: i }))
  let j = k
  const col = (x: number): BoundExpr => ({ kind: 'column', type: layout[x]!.type, index: x })
  for (const a of node.aggregates) {
    if (a.def.name === 'avg') { exprs.push(divide(col(j), col(j + 1))); j += 2 }
    else { exprs.push(castTo(col(j), a.site.returns, -1, true)); j++ }
  }
  const project: PlanNode = { kind: 'project', input: batchNode(merged, layout), exprs, output: node.output, timestampIndex: node.timestampIndex }
  yield* runPlan(project, ctx)
}

/**
 * Rows to keep after merging, at each boundary between shares, the groups of a bucket both
 * shares have (the earlier share's row takes the later one's partials).
 */
function mergeSplitBuckets(all: Batch, lengths: readonly number[], bucketKey: number, keyCount: number, merges: readonly string[]): { sel: Int32Array; count: number } {
  const drop = new Uint8Array(all.length)
  const bucket = all.vectors[bucketKey]!
  const keyVectors = all.vectors.slice(0, keyCount).filter((_, i) => i !== bucketKey)
  let start = 0
  for (let s = 0; s + 1 < lengths.length; s++) {
    const end = start + lengths[s]!
    const next = end + lengths[s + 1]!
    const b = getScalar(bucket, end - 1)
    if (end < next && getScalar(bucket, end) === b) {
      const tail = new Map<string, number>()
      for (let r = end - 1; r >= start && getScalar(bucket, r) === b; r--) tail.set(rowKey(keyVectors, r), r)
      for (let r = end; r < next && getScalar(bucket, r) === b; r++) {
        const into = tail.get(rowKey(keyVectors, r))
        if (into === undefined) continue
        merges.forEach((m, p) => combine(all.vectors[keyCount + p]!, into, r, m))
        drop[r] = 1
      }
    }
    start = end
  }
  const sel = new Int32Array(all.length)
  let count = 0
  for (let r = 0; r < all.length; r++) if (drop[r] === 0) sel[count++] = r
  return { sel, count }
}

/** Folds row `from` of a partial column into row `into` with the merge aggregate `m`. */
function combine(v: Vector, into: number, from: number, m: string): void {
  const a = getScalar(v, into)
  const b = getScalar(v, from)
  if (b === null) return
  let out: Scalar
  if (a === null) out = b
  else if (m === 'min') out = a < b ? a : b
  else if (m === 'max') out = a > b ? a : b
  else out = typeof a === 'bigint' || typeof b === 'bigint' ? BigInt.asIntN(64, BigInt(a as number) + BigInt(b as number)) : (a as number) + (b as number)
  switch (v.kind) {
    case 'f64': case 'f32': v.data[into] = Number(out); return
    case 'i32': v.data[into] = out === null ? INT_NULL : Number(out) | 0; return
    case 'i64':
      if (v.data instanceof BigInt64Array) v.data[into] = BigInt(out as number | bigint)
      else v.data[into] = typeof out === 'bigint' ? Number(out) : out === null ? LONG_NULL : Number(out)
      return
    case 'i16': case 'i8': v.data[into] = Number(out); return
    default: return
  }
}
