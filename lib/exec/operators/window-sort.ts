/**
 * The row order a window computes in: a dense partition id per row (the shared KeyIndex), then row
 * indexes sorted by (partition, ORDER BY keys, input position), the partition boundaries in that
 * order, and where each peer group (rows equal on every ORDER BY key) starts.
 */
import { type Vector, sliceVector } from '../../types/vector.js'
import { KeyIndex } from '../keys/key-index.js'
import type { SortKey } from '../../plan/plan-node.js'
import { comparator } from './sort.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'
import { sortYielding } from './yielding-sort.js'
import { STEP_MASK, type Steps, runNow, runSteps } from '../steps.js'

/** Row indexes in window order, with partition and peer-group boundaries. */
export interface WindowOrder {
  /** input row index at each sorted position */
  readonly rows: Int32Array
  /** sorted start position of the partition holding each sorted position */
  readonly partStart: Int32Array
  /** sorted end position (exclusive) of that partition */
  readonly partEnd: Int32Array
  /** sorted start position of the peer group of each sorted position */
  readonly peerStart: Int32Array
  /** sorted end position (exclusive) of that peer group */
  readonly peerEnd: Int32Array
}

/** Assigns partition ids to rows [from, to) and reports how many partitions it has seen. */
interface PartitionMapper {
  assign(ids: Int32Array, from: number, to: number): void
  count(): number
}

/** The mapper for `keys` (at least one): the shared {@link KeyIndex} over row ranges. */
function partitionMapper(keys: readonly Vector[]): PartitionMapper {
  const index = new KeyIndex(keys.length, false)
  return {
    assign: (ids, from, to) => index.assign(keys.map((k) => sliceVector(k, from, to)), to - from, ids.subarray(from, to)),
    count: () => index.count,
  }
}

/** Dense partition ids 0..count-1 of `length` rows; all 0 without keys. */
export function partitionIds(keys: readonly Vector[], length: number): { ids: Int32Array; count: number } {
  const ids = new Int32Array(length)
  if (keys.length === 0) return { ids, count: length > 0 ? 1 : 0 }
  const m = partitionMapper(keys)
  m.assign(ids, 0, length)
  return { ids, count: m.count() }
}

/** {@link partitionIds} for execution: yields to the event loop every {@link YIELD_CHECK_WORK} rows. */
export async function partitionIdsYielding(keys: readonly Vector[], length: number, ctx: ExecContext): Promise<{ ids: Int32Array; count: number }> {
  const ids = new Int32Array(length)
  if (keys.length === 0) return { ids, count: length > 0 ? 1 : 0 }
  const m = partitionMapper(keys)
  for (let from = 0; from < length; from += YIELD_CHECK_WORK) {
    m.assign(ids, from, Math.min(length, from + YIELD_CHECK_WORK))
    await ctx.maybeYield()
  }
  return { ids, count: m.count() }
}

/**
 * Sorts rows by partition, then `keys` (vectors of the ORDER BY expressions), then input
 * position. Without keys this is a counting sort by partition id (stable, O(n)); `presorted`
 * says the input already is in ORDER BY order (the designated timestamp), which needs the same.
 */
export function windowOrder(ids: Int32Array, count: number, keys: readonly Vector[], orderKeys: readonly SortKey[], presorted: boolean): WindowOrder {
  const { rows, starts } = runNow(byPartition(ids, count))
  const cmps = keys.map((v, k) => comparator(v, orderKeys[k]!.desc, orderKeys[k]!.nullsFirst))
  if (cmps.length > 0 && !presorted) {
    const byKeys = orderBy(cmps)
    for (let g = 0; g < count; g++) rows.subarray(starts[g]!, starts[g + 1]!).sort(byKeys)
  }
  return runNow(boundaries(rows, starts, count, cmps))
}

/** {@link windowOrder} for execution: the sort yields to the event loop between bounded steps. */
export async function windowOrderYielding(ids: Int32Array, count: number, keys: readonly Vector[], orderKeys: readonly SortKey[], presorted: boolean, ctx: ExecContext): Promise<WindowOrder> {
  const { rows, starts } = await runSteps(byPartition(ids, count), ctx)
  const cmps = keys.map((v, k) => comparator(v, orderKeys[k]!.desc, orderKeys[k]!.nullsFirst))
  if (cmps.length > 0 && !presorted) {
    const byKeys = orderBy(cmps)
    // many small partitions add up: yield by rows sorted, not by partitions
    let work = 0
    for (let g = 0; g < count; g++) {
      await sortYielding(rows.subarray(starts[g]!, starts[g + 1]!), byKeys, ctx)
      work += starts[g + 1]! - starts[g]! + 1
      if (work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
    }
  }
  await ctx.maybeYield()
  return await runSteps(boundaries(rows, starts, count, cmps), ctx)
}

/** Row indexes grouped by partition id (a stable counting sort) and each partition's start. */
function* byPartition(ids: Int32Array, count: number): Steps<{ rows: Int32Array; starts: Int32Array }> {
  const n = ids.length
  const starts = new Int32Array(count + 1)
  for (let i = 0; i < n; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield
    starts[ids[i]! + 1]!++
  }
  for (let g = 0; g < count; g++) {
    if ((g & STEP_MASK) === STEP_MASK) yield
    starts[g + 1]! += starts[g]!
  }
  const rows = new Int32Array(n)
  const fill = starts.slice(0, count)
  for (let i = 0; i < n; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield
    rows[fill[ids[i]!]!++] = i
  }
  return { rows, starts }
}

type Compare = (a: number, b: number) => number

/** Compares rows by the ORDER BY keys, then by input position. */
function orderBy(cmps: readonly Compare[]): Compare {
  return (a, b) => {
    for (let k = 0; k < cmps.length; k++) { const r = cmps[k]!(a, b); if (r !== 0) return r }
    return a - b
  }
}

/** The partition and peer-group boundaries of sorted rows, in steps of about {@link STEP_MASK} + 1 positions or partitions. */
function* boundaries(rows: Int32Array, starts: Int32Array, count: number, cmps: readonly Compare[]): Steps<WindowOrder> {
  const n = rows.length
  const partStart = new Int32Array(n)
  const partEnd = new Int32Array(n)
  let work = 0
  for (let g = 0; g < count; g++) {
    if (work > STEP_MASK) { work = 0; yield }
    work += 1 + starts[g + 1]! - starts[g]!
    const s = starts[g]!
    const e = starts[g + 1]!
    partStart.fill(s, s, e)
    partEnd.fill(e, s, e)
  }
  const peerStart = new Int32Array(n)
  const peerEnd = new Int32Array(n)
  let p = 0
  work = 0
  while (p < n) {
    if (work > STEP_MASK) { work = 0; yield }
    let q = p + 1
    const e = partEnd[p]!
    if (cmps.length === 0) q = e
    else while (q < e && sameKeys(cmps, rows[p]!, rows[q]!)) q++
    peerStart.fill(p, p, q)
    peerEnd.fill(q, p, q)
    work += q - p
    p = q
  }
  return { rows, partStart, partEnd, peerStart, peerEnd }
}

function sameKeys(cmps: readonly ((a: number, b: number) => number)[], a: number, b: number): boolean {
  for (let k = 0; k < cmps.length; k++) if (cmps[k]!(a, b) !== 0) return false
  return true
}
