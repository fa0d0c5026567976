/**
 * A table: its metadata and its rows as column buffers.
 *
 * The rows live in a {@link TableData} version. Readers take the current version and its row
 * count when a statement starts (a snapshot) and read only that. Appends in timestamp order
 * write past the snapshot's end; anything that rewrites rows (out-of-order merge, dedup, UPDATE,
 * TRUNCATE, schema change) installs a new version, so a running reader is never disturbed.
 */
import type { ColumnType } from '../types/column-type.js'
import { type Vector, type I64Vector, getScalar } from '../types/vector.js'
import type { PartitionUnit } from '../sql/ast.js'
import { ColumnBuffer } from './column-buffer.js'
import { applyTtl } from './partition-ops.js'

/** Column metadata. */
export interface ColumnMeta {
  name: string
  type: ColumnType
  indexed: boolean
  symbolCapacity: number
  symbolCached: boolean
}

/** Table-level metadata. */
export interface TableMeta {
  id: number
  name: string
  columns: ColumnMeta[]
  /** index of the designated timestamp column, or -1 */
  timestampIndex: number
  partitionBy: PartitionUnit
  wal: boolean
  /** upsert key column names (the designated timestamp included), empty when dedup is off */
  dedupKeys: string[]
  ttl: { count: number; unit: Exclude<PartitionUnit, 'NONE'> } | undefined
  maxUncommittedRows: number
  o3MaxLag: number
}

/** One immutable-by-convention version of a table's rows. */
export interface TableData {
  readonly columns: readonly ColumnBuffer[]
  /** rows visible in this version */
  readonly rowCount: number
}

/** A snapshot: what one statement reads. */
export interface TableSnapshot {
  readonly meta: TableMeta
  readonly data: TableData
  readonly rowCount: number
}

/**
 * What durable storage plugs into a table; absent for in-memory databases. Each method throws
 * (a SqlError) to refuse the change, and the table then stays as it was.
 */
export interface TableStore {
  /** loads the table's rows on first use (opening a database reads metadata only) */
  load(table: Table): TableData
  /** makes an append durable (WAL record + fsync) before it is applied */
  logAppend(table: Table, vectors: readonly Vector[], length: number): void
  /** persists a rewrite (UPDATE, TRUNCATE, DROP PARTITION, ADD/DROP COLUMN) after it is applied */
  persistRewrite(table: Table): void
  /** bytes on disk of the partition named `name` (SHOW PARTITIONS) */
  partitionBytes?(table: Table, name: string): number
}

/** A table: rows in memory, optionally backed by durable storage ({@link TableStore}). */
export class Table {
  private current: TableData | undefined
  /** durable storage, when the database has a data directory */
  store: TableStore | undefined

  constructor(readonly meta: TableMeta, store?: TableStore) {
    this.store = store
    this.current = store === undefined ? emptyData(meta) : undefined
  }

  private get data(): TableData {
    return this.current ?? (this.current = this.store!.load(this))
  }

  private set data(d: TableData) {
    this.current = d
  }

  /** True when the rows are in memory (always, without a store). */
  get loaded(): boolean {
    return this.current !== undefined
  }

  /** Drops the in-memory rows of a clean durable table; they load again on next use. @internal */
  unload(): void {
    if (this.store !== undefined) this.current = undefined
  }

  /** Number of rows now. */
  get rowCount(): number {
    return this.data.rowCount
  }

  /** The rows as of now, for one statement to read. */
  snapshot(): TableSnapshot {
    return { meta: this.meta, data: this.data, rowCount: this.data.rowCount }
  }

  /** The symbol dictionary of column `i`, if it is a SYMBOL column. */
  dictOf(i: number) {
    return this.data.columns[i]!.dict
  }

  /**
   * Appends rows given as one vector per table column (types must match). Rows older than the
   * newest row are merged into timestamp order; DEDUP UPSERT KEYS replaces equal-key rows.
   */
  append(vectors: readonly Vector[], length: number): void {
    if (length === 0) return
    this.store?.logAppend(this, vectors, length)
    this.appendUnlogged(vectors, length)
    if (this.meta.ttl != null) applyTtl(this)
  }

  /** Applies an append without logging it (WAL replay). @internal */
  appendUnlogged(vectors: readonly Vector[], length: number): void {
    if (length === 0) return
    const ts = this.meta.timestampIndex
    const cols = this.data.columns
    const needsMerge = ts >= 0 && (this.meta.dedupKeys.length > 0 || !this.inOrder(vectors[ts] as I64Vector, length))
    if (!needsMerge) {
      for (let c = 0; c < cols.length; c++) cols[c]!.append(vectors[c]!)
      this.data = { columns: cols, rowCount: this.data.rowCount + length }
      return
    }
    const merged = cols.map((b) => b.clone())
    for (let c = 0; c < merged.length; c++) merged[c]!.append(vectors[c]!)
    const total = this.data.rowCount + length
    let order = this.timestampOrder(merged[ts]!, this.firstAfter(vectors[ts] as I64Vector, length), total)
    let count = total
    if (this.meta.dedupKeys.length > 0) [order, count] = this.dedup(merged, order, total)
    this.data = { columns: merged.map((b) => b.permuted(order, count)), rowCount: count }
  }

