/**
 * A table snapshot as a list of parts: runs of rows in timestamp order, each with its own
 * columns, row count and timestamp range. Durable tables have one part per checkpointed
 * partition (its columns load on first read, see durable/file-part.ts) and one in-memory part
 * for rows not yet checkpointed; in-memory tables have that one part only.
 */
import { timestampMicros } from '../types/timestamp-ns.js'
import { type Vector, type I64Vector, sliceVector } from '../types/vector.js'
import type { ColumnBuffer } from './column-buffer.js'
import type { ColumnType } from '../types/column-type.js'
import { type SymbolPostings, postingsOf } from './symbol-index.js'

/** Reads some columns of one part. Holding it keeps those columns in memory (past eviction). */
export interface PartReader {
  /** rows [start, end) (part-local) of the `k`-th column the reader was opened with */
  view(k: number, start: number, end: number): Vector
}

/** One run of a snapshot's rows. */
export interface SnapshotPart {
  /** index of the part's first row in the snapshot */
  readonly start: number
  readonly rows: number
  /** first and last designated timestamps (NaN when unknown or there is none) */
  readonly minTs: number
  readonly maxTs: number
  /** a reader of columns `columns` (table column indexes); loads what is not in memory */
  open(columns: readonly number[]): PartReader
  /**
   * For a part on disk and not in memory: the part-local row ranges inside inclusive [lo, hi]
   * timestamp `intervals` and a reader of just those rows, read without loading whole columns;
   * undefined when the part cannot or should not (see durable/range-read.ts).
   */
  openRanges?(columns: readonly number[], intervals: Float64Array): { ranges: number[]; reader: PartReader } | undefined
  /**
   * The symbol index of SYMBOL column `column` (table column index) over the part's rows,
   * built or extended on use (symbol-index.ts); undefined when the column's data has no keys.
   */
  postings?(column: number): SymbolPostings | undefined
  /** see {@link ColdPart.parquetFile} */
  parquetFile?(): ParquetFileOfPart | undefined
  /** see {@link ColdPart.nonNull}; absent or undefined: read the column to know */
  nonNull?(column: number): number | undefined
  /**
   * In-memory rows: the non-null values of table column `column`, counting at most `limit` rows
   * not counted before (undefined: more are left, call again); the count is kept for the next
   * statement ({@link ColumnBuffer.countNonNull}).
   */
  countNonNull?(column: number, limit: number): number | undefined
}

/** A partition stored as one Parquet file that holds exactly a part's rows (`ColdPart.parquetFile`). */
export interface ParquetFileOfPart {
  /** the file's path */
  readonly path: string
  /** the columns the file is written with (names and types) */
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[]
}

/** The keys of a symbol vector, or undefined for a constant one. */
function keyData(v: Vector): ArrayLike<number> | undefined {
  return v.isConst ? undefined : v.data as ArrayLike<number>
}

/** A checkpointed partition whose columns load on first read (provided by durable storage). */
export interface ColdPart {
  readonly name: string
  /** partition bounds in µs (lo inclusive, hi exclusive) */
  readonly lo: number
  readonly hi: number
  readonly rows: number
  readonly minTs: number
  readonly maxTs: number
  /** column `c` whole, loaded on first use */
  column(c: number): Vector
  /**
   * the part leaves the table: snapshots that still hold it can read it (its files stay readable while it
   * lives); `loaded[c]`, when given, is column `c` as the caller already read it, kept rather than read again
   */
  retire(loaded?: readonly (Vector | undefined)[]): void
  /**
   * Undoes {@link retire} (and the retirement {@link withoutColumns} makes): the statement that
   * retired it failed before its change was durable, and the part is the table's again, as before.
   */
  unretire?(): void
  /**
   * The same rows without table columns `gone` (indexes among the table's `count` columns before
   * DROP COLUMN), read or rewritten by nothing; this part is retired, keeping what statements
   * holding it read. Absent: the table rewrites its rows to drop a column.
   */
  withoutColumns?(gone: ReadonlySet<number>, count: number): ColdPart
  /** the symbol index of SYMBOL column `c`, when the part keeps one of its own (durable: index files) */
  postings?(c: number): SymbolPostings | undefined
  /** see {@link SnapshotPart.openRanges} */
  readRanges?(columns: readonly number[], intervals: Float64Array): { ranges: number[]; reader: PartReader } | undefined
  /**
   * For an out-of-order merge whose oldest new row has designated timestamp `min` (raw: µs, or ns
   * for TIMESTAMP_NS): the part cut after its last row not after `min`, so that only the rows from
   * there on move to memory (see {@link PartCut}); undefined when it cannot be cut (it then moves whole).
   * With `equal` (a DEDUP table) it is cut before its first row at `min` instead: a new row may
   * replace a row with its timestamp, so those rows must move too, and the parts then never share a
   * timestamp (QuestDB's O3 merge takes the rows equal to the O3 minimum into the merge for dedup).
   */
  cut?(min: number | bigint, equal?: boolean): PartCut | undefined
  /**
   * True for the first rows of a partition {@link cut} made: its files hold more rows than it (the
   * `_meta` in force may still name them), so rows are never appended to them in place; the rows
   * after it are written as a part of their own, with the same bounds.
   */
  readonly cutShort?: boolean
  /**
   * When the part is a partition stored as one Parquet file holding exactly its rows: that file
   * (valid now: open it before the event loop turns, a later write may replace it)
   */
  parquetFile?(): ParquetFileOfPart | undefined
  /**
   * The number of non-null values of table column `c` among the part's rows when it is known
   * without reading the column (recorded when the part was written), else undefined
   */
  nonNull?(c: number): number | undefined
}

