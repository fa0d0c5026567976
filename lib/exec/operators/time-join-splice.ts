/**
 * SPLICE JOIN: a full outer time merge of two inputs in designated-timestamp order (reference
 * §3.4), reproducing QuestDB's `SpliceJoinLightRecordCursorFactory` row for row.
 *
 * Both sides are read one row ahead; per key the last two left rows (prev/next) and the last
 * two right rows are remembered. The side with the smaller timestamp leads the output row and
 * is paired with the other side's latest row of its key: the "previous" one while that side
 * still has a look-ahead row (which QuestDB records before comparing), else the "next" one.
 * Equal timestamps advance both sides and give one row; when their keys differ, the left row
 * leads and the right row gives no row of its own. These are QuestDB's exact results, e.g.
 * `TemporalJoinPlanningTest.testSpliceKeysAndTimestampEquality` (keyed: `2 10`, then `1 13`).
 *
 * QuestDB needs random access on both sides for this; here both inputs are materialized.
 */
import { type Batch, BATCH_SIZE, type Vector, sliceVector } from '../../types/vector.js'
import type { TimeJoinNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { BoundExpr } from '../../plan/plan-node.js'
import { evaluateSliced, slices } from '../evaluate-sliced.js'
import { collect } from './sort.js'
import { KeyIndex } from '../keys/key-index.js'
import { gatherOrNull, nsRemaindersOf, timestampsOf } from './time-join-rows.js'
import type { Runner } from './runner.js'

/** Runs a SPLICE join. */
export async function* runSplice(node: TimeJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const mem = ctx.memory.reservation('SPLICE JOIN')
  const left = await collect(run, node.left, ctx, node.left.output, mem)
  const right = await collect(run, node.right, ctx, node.right.output, mem)
  // key ids, and at most one output pair per input row (two JS arrays of numbers)
  mem.grow(4 * (left.length + right.length) + 16 * (left.length + right.length))
  const index = new KeyIndex(node.leftKeys.length, false)
  const lk = new Int32Array(left.length)
  const rk = new Int32Array(right.length)
  // key values and ids slice by slice: composite keys cost a text key per row
  await assignSliced(index, node.leftKeys, left, lk, ctx)
  await assignSliced(index, node.rightKeys, right, rk, ctx)
  const lts = left.length > 0 ? timestampsOf(left.vectors[node.left.timestampIndex]!) : new Float64Array(0)
  const rts = right.length > 0 ? timestampsOf(right.vectors[node.right.timestampIndex]!) : new Float64Array(0)
  // TIMESTAMP_NS sides: the nanoseconds past each microsecond order rows within one microsecond
  const lsub = left.length > 0 ? nsRemaindersOf(left.vectors[node.left.timestampIndex]!) : undefined
  const rsub = right.length > 0 ? nsRemaindersOf(right.vectors[node.right.timestampIndex]!) : undefined
  const keys = Math.max(index.count, 1)
  const mPrev = new Int32Array(keys).fill(-1)
  const mNext = new Int32Array(keys).fill(-1)
  const sPrev = new Int32Array(keys).fill(-1)
  const sNext = new Int32Array(keys).fill(-1)
  const outL: number[] = []
  const outR: number[] = []
  let mi = 0, si = 0
  let m = -1, s = -1
  let hasM = false, hasS = false
  let mTs = 0, sTs = 0
  let mSub = 0, sSub = 0
  let fetchM = true, fetchS = true
  for (;;) {
    if (fetchM) {
      hasM = mi < left.length
      if (hasM) {
        m = mi++
        const g = lk[m]!
        mPrev[g] = mNext[g]!
        mNext[g] = m
        mTs = lts[m]!
        mSub = lsub === undefined ? 0 : lsub[m]!
      } else { mTs = Infinity; mSub = 0 }
    }
    if (fetchS) {
      hasS = si < right.length
      if (hasS) {
        s = si++
        const g = rk[s]!
        sPrev[g] = sNext[g]!
        sNext[g] = s
        sTs = rts[s]!
        sSub = rsub === undefined ? 0 : rsub[s]!
      } else { sTs = Infinity; sSub = 0 }
    }
    if (mTs < sTs || (mTs === sTs && mSub < sSub)) {
      const g = lk[m]!
      outL.push(m); outR.push(hasS ? sPrev[g]! : sNext[g]!)
      fetchM = true; fetchS = false
    } else if (mTs > sTs || mSub > sSub) {
      const g = rk[s]!
      outL.push(hasM ? mPrev[g]! : mNext[g]!); outR.push(s)
      fetchM = false; fetchS = true
    } else {
      if (sTs === Infinity) break
      const g = lk[m]!
      outL.push(m); outR.push(g === rk[s] ? s : hasS ? sPrev[g]! : sNext[g]!)
      fetchM = true; fetchS = true
    }
    if ((outL.length & 0xffff) === 0) await ctx.maybeYield()
  }
  for (let from = 0; from < outL.length; from += BATCH_SIZE) {
    const n = Math.min(BATCH_SIZE, outL.length - from)
    const ls = Int32Array.from(outL.slice(from, from + n))
    const rs = Int32Array.from(outR.slice(from, from + n))
    yield {
      length: n,
      vectors: [
        ...left.vectors.map((v) => gatherOrNull(v, ls, n)),
        ...right.vectors.map((v) => gatherOrNull(v, rs, n)),
      ],
    }
    await ctx.maybeYield()
  }
  mem.close()
}

/** Writes the key id of every row of `input` into `out`, evaluating the keys and assigning ids slice by slice. */
async function assignSliced(index: KeyIndex, exprs: readonly BoundExpr[], input: Batch, out: Int32Array, ctx: ExecContext): Promise<void> {
  if (input.length === 0) return
  const keys: Vector[] = []
  for (const k of exprs) keys.push(await evaluateSliced(k, input, ctx))
  for (const [s, e] of slices(input.length)) {
    index.assign(keys.map((v) => sliceVector(v, s, e)), e - s, out.subarray(s, e))
    await ctx.maybeYield()
  }
}
