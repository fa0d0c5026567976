/**
 * ASOF / LT JOIN as a merge join over the two designated timestamps (reference §3.4).
 *
 * Both inputs stream in timestamp order. For each left row the right cursor advances over every
 * right row with `ts <= left.ts` (ASOF) or `ts < left.ts` (LT), recording per key id the latest
 * such row (so among equal timestamps the last in table order wins). The left row then takes its
 * key's recorded row when `left.ts - right.ts <= TOLERANCE`, else nulls. Output is in left order.
 *
 * Right batches stay retained while a key points into them; once more than {@link MAX_PARTS}
 * are held, the pending output is emitted and the rows still referenced (at most one per key)
 * are compacted into one batch, so memory is bounded by the key count, not the right input.
 * SPLICE JOIN lives in `time-join-splice.ts`.
 */
import { type Batch, type Vector, sliceVector } from '../../types/vector.js'
import type { TimeJoinNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import { KeyIndex } from '../keys/key-index.js'
import { gatherParts, nsRemaindersOf, timestampsOf } from './time-join-rows.js'
import { runSplice } from './time-join-splice.js'
import type { Runner } from './runner.js'
import { MAP_ENTRY_BYTES, batchBytes } from '../memory.js'

/** Estimated bytes per join key: its map entry and key, and the per-key typed arrays. */
const KEY_BYTES = MAP_ENTRY_BYTES + 48 + 16

/** Retained right batches before the referenced rows are compacted. */
const MAX_PARTS = 16

/**
 * True when a difference of `dMicros` microseconds plus `dSub` nanoseconds (-999..999) is at most
 * the tolerance of `tolMicros` microseconds plus `tolSub` nanoseconds (0-999).
 */
function withinTolerance(dMicros: number, dSub: number, tolMicros: number, tolSub: number): boolean {
  if (dSub < 0) { dMicros -= 1; dSub += 1000 }
  return dMicros < tolMicros || (dMicros === tolMicros && dSub <= tolSub)
}

/** Runs an ASOF / LT / SPLICE join. */
export async function* runTimeJoin(node: TimeJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  switch (node.type) {
    case 'asof': case 'lt': yield* runAsOf(node, ctx, run); return
    case 'splice': yield* runSplice(node, ctx, run); return
  }
}

/** The right input as a cursor: the current batch, its key ids and timestamps, and the read position. */
interface RightCursor {
  batch: Batch
  ids: Int32Array
  ts: Float64Array
  /** nanosecond remainders of a TIMESTAMP_NS right side */
  sub: Uint16Array | undefined
  pos: number
  part: number
}

async function* runAsOf(node: TimeJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const strict = node.type === 'lt'
  const tolerance = node.tolerance ?? Infinity
  const toleranceSub = node.toleranceSub ?? 0
  const index = new KeyIndex(node.leftKeys.length, false)
  const leftKeys = node.leftKeys.map((k) => compileExpr(k, ctx))
  const rightKeys = node.rightKeys.map((k) => compileExpr(k, ctx))
  const rightCols = node.right.output
  const rightIt = run(node.right, ctx)[Symbol.asyncIterator]()
  let parts: Batch[] = []
  let keyPart = new Int32Array(64).fill(-1)
  let keyRow = new Int32Array(64)
  let keyTs = new Float64Array(64)
  // the nanoseconds past keyTs of a TIMESTAMP_NS right side, for a TOLERANCE to the nanosecond
  let keySub = new Uint16Array(64)
  // the retained right batches and the per-key state (ASOF/LT keep the latest right row per key)
  const mem = ctx.memory.reservation(`${node.type.toUpperCase()} JOIN`)
  let partBytes = 0
  const grow = () => {
    const n = index.count
    if (keyPart.length >= n) return
    const cap = Math.max(n, keyPart.length * 2)
    const p = new Int32Array(cap).fill(-1); p.set(keyPart); keyPart = p
    const r = new Int32Array(cap); r.set(keyRow); keyRow = r
    const t = new Float64Array(cap); t.set(keyTs); keyTs = t
    const u = new Uint16Array(cap); u.set(keySub); keySub = u
  }
  const nextRight = async (): Promise<RightCursor | undefined> => {
    for (;;) {
      const r = await rightIt.next()
      if (r.done === true) return undefined
      const batch = r.value
      if (batch.length === 0) continue
      const ids = new Int32Array(batch.length)
      index.assign(rightKeys.map((e) => e(batch)), batch.length, ids)
      grow()
      const bytes = batchBytes(batch) + 4 * batch.length
      partBytes += bytes
      mem.resize(partBytes + index.count * KEY_BYTES)
      parts.push(batch)
      const tv = batch.vectors[node.right.timestampIndex]!
      return { batch, ids, ts: timestampsOf(tv), sub: nsRemaindersOf(tv), pos: 0, part: parts.length - 1 }
    }
  }
  /** Keeps only the right rows keys still point at, as one part. */
  const compact = () => {
    const live: number[] = []
    for (let g = 0; g < index.count; g++) if (keyPart[g]! >= 0) live.push(g)
    const part = Int32Array.from(live, (g) => keyPart[g]!)
    const row = Int32Array.from(live, (g) => keyRow[g]!)
    const vectors = rightCols.map((c, i) => gatherParts(c.type, parts.map((p) => p.vectors[i]!), part, row, live.length))
    parts = [{ length: live.length, vectors }]
    partBytes = batchBytes(parts[0]!)
    mem.resize(partBytes + index.count * KEY_BYTES)
    live.forEach((g, j) => { keyPart[g] = 0; keyRow[g] = j })
  }
  const joined = (left: Batch, from: number, to: number, part: Int32Array, row: Int32Array): Batch => {
    const n = to - from
    const l: Vector[] = left.vectors.map((v) => (from === 0 && to === left.length ? v : sliceVector(v, from, to)))
    const r = rightCols.map((c, i) => gatherParts(c.type, parts.map((p) => p.vectors[i]!), part.subarray(from, to), row.subarray(from, to), n))
    return { length: n, vectors: [...l, ...r] }
  }

  let cur = await nextRight()
  let leftIds = new Int32Array(0)
  for await (const lb of run(node.left, ctx)) {
    const n = lb.length
    if (n === 0) continue
    if (leftIds.length < n) leftIds = new Int32Array(n)
    index.assign(leftKeys.map((e) => e(lb)), n, leftIds)
    grow()
    const lts = timestampsOf(lb.vectors[node.left.timestampIndex]!)
    const lsub = nsRemaindersOf(lb.vectors[node.left.timestampIndex]!)
    const outPart = new Int32Array(n)
    const outRow = new Int32Array(n)
    let from = 0
    for (let i = 0; i < n; i++) {
      const t = lts[i]!
      const tn = lsub === undefined ? 0 : lsub[i]!
      while (cur !== undefined) {
        const { ids, ts, part, sub } = cur
        const len = cur.batch.length
        let p = cur.pos
        // equal microseconds: TIMESTAMP_NS remainders decide (0 on a TIMESTAMP side)
        while (p < len && (ts[p]! < t || (ts[p]! === t && (strict ? (sub === undefined ? 0 : sub[p]!) < tn : (sub === undefined ? 0 : sub[p]!) <= tn)))) {
          const g = ids[p]!
          keyPart[g] = part; keyRow[g] = p; keyTs[g] = ts[p]!; keySub[g] = sub === undefined ? 0 : sub[p]!
          p++
        }
        cur.pos = p
        if (p < len) break
        if (parts.length >= MAX_PARTS) {
          if (i > from) yield joined(lb, from, i, outPart, outRow)
          from = i
          compact()
        }
        cur = await nextRight()
      }
      const g = leftIds[i]!
      const kp = keyPart[g]!
      if (kp >= 0 && withinTolerance(t - keyTs[g]!, tn - keySub[g]!, tolerance, toleranceSub)) { outPart[i] = kp; outRow[i] = keyRow[g]! } else outPart[i] = -1
    }
    yield joined(lb, from, n, outPart, outRow)
    await ctx.maybeYield()
  }
  mem.close()
}
