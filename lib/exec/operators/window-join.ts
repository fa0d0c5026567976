/**
 * WINDOW JOIN (plan/nodes/window-join.ts): per left row, aggregates over the right rows of the
 * same keys whose timestamps lie in `[ts + lo, ts + hi]`, both inclusive, plus (INCLUDE
 * PREVAILING) the key's last right row before the window when none is exactly at its start.
 *
 * The right input is read once (keyed-right-side.ts): its key ids, timestamps and the
 * aggregates' argument vectors (not its other columns), held under the statement's memory budget,
 * its rows grouped per key in timestamp order, so a left row finds its window by two binary
 * searches in its key's rows. The (left row, right row) pairs of a left batch go through a
 * fixed-size buffer into the aggregate kernels (a group per left row), a buffer at a time, so
 * the work is the rows times the window and the memory does not grow with it.
 */
import { type Batch, type Vector, gather, materialize } from '../../types/vector.js'
import type { WindowJoinNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { type Evaluator, compileExpr } from '../evaluate.js'
import { KeyIndex } from '../keys/key-index.js'
import { nsRemaindersOf, timestampsOf } from './time-join-rows.js'
import type { Runner } from './runner.js'
import { type KeptColumn, collectKeyedRight, searchRows, shifted } from './keyed-right-side.js'

/** (left row, right row) pairs buffered before they go to the kernels. */
const PAIRS = 65536

/** Runs a WINDOW JOIN. */
export async function* runWindowJoin(node: WindowJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const index = new KeyIndex(node.leftKeys.length, false)
  const leftKeys = node.leftKeys.map((k) => compileExpr(k, ctx))
  const rightKeys = node.rightKeys.map((k) => compileExpr(k, ctx))
  const aggs = node.aggregates
  const argsOf = (side: 'left' | 'right'): Evaluator[][] => aggs.map((a) => (a.side === side ? a.args.map((e) => compileExpr(e, ctx)) : []))
  const rightArgs = argsOf('right')
  const leftArgs = argsOf('left')
  const mem = ctx.memory.reservation('WINDOW JOIN')
  try {
    // the right side: key ids, timestamps and the right aggregates' argument vectors
    const kept: KeptColumn[] = []
    aggs.forEach((a, i) => { if (a.side === 'right') a.args.forEach((e, k) => kept.push({ type: e.type, of: (rb) => materialize(rightArgs[i]![k]!(rb)) })) })
    const collected = await collectKeyedRight(node.right, rightKeys, index, kept, ctx, run, mem)
    const right = collected.rows
    let next = 0
    const argVectors: Vector[][] = aggs.map((a) => (a.side === 'right' ? a.args.map(() => collected.columns[next++]!) : []))

    const groups = new Int32Array(PAIRS)
    const picks = new Int32Array(PAIRS)
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
      const kernels = aggs.map((a) => { const k = a.def.create(a.site); k.resize(n); return k })
      const leftVectors = leftArgs.map((args) => args.map((e) => materialize(e(lb))))
      let count = 0
      const flush = async () => {
        for (let a = 0; a < aggs.length; a++) {
          const args = aggs[a]!.side === 'right'
            ? argVectors[a]!.map((v) => gather(v, picks, count))
            : leftVectors[a]!.map((v) => gather(v, groups, count))
          kernels[a]!.update(groups, args, count)
        }
        count = 0
        await ctx.maybeYield()
      }
      for (let i = 0; i < n; i++) {
        const g = leftIds[i]!
        if (g >= right.keys) continue
        const s = right.start[g]!
        const e = right.start[g + 1]!
        if (s === e) continue
        const t = lts[i]!
        const tn = lsub === undefined ? 0 : lsub[i]!
        shifted(t, tn, node.loNanos, win)
        const loM = win[0]!
        const loS = win[1]!
        const a = searchRows(right, s, e, loM, loS, false)
        shifted(t, tn, node.hiNanos, win)
        const b = searchRows(right, a, e, win[0]!, win[1]!, true)
        // the prevailing row: the key's last one before the window, unless a row sits at its start
        if (node.includePrevailing && a > s) {
          const first = a < e ? right.rows[a]! : -1
          if (first < 0 || right.ts[first] !== loM || right.sub[first] !== loS) {
            groups[count] = i; picks[count] = right.rows[a - 1]!; count++
            if (count === PAIRS) await flush()
          }
        }
        for (let p = a; p < b; p++) {
          groups[count] = i; picks[count] = right.rows[p]!; count++
          if (count === PAIRS) await flush()
        }
      }
      if (count > 0) await flush()
      yield { length: n, vectors: [...lb.vectors, ...kernels.map((k) => k.result(n))] }
    }
  } finally {
    mem.close()
  }
}
