/**
 * HORIZON JOIN (plan/nodes/window-join.ts): each left row once per offset, with the offset, the
 * horizon timestamp `ts + offset` and the right row an ASOF match picks at that timestamp (the
 * key's last right row at or before it; among equal timestamps the last in table order).
 *
 * The right input is read once and held (under the statement's memory budget), grouped per key
 * in timestamp order (keyed-right-side.ts, shared with WINDOW JOIN); each (left row, offset) is a
 * binary search in its key's rows. Output batches hold at most about {@link BATCH_SIZE} rows: a left
 * batch is expanded a slice of rows at a time, so memory does not grow with the offset count.
 */
import { BATCH_SIZE, type Batch, gather, vectorOf } from '../../types/vector.js'
import type { HorizonJoinNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import { KeyIndex } from '../keys/key-index.js'
import { gatherOrNull, nsRemaindersOf, timestampsOf } from './time-join-rows.js'
import { collectKeyedRight, searchRows, shifted } from './keyed-right-side.js'
import type { Runner } from './runner.js'
import { joinNs } from '../../types/timestamp-ns.js'

/** Runs a HORIZON JOIN. */
export async function* runHorizonJoin(node: HorizonJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const index = new KeyIndex(node.leftKeys.length, false)
  const leftKeys = node.leftKeys.map((k) => compileExpr(k, ctx))
  const rightKeys = node.rightKeys.map((k) => compileExpr(k, ctx))
  const offsets = node.offsetsNanos
  const k = offsets.length
  const nsLeft = node.left.output[node.left.timestampIndex]!.type === 'TIMESTAMP_NS'
  const mem = ctx.memory.reservation('HORIZON JOIN')
  try {
    const kept = node.right.output.map((c, i) => ({ type: c.type, of: (rb: Batch) => rb.vectors[i]! }))
    const { rows: right, columns: rightCols } = await collectKeyedRight(node.right, rightKeys, index, kept, ctx, run, mem)

    // left rows per output batch: at least one, about BATCH_SIZE output rows
    const slice = Math.max(1, Math.floor(BATCH_SIZE / k))
    const leftSel = new Int32Array(slice * k)
    const rightSel = new Int32Array(slice * k)
    const offsetOut = new Float64Array(slice * k)
    const hMicros = new Float64Array(slice * k)
    const hSub = new Uint16Array(slice * k)
    const win = new Float64Array(2)
    let leftIds = new Int32Array(0)
    for await (const lb of run(node.left, ctx)) {
      const n = lb.length
      if (n === 0) continue
      if (leftIds.length < n) leftIds = new Int32Array(n)
      index.assign(leftKeys.map((e) => e(lb)), n, leftIds)
      const tv = lb.vectors[node.left.timestampIndex]!
      const lts = timestampsOf(tv)
      const lsub = nsRemaindersOf(tv)
      for (let from = 0; from < n; from += slice) {
        const to = Math.min(n, from + slice)
        let m = 0
        for (let i = from; i < to; i++) {
          const g = leftIds[i]!
          const s = g < right.keys ? right.start[g]! : 0
          const e = g < right.keys ? right.start[g + 1]! : 0
          const t = lts[i]!
          const tn = lsub === undefined ? 0 : lsub[i]!
          for (let o = 0; o < k; o++) {
            const off = offsets[o]!
            shifted(t, tn, off, win)
            const p = s === e ? s : searchRows(right, s, e, win[0]!, win[1]!, true)
            leftSel[m] = i
            rightSel[m] = p > s ? right.rows[p - 1]! : -1
            offsetOut[m] = nsLeft ? off : off / 1000
            hMicros[m] = win[0]!
            hSub[m] = win[1]!
            m++
          }
        }
        const horizon = nsLeft
          ? joinNs(hMicros.slice(0, m), hSub.slice(0, m), m)
          : vectorOf('TIMESTAMP', hMicros.slice(0, m), m)
        yield {
          length: m,
          vectors: [
            ...lb.vectors.map((v) => gather(v, leftSel, m)),
            vectorOf('LONG', offsetOut.slice(0, m), m),
            horizon,
            ...rightCols.map((v) => gatherOrNull(v, rightSel, m)),
          ],
        }
        await ctx.maybeYield()
      }
    }
  } finally {
    mem.close()
  }
}
