/**
 * Joins by buffered pairs: joins with equi-keys (INNER, LEFT, RIGHT [OUTER], FULL [OUTER]) and
 * joins without keys and without an ON condition (CROSS; a nested loop with a condition is
 * nested-loop-join.ts). The right side is collected (and, with equi-keys, built into a hash table,
 * {@link buildHashTable}); the left side streams through it. Every candidate pair (same key, or
 * every right row without keys) goes into typed pair buffers and, {@link JOIN_BATCH} pairs at a
 * time, through the residual ON condition, evaluated over the pairs' rows of the columns it reads
 * only; the kept pairs are gathered whole. A kept pair marks its right row (RIGHT / FULL: one byte
 * per right row) and, for FULL with a residual, its left row. A LEFT join, and a FULL join without
 * a residual (where every candidate pair is kept), emit a left row without candidates in place,
 * with nulls on the right; so does a LEFT join with a residual for a left row whose candidates it
 * all drops (the row's state carries over from one pair buffer to the next); a FULL join with a
 * residual emits the left rows of a batch that no pair kept once the batch is done; RIGHT and FULL
 * end with the right rows nothing matched, with nulls on the left.
 *
 * A RIGHT / FULL result has no designated timestamp (the binder sets none): the unmatched right rows come
 * last, out of the left side's order, as in QuestDB, whose RIGHT / FULL joins drop it too.
 */
import { type Batch, type Vector, allocate, gather, getScalar, materialize } from '../../types/vector.js'
import type { JoinNode } from '../../plan/plan-node.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'
import { compileExpr, selection } from '../evaluate.js'
import { collect } from './sort.js'
import { columnsOf } from '../../plan/optimize/walk.js'
import type { Runner } from './runner.js'
import { JOIN_BATCH, buildHashTable, buildJoined, gatherOrNull, probeKey } from './hash-join.js'
import type { TypedJoinTable } from '../keys/join-table.js'

