/**
 * WINDOW JOIN (plan/nodes/window-join.ts): per left row, aggregates over the right rows of the
 * same keys whose timestamps lie in `[ts + lo, ts + hi]`, both inclusive, plus (INCLUDE
 * PREVAILING) the key's last right row before the window when none is exactly at its start.
 *
 * The right input is read once: its key ids, timestamps and the aggregates' argument vectors
 * (not its other columns), held under the statement's memory budget. Its rows are grouped per
 * key in timestamp order (one counting sort), so a left row finds its window by two binary
 * searches in its key's rows. The (left row, right row) pairs of a left batch go through a
 * fixed-size buffer into the aggregate kernels (a group per left row), a buffer at a time, so
 * the work is the rows times the window and the memory does not grow with it.
 */
import { type Batch, type Vector, concatVectors, gather, materialize } from '../../types/vector.js'
import type { WindowJoinNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { type Evaluator, compileExpr } from '../evaluate.js'
import { KeyIndex } from '../keys/key-index.js'
import { nsRemaindersOf, timestampsOf } from './time-join-rows.js'
import type { Runner } from './runner.js'
import { MAP_ENTRY_BYTES, vectorBytes } from '../memory.js'

/** (left row, right row) pairs buffered before they go to the kernels. */
const PAIRS = 65536

/** The right side, grouped per key in timestamp order. */
export interface RightRows {
  /** microseconds of each right row */
  readonly ts: Float64Array
  /** nanoseconds past `ts` (0 for a TIMESTAMP right side) */
  readonly sub: Uint16Array
  /** rows of key k: `rows[start[k] .. start[k + 1])`, in timestamp order */
  readonly start: Int32Array
  readonly rows: Int32Array
  /** keys seen on the right side (ids past it have no rows) */
  readonly keys: number
}

/** `ts + nanos` as microseconds and a 0-999 nanosecond remainder. */
export function shifted(t: number, tn: number, nanos: number, out: Float64Array): void {
  const dm = Math.floor(nanos / 1000)
  let m = t + dm
  let s = tn + (nanos - dm * 1000)
  if (s >= 1000) { m += 1; s -= 1000 }
  out[0] = m
  out[1] = s
}

/** First position in `rows[from..to)` whose timestamp is >= (m, s) (`strict`: > (m, s)). */
export function searchRows(r: RightRows, from: number, to: number, m: number, s: number, strict: boolean): number {
  const { ts, sub, rows } = r
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const row = rows[mid]!
    const t = ts[row]!
    const before = t < m || (t === m && (strict ? sub[row]! <= s : sub[row]! < s))
    if (before) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Groups right rows per key id in timestamp order (stable: equal timestamps keep table order). */
export function groupRows(ids: Int32Array, ts: Float64Array, sub: Uint16Array, keys: number): RightRows {
  const n = ids.length
  let order: Int32Array | undefined
  for (let i = 1; i < n; i++) {
    if (ts[i]! < ts[i - 1]! || (ts[i] === ts[i - 1] && sub[i]! < sub[i - 1]!)) {
      // a right input out of timestamp order (a subquery's): sort row numbers, ties by row
      order = Int32Array.from({ length: n }, (_, j) => j).sort((a, b) => ts[a]! - ts[b]! || sub[a]! - sub[b]! || a - b)
      break
    }
  }
  const start = new Int32Array(keys + 1)
  for (let i = 0; i < n; i++) start[ids[i]! + 1]!++
  for (let k = 0; k < keys; k++) start[k + 1]! += start[k]!
  const fill = start.slice(0, keys)
  const rows = new Int32Array(n)
  for (let j = 0; j < n; j++) {
    const i = order === undefined ? j : order[j]!
    rows[fill[ids[i]!]!++] = i
  }
  return { ts, sub, start, rows, keys }
}

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
    // the right side: key ids, timestamps and argument vectors
    const idParts: Int32Array[] = []
    const tsParts: Float64Array[] = []
    const subParts: (Uint16Array | undefined)[] = []
    const argParts: Vector[][][] = aggs.map((a) => a.args.map(() => []))
    let total = 0
    let bytes = 0
    for await (const rb of run(node.right, ctx)) {
      const n = rb.length
      if (n === 0) continue
      const ids = new Int32Array(n)
      index.assign(rightKeys.map((e) => e(rb)), n, ids)
      const tv = rb.vectors[node.right.timestampIndex]!
      idParts.push(ids)
      tsParts.push(timestampsOf(tv))
      subParts.push(nsRemaindersOf(tv))
      bytes += n * 16
      rightArgs.forEach((args, a) => args.forEach((e, k) => {
        const v = materialize(e(rb))
        argParts[a]![k]!.push(v)
        bytes += vectorBytes(v)
      }))
      total += n
      mem.resize(bytes + index.count * MAP_ENTRY_BYTES)
      await ctx.maybeYield()
    }
    const ids = new Int32Array(total)
    const ts = new Float64Array(total)
    const sub = new Uint16Array(total)
    let at = 0
    idParts.forEach((p, j) => {
      ids.set(p, at)
      ts.set(tsParts[j]!, at)
      const s = subParts[j]
      if (s !== undefined) sub.set(s, at)
      at += p.length
    })
    const argVectors: Vector[][] = aggs.map((a, i) => (a.side === 'right' ? a.args.map((e, k) => concatVectors(e.type, argParts[i]![k]!)) : []))
    const right = groupRows(ids, ts, sub, index.count)
    idParts.length = 0; tsParts.length = 0; subParts.length = 0
    mem.resize(bytes + total * 8 + index.count * (MAP_ENTRY_BYTES + 4))

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