/** A cold partition cut for an out-of-order merge ({@link ColdPart.cut}). */
export interface PartCut {
  /** rows [0, at) stay where they are; at > 0 */
  readonly at: number
  /** the part holding rows [0, at), reading the same files (the part itself when at is all its rows) */
  readonly prefix: ColdPart
  /** column `c`'s rows [at, rows), read on call (only those rows) */
  tail(c: number): Vector
}

/** A snapshot part over a cold partition. */
export function coldSnapshotPart(p: ColdPart, start: number): SnapshotPart {
  return {
    start, rows: p.rows, minTs: p.minTs, maxTs: p.maxTs,
    open(columns) {
      const vs = columns.map((c) => p.column(c))
      return { view: (k, s, e) => sliceVector(vs[k]!, s, e) }
    },
    openRanges: (columns, intervals) => p.readRanges?.(columns, intervals),
    parquetFile: () => p.parquetFile?.(),
    nonNull: (c) => p.nonNull?.(c),
    postings(c) {
      const own = p.postings?.(c)
      if (own !== undefined) return own
      const keys = keyData(p.column(c))
      return keys === undefined ? undefined : postingsOf(p, c, p.rows, () => keys)
    },
  }
}

/** Anything with `view(start, end)` over rows, such as a {@link ColumnBuffer} (whose non-null counts the part then uses). */
export type ColumnSource = Pick<ColumnBuffer, 'view'> & Partial<Pick<ColumnBuffer, 'countNonNull'>>

/**
 * Rows of an in-memory part not counted before that {@link SnapshotPart.nonNull} still counts at
 * once (a few batches, or an eighth of the part): more, and the part is read as the others are.
 */
export function cheapNonNullRows(rows: number): number {
  return Math.max(65_536, rows >>> 3)
}

/** A snapshot part over in-memory columns: rows [0, rows) of `columns`. */
export function memorySnapshotPart(columns: readonly ColumnSource[], rows: number, start: number, tsIndex: number): SnapshotPart {
  let minTs = NaN
  let maxTs = NaN
  if (tsIndex >= 0 && rows > 0) {
    // microseconds for TIMESTAMP_NS too, as checkpointed partitions record them
    const first = columns[tsIndex]!.view(0, 1) as I64Vector
    const type = first.type
    minTs = timestampMicros(type, first.data[0]!)
    maxTs = timestampMicros(type, (columns[tsIndex]!.view(rows - 1, rows) as I64Vector).data[0]!)
  }
  return {
    start, rows, minTs, maxTs,
    open(cols) {
      const bufs = cols.map((c) => columns[c]!)
      return { view: (k, s, e) => bufs[k]!.view(s, e) }
    },
    nonNull: (c) => columns[c]!.countNonNull?.(rows, cheapNonNullRows(rows)),
    // only over buffers that keep a count (a worker's shared views do not: count-from-stats would wait forever)
    ...(columns.every((b) => b.countNonNull !== undefined) ? { countNonNull: (c: number, limit: number) => columns[c]!.countNonNull!(rows, limit) } : {}),
    postings(c) {
      const buf = columns[c]!
      const keys = keyData(buf.view(0, rows))
      // the buffer only grows while it is the table's: its index grows with it
      return keys === undefined ? undefined : postingsOf(buf, c, rows, () => keys)
    },
  }
}

/** True when some inclusive [lo, hi] pair of `intervals` meets the part's timestamp range (unknown ranges meet everything). */
export function partMeets(p: Pick<SnapshotPart, 'minTs' | 'maxTs'>, intervals: Float64Array): boolean {
  if (Number.isNaN(p.minTs) || Number.isNaN(p.maxTs)) return true
  for (let k = 0; k < intervals.length; k += 2) if (intervals[k]! <= p.maxTs && intervals[k + 1]! >= p.minTs) return true
  return false
}
