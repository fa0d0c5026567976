/**
 * Symbol indexes: for one SYMBOL column of one part of a table, the row numbers of each key, in
 * row order (QuestDB's bitmap index, as posting lists). A scan with `sym = 'x'` or `sym IN (...)`
 * over an indexed column reads just those rows (see `runScan`).
 *
 * An index belongs to the column data it was built from, never to a table: the rows of a cold
 * partition never change, and in-memory column buffers only grow (an out-of-order merge, dedup,
 * UPDATE, TRUNCATE or a dropped partition installs new buffers, see `Table`), so an index kept
 * beside its buffer is extended by the rows appended since, and one for data that was replaced
 * goes with it. A durable table's checkpointed partitions keep theirs in index files
 * (durable/index-file.ts), read instead of rebuilt after a restart.
 */
import { SYMBOL_NULL } from '../types/column-type.js'

/** Row numbers per symbol key of one column, for rows [0, indexed). */
export class SymbolPostings {
  /** the list of key `k` at slot `k + 1` (symbol ids are dense from 0; null is -1): no hashing per row */
  private readonly lists: ({ ids: Int32Array; n: number } | undefined)[] = []
  private distinct = 0
  /** rows indexed so far */
  indexed = 0

  /** Postings over rows [0, indexed) from a list of row numbers per slot (symbol key + 1), as an index file holds them. */
  static fromLists(lists: readonly (Int32Array | undefined)[], indexed: number): SymbolPostings {
    const p = new SymbolPostings()
    lists.forEach((ids, slot) => {
      if (ids === undefined || ids.length === 0) return
      p.lists[slot] = { ids, n: ids.length }
      p.distinct++
    })
    p.indexed = indexed
    return p
  }

  /** Adds rows [this.indexed, to) whose keys are `keys[row]`. */
  extend(keys: ArrayLike<number>, to: number): void {
    const lists = this.lists
    let last = NaN
    let cur: { ids: Int32Array; n: number } | undefined
    for (let i = this.indexed; i < to; i++) {
      const k = keys[i]!
      if (k !== last) {
        last = k
        cur = lists[k + 1]
        if (cur === undefined) { cur = { ids: new Int32Array(16), n: 0 }; lists[k + 1] = cur; this.distinct++ }
      }
      if (cur!.n === cur!.ids.length) {
        const grown = new Int32Array(cur!.ids.length * 2)
        grown.set(cur!.ids)
        cur!.ids = grown
      }
      cur!.ids[cur!.n++] = i
    }
    if (to > this.indexed) this.indexed = to
  }

  /** The rows of `key` in [lo, hi), ascending (a view; do not change it). */
  rows(key: number, lo: number, hi: number): Int32Array {
    const l = key >= -1 ? this.lists[key + 1] : undefined
    if (l === undefined) return EMPTY
    const from = lowerBound(l.ids, l.n, lo)
    const to = lowerBound(l.ids, l.n, hi)
    return l.ids.subarray(from, to)
  }

  /** Number of distinct keys indexed. */
  get keys(): number {
    return this.distinct
  }
}

const EMPTY = new Int32Array(0)

function lowerBound(a: Int32Array, n: number, x: number): number {
  let lo = 0
  let hi = n
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (a[mid]! < x) lo = mid + 1; else hi = mid }
  return lo
}

const cache = new WeakMap<object, Map<number, SymbolPostings>>()

/**
 * The index of column `column` of the data `owner` (a cold partition, or an in-memory column
 * buffer) covering at least rows [0, rows); `keys()` gives that column's keys for rows [0, rows)
 * and is called only when rows were added since the last use.
 */
export function postingsOf(owner: object, column: number, rows: number, keys: () => ArrayLike<number>): SymbolPostings {
  let byColumn = cache.get(owner)
  if (byColumn === undefined) { byColumn = new Map(); cache.set(owner, byColumn) }
  let p = byColumn.get(column)
  if (p === undefined) { p = new SymbolPostings(); byColumn.set(column, p) }
  if (p.indexed < rows) p.extend(keys(), rows)
  return p
}

/** The index of column `column` of `owner` as built so far, if any. */
export function cachedPostings(owner: object, column: number): SymbolPostings | undefined {
  return cache.get(owner)?.get(column)
}

/** Installs `p` as the index of column `column` of `owner` (one read from a file, or built while writing one). */
export function setPostings(owner: object, column: number, p: SymbolPostings): void {
  let byColumn = cache.get(owner)
  if (byColumn === undefined) { byColumn = new Map(); cache.set(owner, byColumn) }
  byColumn.set(column, p)
}

/**
 * The rows in `ranges` ([from, to) pairs, ascending) whose key is one of `keys`, ascending: the
 * rows an indexed scan reads.
 */
export function indexedRows(p: SymbolPostings, keys: readonly number[], ranges: readonly number[]): Int32Array {
  const pieces: Int32Array[] = []
  let total = 0
  for (let r = 0; r < ranges.length; r += 2) {
    for (const k of keys) {
      const ids = p.rows(k, ranges[r]!, ranges[r + 1]!)
      if (ids.length > 0) { pieces.push(ids); total += ids.length }
    }
  }
  const out = new Int32Array(total)
  let at = 0
  for (const ids of pieces) { out.set(ids, at); at += ids.length }
  // one key per range: already ascending; several keys interleave
  if (keys.length > 1) out.sort()
  return out
}

/** The keys of `values` in a column's dictionary (null is the null key; unknown strings have no rows). */
export function keysOf(lookup: (s: string) => number, values: readonly (string | null)[]): number[] {
  const out = new Set<number>()
  for (const v of values) {
    if (v === null) { out.add(SYMBOL_NULL); continue }
    const k = lookup(v)
    if (k !== SYMBOL_NULL) out.add(k)
  }
  return [...out]
}
