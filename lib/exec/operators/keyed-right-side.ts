/**
 * The right side of a WINDOW or HORIZON JOIN, read once and held: each row's key id (in the
 * join's {@link KeyIndex}, which the left side then shares), its timestamp as microseconds and a
 * nanosecond remainder, and the columns the join keeps of it (WINDOW JOIN: its aggregates'
 * argument vectors; HORIZON JOIN: every right column). The rows are grouped per key in
 * timestamp order ({@link groupRows}), so a left row finds its rows by binary search
 * ({@link searchRows}). Everything
 * held counts against the statement's memory budget, resized a batch at a time.
 */
import type { Batch, Vector } from '../../types/vector.js'
import { concatVectors } from '../../types/vector.js'
import type { ColumnType } from '../../types/column-type.js'
import type { PlanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { Evaluator } from '../evaluate.js'
import type { KeyIndex } from '../keys/key-index.js'
import { MAP_ENTRY_BYTES, type Reservation, vectorBytes } from '../memory.js'
import { nsRemaindersOf, timestampsOf } from './time-join-rows.js'
import type { Runner } from './runner.js'

/** A column the join keeps of each right row: its type, and its vector in a right batch. */
export interface KeptColumn {
  readonly type: ColumnType
  readonly of: (batch: Batch) => Vector
}

/** The collected right side: its rows per key in timestamp order, and the kept columns (whole, in table order). */
export interface KeyedRightSide {
  readonly rows: RightRows
  readonly columns: Vector[]
}

/**
 * Reads `right` whole: key ids from `keys` through `index`, timestamps from its designated
 * timestamp, and `kept`'s vectors, then groups the rows per key. Yields (and checks for a cancel)
 * per batch; `mem` holds the bytes kept.
 */
export async function collectKeyedRight(right: PlanNode, keys: readonly Evaluator[], index: KeyIndex, kept: readonly KeptColumn[], ctx: ExecContext, run: Runner, mem: Reservation): Promise<KeyedRightSide> {
  const idParts: Int32Array[] = []
  const tsParts: Float64Array[] = []
  const subParts: (Uint16Array | undefined)[] = []
  const keptParts: Vector[][] = kept.map(() => [])
  let total = 0
  let bytes = 0
  for await (const rb of run(right, ctx)) {
    const n = rb.length
    if (n === 0) continue
    const ids = new Int32Array(n)
    index.assign(keys.map((e) => e(rb)), n, ids)
    const tv = rb.vectors[right.timestampIndex]!
    idParts.push(ids)
    tsParts.push(timestampsOf(tv))
    subParts.push(nsRemaindersOf(tv))
    bytes += n * 16
    kept.forEach((c, i) => {
      const v = c.of(rb)
      keptParts[i]!.push(v)
      bytes += vectorBytes(v)
    })
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
  idParts.length = 0; tsParts.length = 0; subParts.length = 0
  const columns = kept.map((c, i) => concatVectors(c.type, keptParts[i]!))
  keptParts.length = 0
  const rows = groupRows(ids, ts, sub, index.count)
  mem.resize(bytes + total * 8 + index.count * (MAP_ENTRY_BYTES + 4))
  return { rows, columns }
}

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