  /** True when the new timestamps are ascending and not older than the newest row. */
  private inOrder(v: I64Vector, length: number): boolean {
    const d = v.data
    let prev = this.data.rowCount === 0 ? -Infinity : lastTimestamp(this.data.columns[this.meta.timestampIndex]!, this.data.rowCount)
    for (let i = 0; i < length; i++) {
      const x = Number(d[v.isConst ? 0 : i]!)
      if (x < prev) return false
      prev = x
    }
    return true
  }

  /** Index of the first existing row whose timestamp is after the smallest new one. */
  private firstAfter(v: I64Vector, length: number): number {
    let min = Infinity
    for (let i = 0; i < length; i++) { const x = Number(v.data[v.isConst ? 0 : i]!); if (x < min) min = x }
    const buf = this.data.columns[this.meta.timestampIndex]!
    const view = buf.view(0, this.data.rowCount) as I64Vector
    let lo = 0
    let hi = this.data.rowCount
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (Number(view.data[mid]!) <= min) lo = mid + 1
      else hi = mid
    }
    return this.meta.dedupKeys.length > 0 ? lowerBound(view, min, lo) : lo
  }

  /** Row order by timestamp: rows before `from` stay; the rest are stably sorted. */
  private timestampOrder(tsBuf: ColumnBuffer, from: number, total: number): Int32Array {
    const view = tsBuf.view(0, total) as I64Vector
    const order = new Int32Array(total)
    for (let i = 0; i < total; i++) order[i] = i
    const tail = Array.from(order.subarray(from))
    const d = view.data
    tail.sort((a, b) => { const x = Number(d[a]!), y = Number(d[b]!); return x < y ? -1 : x > y ? 1 : a - b })
    order.set(tail, from)
    return order
  }

  /**
   * DEDUP UPSERT KEYS, as QuestDB applies it on commit: among the new rows, the last one per key
   * wins; every existing row with that key takes the winner's values (existing rows are not
   * collapsed among themselves — they may be duplicates from before dedup was enabled); a key
   * with no existing row is inserted once. Rows `>= oldCount` in `order` are the new ones.
   */
  private dedup(cols: ColumnBuffer[], order: Int32Array, total: number): [Int32Array, number] {
    const oldCount = this.data.rowCount
    const keyIdx = this.meta.dedupKeys.map((k) => this.meta.columns.findIndex((c) => c.name.toLowerCase() === k.toLowerCase()))
      .filter((i) => i !== this.meta.timestampIndex)
    const ts = cols[this.meta.timestampIndex]!.view(0, total) as I64Vector
    const keyViews = keyIdx.map((i) => cols[i]!.view(0, total))
    const out = new Int32Array(total)
    let n = 0
    let runStart = 0
    for (let i = 1; i <= total; i++) {
      if (i < total && ts.data[order[i]!] === ts.data[order[runStart]!]) continue
      const run = order.subarray(runStart, i)
      if (run.length === 1 || !run.some((r) => r >= oldCount)) {
        for (const r of run) out[n++] = r
      } else {
        const keyOf = (r: number) => keyViews.map((v) => { const x = getScalar(v, r); return x === null ? '\u0001' : `\u0002${String(x)}` }).join('\u0000')
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

  /** Replaces the rows with `columns` (used by UPDATE, TRUNCATE, DROP PARTITION): a new version. */
  replace(columns: ColumnBuffer[], rowCount: number): void {
    this.rewrite(() => { this.data = { columns, rowCount } })
  }

  /** Applies a rewrite and persists it; on failure restores the rows and columns as they were. */
  private rewrite(change: () => void): void {
    const data = this.data
    const columns = [...this.meta.columns]
    const ts = this.meta.timestampIndex
    change()
    if (this.store === undefined) return
    try {
      this.store.persistRewrite(this)
    } catch (e) {
      this.current = data
      this.meta.columns = columns
      this.meta.timestampIndex = ts
      throw e
    }
  }

  /** Current column buffers (for copy-on-write rewrites by statements). */
  buffers(): readonly ColumnBuffer[] {
    return this.data.columns
  }

  /** Adds a column (all nulls for existing rows). */
  addColumn(meta: ColumnMeta): void {
    const d = this.data
    this.rewrite(() => {
      this.meta.columns = [...this.meta.columns, meta]
      this.data = { columns: [...d.columns, ColumnBuffer.nulls(meta.type, d.rowCount)], rowCount: d.rowCount }
    })
  }

  /** Drops column `i`. */
  dropColumn(i: number): void {
    const d = this.data
    this.rewrite(() => {
      this.meta.columns = this.meta.columns.filter((_, j) => j !== i)
      if (this.meta.timestampIndex > i) this.meta.timestampIndex--
      this.data = { columns: d.columns.filter((_, j) => j !== i), rowCount: d.rowCount }
    })
  }

  /** Removes every row. */
  truncate(): void {
    const d = this.data
    this.rewrite(() => { this.data = { columns: this.meta.columns.map((c, i) => new ColumnBuffer(c.type, 1024, d.columns[i]!.dict)), rowCount: 0 } })
  }
}

function emptyData(meta: TableMeta): TableData {
  return { columns: meta.columns.map((c) => new ColumnBuffer(c.type)), rowCount: 0 }
}

function lastTimestamp(buf: ColumnBuffer, rowCount: number): number {
  return Number((buf.view(rowCount - 1, rowCount) as I64Vector).data[0]!)
}

/** First index in [0, hi) whose timestamp is >= min. */
function lowerBound(view: I64Vector, min: number, hi: number): number {
  let lo = 0
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (Number(view.data[mid]!) < min) lo = mid + 1
    else hi = mid
  }
  return lo
}