/** Runs an INNER / CROSS join, a LEFT join without a residual, or a RIGHT / FULL join. */
export async function* runBufferedJoin(node: JoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const keyed = node.leftKeys.length > 0
  const mem = ctx.memory.reservation(keyed ? 'hash join build side' : node.type === 'inner' || node.type === 'left' ? 'cross join right side' : 'nested loop join right side')
  const right = await collect(run, node.right, ctx, node.right.output, mem)
  const table = keyed ? await buildHashTable(node, right, ctx, mem) : undefined
  const residual = node.residual === undefined ? undefined : compileExpr(node.residual, ctx)
  const full = node.type === 'full'
  // LEFT, and FULL without a residual: a left row without candidates is emitted in place (without
  // a residual, every candidate pair is kept, so a row with one is matched: nothing to mark)
  const inlineLeft = node.type === 'left' || (full && residual === undefined)
  // LEFT with a residual: a left row whose candidates the residual all drops comes once, in place
  const leftResidual = node.type === 'left' && residual !== undefined
  // FULL with a residual: which left rows of a batch some pair kept
  const markLeft = full && residual !== undefined
  // RIGHT / FULL: which right rows some pair kept, one byte each, held to the end
  const rightHit = node.type === 'right' || full ? new Uint8Array(right.length) : undefined
  if (rightHit !== undefined) mem.grow(right.length)
  const leftKeyEvals = node.leftKeys.map((k) => compileExpr(k, ctx))
  // the joined columns the residual reads (the others are not gathered for a pair it may drop)
  const leftWidth = node.left.output.length
  const residualSet = new Set<number>()
  if (node.residual !== undefined) columnsOf(node.residual, residualSet)
  const residualCols = [...residualSet]
  let work = 0
  // the pair buffers, reused by every left batch (a flush gathers the pairs' rows into new vectors)
  const ls = new Int32Array(JOIN_BATCH)
  const rs = new Int32Array(JOIN_BATCH)
  // LEFT with a residual: the kept pairs and the left rows none was kept for, in order
  const ls2 = new Int32Array(leftResidual ? 2 * JOIN_BATCH : 0)
  const rs2 = new Int32Array(leftResidual ? 2 * JOIN_BATCH : 0)
  const cursor = new Int32Array(3)
  for await (const b of run(node.left, ctx)) {
    const lk = leftKeyEvals.map((e) => materialize(e(b)))
    const leftHit = markLeft ? new Uint8Array(b.length) : undefined
    let n = 0
    // the buffered pairs through the residual: the ones kept, their rows marked
    const flush = (): Batch[] => {
      const count = n
      n = 0
      if (residual === undefined) {
        const joined = buildJoined(b, right, ls.subarray(0, count), rs.subarray(0, count))
        // a FULL join's left rows without candidates are pairs with -1 (no right row to mark: an
        // out-of-range store would also leave the loop on V8's slow path)
        if (rightHit !== undefined) for (let k = 0; k < count; k++) { const j = rs[k]!; if (j >= 0) rightHit[j] = 1 }
        if (leftHit !== undefined) for (let k = 0; k < count; k++) leftHit[ls[k]!] = 1
        return [joined]
      }
      // the residual over the pairs' rows of the columns it reads only (a LEFT join's pairs of
      // left rows without candidates have no right row: nulls there, and kept whatever it says);
      // then the kept pairs, moved to the front, gathered whole
      const vectors: Vector[] = [...b.vectors, ...right.vectors]
      const lsel = ls.subarray(0, count), rsel = rs.subarray(0, count)
      for (const c of residualCols) vectors[c] = c < leftWidth ? gather(b.vectors[c]!, lsel, count) : leftResidual ? gatherOrNull(right.vectors[c - leftWidth]!, rsel, count) : gather(right.vectors[c - leftWidth]!, rsel, count)
      const mask = residual({ length: count, vectors })
      if (leftResidual) return leftKept(mask, count)
      const { sel, count: kept } = selection(mask, count)
      if (kept === 0) return []
      for (let k = 0; k < kept; k++) { const p = sel[k]!; ls[k] = ls[p]!; rs[k] = rs[p]! }
      if (rightHit !== undefined) for (let k = 0; k < kept; k++) rightHit[rs[k]!] = 1
      if (leftHit !== undefined) for (let k = 0; k < kept; k++) leftHit[ls[k]!] = 1
      return [buildJoined(b, right, ls.subarray(0, kept), rs.subarray(0, kept))]
    }
    // LEFT with a residual: the row whose candidates the last flush ended in (they may go on in
    // the next), whether it had candidates and whether one was kept
    let row = -1, hadPair = false, keptPair = false
    const leftKept = (mask: Vector, count: number): Batch[] => {
      const d = mask.kind === 'bool' ? mask.data : undefined, c = mask.isConst === true ? 0 : 1
      let m = 0
      for (let k = 0; k < count; k++) {
        const i = ls[k]!, j = rs[k]!
        if (i !== row) {
          if (hadPair && !keptPair) { ls2[m] = row; rs2[m++] = -1 }
          row = i; hadPair = false; keptPair = false
        }
        if (j < 0) { ls2[m] = i; rs2[m++] = -1; keptPair = true }
        else {
          hadPair = true
          if (d !== undefined && d[k * c] === 1) { ls2[m] = i; rs2[m++] = j; keptPair = true }
        }
      }
      const out: Batch[] = []
      for (let from = 0; from < m; from += JOIN_BATCH) {
        const to = Math.min(m, from + JOIN_BATCH)
        out.push(buildJoined(b, right, ls2.subarray(from, to), rs2.subarray(from, to)))
      }
      return out
    }
    const typed = table?.typed
    if (typed !== undefined) {
      // one numeric key: the pairs of each row's chain of build rows, a pair buffer at a time by a
      // plain function (its loop keeps the cursor in registers; this generator's locals live in its
      // context), checking for a yield after each buffer (at most JOIN_BATCH pairs or one batch's rows)
      typed.probe(lk[0]!)
      cursor[0] = 0; cursor[1] = -1
      for (;;) {
        cursor[2] = n
        typedPairs(typed, b.length, ls, rs, cursor, inlineLeft)
        n = cursor[2]!
        if (n < JOIN_BATCH) break
        for (const out of flush()) yield out
        await ctx.maybeYield()
      }
    }
    else for (let i = 0; i < b.length; i++) {
      if (++work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
      let matches: number[] | undefined
      if (table !== undefined) {
        if (node.nullsEqual === true || !lk.some((v) => getScalar(v, i) === null)) matches = table.rows.get(probeKey(table, lk, i))
      }
      const m = table === undefined ? right.length : matches?.length ?? 0
      if (m === 0 && inlineLeft) {
        ls[n] = i; rs[n++] = -1
        if (n === JOIN_BATCH) {
          for (const out of flush()) yield out
        }
        continue
      }
      // a row's candidates in slices, so that one row matching every right row still yields
      // and checks for cancellation every JOIN_BATCH pairs
      for (let from = 0; from < m;) {
        const to = Math.min(m, from + JOIN_BATCH - n)
        if (matches === undefined) for (let j = from; j < to; j++) { ls[n] = i; rs[n++] = j }
        else for (let j = from; j < to; j++) { ls[n] = i; rs[n++] = matches[j]! }
        work += to - from
        from = to
        if (n === JOIN_BATCH) {
          for (const out of flush()) yield out
        }
        if (work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
      }
    }
    if (n > 0) for (const out of flush()) yield out
    if (leftResidual && hadPair && !keptPair) yield buildJoined(b, right, Int32Array.of(row), Int32Array.of(-1))
    if (leftHit !== undefined) {
      const lost = unset(leftHit)
      if (lost.length > 0) yield buildJoined(b, right, lost, new Int32Array(lost.length).fill(-1))
    }
    await ctx.maybeYield()
  }
  // the right rows no pair kept, with nulls on the left
  const lost = rightHit === undefined ? new Int32Array(0) : unset(rightHit)
  for (let from = 0; from < lost.length; from += JOIN_BATCH) {
    const sel = lost.subarray(from, Math.min(lost.length, from + JOIN_BATCH))
    yield rightOnly(node, right, sel)
    await ctx.maybeYield()
  }
  mem.close()
}

/**
 * Buffers the pairs of a typed probe (rows of the batch {@link TypedJoinTable.probe} saw, `rows`
 * of them) into `ls` / `rs` until they are full or the batch is done. `cursor` holds the next left
 * row, the next build row of its chain (-1: the row's chain not started) and the pairs buffered;
 * it is advanced. With `inlineLeft`, a row without candidates is buffered with right row -1.
 */
function typedPairs(typed: TypedJoinTable, rows: number, ls: Int32Array, rs: Int32Array, cursor: Int32Array, inlineLeft: boolean): void {
  const next = typed.next, cap = ls.length
  let i = cursor[0]!, j = cursor[1]!, n = cursor[2]!
  while (n < cap) {
    if (j < 0) {
      if (i >= rows) break
      j = typed.first(i)
      if (j < 0) {
        if (inlineLeft) { ls[n] = i; rs[n++] = -1 }
        i++
        continue
      }
    }
    ls[n] = i; rs[n++] = j
    j = next[j]!
    if (j < 0) i++
  }
  cursor[0] = i; cursor[1] = j; cursor[2] = n
}

/** The positions of `flags` that are 0. */
export function unset(flags: Uint8Array): Int32Array {
  let count = 0
  for (let i = 0; i < flags.length; i++) if (flags[i] === 0) count++
  const out = new Int32Array(count)
  for (let i = 0, k = 0; i < flags.length; i++) if (flags[i] === 0) out[k++] = i
  return out
}

/** Right rows `sel` of join `node`'s collected right side, with every left column null. */
export function rightOnly(node: JoinNode, right: Batch, sel: Int32Array): Batch {
  const n = sel.length
  const vectors: Vector[] = node.left.output.map((c) => allocate(c.type, n))
  for (const v of right.vectors) vectors.push(gather(v, sel, n))
  return { length: n, vectors }
}
