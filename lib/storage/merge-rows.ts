/**
 * Merging out-of-order rows into a table version, and DEDUP UPSERT KEYS: pure functions over
 * column buffers that hold the existing rows followed by the new ones.
 */
import { type I64Vector, getScalar } from '../types/vector.js'
import type { ColumnBuffer } from './column-buffer.js'
import type { TableMeta } from './table.js'

/**
 * Smallest value of an i64 vector's first `length` rows, exact (a bigint for a BigInt64Array:
 * TIMESTAMP_NS values are past 2^53, and comparisons below compare them without Number()).
 */
export function minOf(v: I64Vector, length: number): number | bigint {
  let min: number | bigint = Infinity
  for (let i = 0; i < length; i++) { const x = v.data[v.isConst ? 0 : i]!; if (x < min) min = x }
  return min
}

/**
 * Index of the first existing row (of `existing`) that the new rows, the smallest of which is
 * `min`, can land before: the first row after `min`, or with dedup the first row at `min` (a
 * replaced row must be in the merged range).
 */
export function firstAfter(tsBuf: ColumnBuffer, existing: number, min: number | bigint, dedup: boolean): number {
  const view = tsBuf.view(0, existing) as I64Vector
  let lo = 0
  let hi = existing
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (view.data[mid]! <= min) lo = mid + 1
    else hi = mid
  }
  if (!dedup) return lo
  let l = 0
  let h = lo
  while (l < h) {
    const mid = (l + h) >>> 1
    if (view.data[mid]! < min) l = mid + 1
    else h = mid
  }
  return l
}

/**
 * Row order by timestamp after appending rows `[existing, total)` to rows in timestamp order:
 * rows before `from` stay where they are, the new rows are sorted and merged into the rest
 * (O(n + m log m), not a sort of everything from `from`); ties keep existing rows first, then
 * the new rows in arrival order.
 */
export function timestampOrder(tsBuf: ColumnBuffer, from: number, existing: number, total: number): Int32Array {
  const d = (tsBuf.view(0, total) as I64Vector).data
  const order = new Int32Array(total)
  for (let i = 0; i < from; i++) order[i] = i
  // rows [from, existing) are already in order; only the new rows need sorting (stable: by
  // timestamp, then position), then one merge of the two runs, existing rows first on ties
  const fresh = Array.from({ length: total - existing }, (_, k) => existing + k)
  // values compared as they are (bigints exactly: TIMESTAMP_NS is past 2^53)
  fresh.sort((a, b) => { const x = d[a]!, y = d[b]!; return x < y ? -1 : x > y ? 1 : a - b })
  let i = from
  let j = 0
  let o = from
  while (i < existing && j < fresh.length) {
    if (d[fresh[j]!]! < d[i]!) order[o++] = fresh[j++]!
    else order[o++] = i++
  }
  while (i < existing) order[o++] = i++
  while (j < fresh.length) order[o++] = fresh[j++]!
  return order
}

/**
 * DEDUP UPSERT KEYS, as QuestDB applies it on commit: among the new rows, the last one per key
 * wins; every existing row with that key takes the winner's values (existing rows are not
 * collapsed among themselves — they may be duplicates from before dedup was enabled); a key
 * with no existing row is inserted once. Rows `>= oldCount` in `order` are the new ones.
 */
export function dedupRows(meta: TableMeta, cols: readonly ColumnBuffer[], order: Int32Array, total: number, oldCount: number): [Int32Array, number] {
  const keyIdx = meta.dedupKeys.map((k) => meta.columns.findIndex((c) => c.name.toLowerCase() === k.toLowerCase()))
    .filter((i) => i !== meta.timestampIndex)
  const ts = cols[meta.timestampIndex]!.view(0, total) as I64Vector
  const keyViews = keyIdx.map((i) => cols[i]!.view(0, total))
  const keyOf = (r: number) => keyViews.map((v) => { const x = getScalar(v, r); return x === null ? '\u0001' : `\u0002${String(x)}` }).join('\u0000')
  const out = new Int32Array(total)
  let n = 0
  let runStart = 0
  for (let i = 1; i <= total; i++) {
    if (i < total && ts.data[order[i]!] === ts.data[order[runStart]!]) continue
    const run = order.subarray(runStart, i)
    if (run.length === 1 || !run.some((r) => r >= oldCount)) {
      for (const r of run) out[n++] = r
    } else {
      const winner = new Map<string, number>()
      for (const r of run) if (r >= oldCount) winner.set(keyOf(r), r)
      const replaced = new Set<string>()
      for (const r of run) {
        const k = keyOf(r)
        const w = winner.get(k)
        if (r < oldCount) {
          out[n++] = w ?? r
          if (w !== undefined) replaced.add(k)
        } else if (r === w && !replaced.has(k)) out[n++] = r
      }
    }
    runStart = i
  }
  return [out, n]
}
