/**
 * A checkpointed partition as the table sees it: its `_meta` entry, and its columns loaded on
 * first read, one column file at a time, under the store's memory budget ({@link PartCache}).
 */
import { type Vector, type I64Vector, type SymbolTable, allocate, materialize, sliceVector } from '../../types/vector.js'
import type { ColumnType } from '../../types/column-type.js'
import type { ColdPart, ParquetFileOfPart, PartCut, PartReader } from '../table-parts.js'
import { firstRowAtLeast, readRanges } from './range-read.js'
import { type PartCache, type Evictable, STORAGE_STATS, vectorBytes } from './part-cache.js'
import { PARQUET_PARTITION_FILE, type PartitionEntry, columnFileBytes, corrupted, nonNullOf, readColumn, readColumnTail, topNonNull, topOf, topsWithout } from './table-files.js'
import { timestampMicros } from '../../types/timestamp-ns.js'
import { readParquetPartColumn } from './parquet-part.js'
import { ParquetFile } from '../../parquet/reader.js'
import { parquetNonNullCounts } from '../../parquet/null-stats.js'
import { fixedWidth, isVarSize } from './column-codec.js'
import { SymbolPostings, cachedPostings, setPostings } from '../symbol-index.js'
import { internalError } from '../../errors.js'
import { holdDir, releaseDirs, whereNow } from './retired-dirs.js'
import { encodeIndexBlock, indexFileOf, readIndexFile, writeIndexFile } from './index-file.js'

/** What a partition needs to read its files; shared by the partitions of one table version. */
export interface PartSource {
  readonly tableDir: string
  readonly tableName: string
  /**
   * the columns of the table version these partitions were read with (`_meta`), as the files name
   * them unless a partition's entry says otherwise ({@link PartitionEntry.files})
   */
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[]
  /** the table's column `c` now (a column added after these partitions were written has no file: its values are null) */
  tableColumn(c: number): { readonly name: string; readonly type: ColumnType } | undefined
  readonly timestampIndex: number
  readonly cache: PartCache
  /** the table's dictionary of column `c` */
  dict(c: number): SymbolTable | undefined
  /** records a read failure (the table becomes unreadable) and returns the error to throw */
  fail(e: unknown): Error
}

/** A partition directory whose columns load lazily. */
export class FilePart implements ColdPart, Evictable {
  private readonly cols: (Vector | undefined)[]
  private loadedCount = 0
  private retired = false
  /** the table's source a DROP COLUMN replaced with the columns of before when it retired this part ({@link withoutColumns}), for {@link unretire} */
  private live: PartSource | undefined
  /** the same partition with rows appended in place (its files hold this part's rows as their prefix) */
  private successor: FilePart | undefined
  /**
   * The first rows of a partition an out-of-order merge cut ({@link cut}): its files hold more rows
   * than it, which the `_meta` in force may still name (until the next checkpoint replaces it), so
   * rows are never appended to them in place.
   */
  private isCut = false

  constructor(readonly entry: PartitionEntry, private src: PartSource) {
    this.cols = new Array<Vector | undefined>(src.columns.length).fill(undefined)
  }

  get name(): string { return this.entry.name }
  get lo(): number { return this.entry.lo }
  get hi(): number { return this.entry.hi }
  get rows(): number { return this.entry.rows }
  get minTs(): number { return this.entry.minTs }
  get maxTs(): number { return this.entry.maxTs }

  /** The columns its files are named and typed by. */
  get columns(): PartSource['columns'] { return this.src.columns }

  /**
   * Column `c` as its file names it, or undefined when the partition has no file for it (a column
   * added later, after the partition was written: every value null, QuestDB's "column top").
   */
  private fileColumn(c: number): { readonly name: string; readonly type: ColumnType } | undefined {
    const files = this.entry.files
    if (files === undefined) return this.src.columns[c]
    if (c >= files.length) return undefined
    const type = this.src.columns[c]?.type ?? this.src.tableColumn(c)?.type
    return type === undefined ? undefined : { name: files[c]!, type }
  }

  /**
   * For rows appended in place with the table's columns `now`: each column's file name here, or
   * undefined for a column added after the partition was written (it has no file: the append
   * writes one); undefined when these files do not serve those columns.
   */
  appendFiles(now: readonly { readonly name: string; readonly type: ColumnType }[]): (string | undefined)[] | undefined {
    const files = this.entry.files ?? this.src.columns.map((c) => c.name)
    if (files.length > now.length || files.some((_, i) => this.src.columns[i] !== undefined && this.src.columns[i]!.type !== now[i]!.type)) return undefined
    return now.map((_, i) => files[i])
  }

  /** The partition's directory, where its files are while it is the table's (not once retired: see retired-dirs.ts). */
  get dirPath(): string {
    return `${this.src.tableDir}/${this.entry.dir}`
  }

  /** True once the partition left the table ({@link retire}): it is read only by statements that still hold it. */
  get isRetired(): boolean {
    return this.retired
  }

  /** {@inheritDoc ColdPart.cutShort} */
  get cutShort(): boolean {
    return this.isCut
  }

  /**
   * {@inheritDoc ColdPart.cut}
   *
   * Column files only (not Parquet, nor on their way back to it), read under the names its entry
   * gives them (a RENAME COLUMN, an UPDATE or a DROP COLUMN since it was written), a column added
   * after it was written has no file and its tail is nulls; arrays read their rows' header records
   * and elements by position (array-rows.ts). The timestamp file is binary-searched with
   * positioned reads, then only rows [at, rows) of each column are read. The prefix is a part of
   * its own over the same directory and entry with fewer rows: the bytes after its end are ignored
   * by readers (as after an interrupted append), never written (a retired reader of this part, or
   * the `_meta` in force until the next checkpoint, still name them).
   */
  cut(min: number | bigint, equal = false): PartCut | undefined {
    const s = this.src
    const e = this.entry
    if (this.retired || this.successor !== undefined || e.format === 'parquet' || e.parquetFrom !== undefined) return undefined
    // every column its files were written as is the table's column of that index, with the same type
    if (!s.columns.every((c, i) => s.tableColumn(i)?.type === c.type)) return undefined
    const ti = s.timestampIndex
    const rows = e.rows
    const tsCol = this.fileColumn(ti)
    if (tsCol === undefined) return undefined
    const typeOf = (c: number): ColumnType => (s.columns[c] ?? s.tableColumn(c))!.type
    let from = 0
    let ts: I64Vector
    try {
      const loaded = this.cols[ti]
      if (loaded !== undefined) ts = materialize(loaded) as I64Vector
      else {
        // coarse (int64 read as a double, a nanosecond value rounded): from a row before; exact below
        from = Math.max(0, firstRowAtLeast(`${s.tableDir}/${e.dir}/${tsCol.name}.d`, rows, Number(min) - 4096) - 1)
        ts = readColumnTail(s.tableDir, s.tableName, tsCol, e, from, undefined) as I64Vector
        STORAGE_STATS.tailLoads++
        STORAGE_STATS.tailRows += rows - from
        STORAGE_STATS.bytesLoaded += vectorBytes(ts)
        let prev = -Infinity
        for (let r = 0; r < ts.length; r++) {
          const x = timestampMicros(tsCol.type, ts.data[r]!)
          if (x < prev || x < e.minTs || x > e.maxTs) throw corruptedTail(s.tableName, e.name, tsCol.name, from + r)
          prev = x
        }
      }
    } catch (err) {
      throw s.fail(err)
    }
    // the first row after `min`: rows equal to it stay before the new ones; with `equal` (DEDUP), the first row at `min`
    let lo = 0
    let hi = ts.length
    if (equal) while (lo < hi) { const mid = (lo + hi) >>> 1; if (ts.data[mid]! < min) lo = mid + 1; else hi = mid }
    else while (lo < hi) { const mid = (lo + hi) >>> 1; if (ts.data[mid]! <= min) lo = mid + 1; else hi = mid }
    const at = from + lo
    if (at === 0) return undefined
    if (at === rows) return { at, prefix: this, tail: (c) => allocate(typeOf(c), 0, s.dict(c)) }
    const prefix = new FilePart({ ...e, rows: at, maxTs: timestampMicros(tsCol.type, ts.data[at - 1 - from]!) }, s)
    prefix.isCut = true
    return {
      at,
      prefix,
      tail: (c) => {
        if (c === ti) return sliceVector(ts, at - from, ts.length)
        const v = this.cols[c]
        if (v !== undefined) return sliceVector(v, at, rows)
        const fc = this.fileColumn(c)
        // a column added after the partition was written: null in every row here
        if (fc === undefined) return allocate(typeOf(c), rows - at, s.dict(c))
        try {
          const out = readColumnTail(s.tableDir, s.tableName, fc, e, at, s.dict(c))
          STORAGE_STATS.tailLoads++
          STORAGE_STATS.tailRows += rows - at
          STORAGE_STATS.bytesLoaded += vectorBytes(out)
          return out
        } catch (err) {
          throw s.fail(err)
        }
      },
    }
  }

  /**
   * Its `_meta` entry for the table's columns `now` (names by index): the file names recorded when
   * they differ from the column names (a RENAME COLUMN keeps the files) or when the table has more
   * columns than the partition has files (ADD COLUMN writes none: their values are null here).
   */
  entryFor(now: readonly { readonly name: string }[]): PartitionEntry {
    const files = this.entry.files ?? this.src.columns.map((c) => c.name)
    if (files.length === now.length && files.every((n, i) => n === now[i]!.name)) {
      if (this.entry.files === undefined) return this.entry
      const { files: _, ...plain } = this.entry
      return plain
    }
    return this.entry.files === undefined ? { ...this.entry, files } : this.entry
  }

  /**
   * Rows were appended to this partition's files in place, as `next`: its columns are dropped
   * from memory and read from now on as the first {@link FilePart.rows} rows of `next`'s (which
   * keeps them loaded if it is retired before the files go away).
   */
  supersede(next: FilePart): void {
    this.successor = next
    // its loaded columns leave the budget (statements reading them hold their own references)
    this.src.cache.forget(this, this.cols.length)
    this.cols.fill(undefined)
    this.loadedCount = 0
  }

  /**
   * The same partition (same files, same rows) under a new `_meta` entry `entry` read with `src`
   * (after a RENAME or ADD COLUMN names its files there): its loaded columns move to the new part,
   * and reads of this one go there.
   */
  movedTo(entry: PartitionEntry, src: PartSource): FilePart {
    const next = new FilePart(entry, src)
    this.cols.forEach((v, c) => { if (v !== undefined) next.keep(c, v) })
    this.supersede(next)
    return next
  }

  /**
   * The same partition after DROP COLUMN of table columns `gone` (indexes among the `count`
   * columns before the drop), read by no rewrite: a new part whose entry names only the remaining
   * columns' files and lists the dropped ones in `dropped` (their files leave the directory once
   * `_meta` no longer names them: `removeDropped` in table-files.ts), with this part's loaded
   * columns. This part is retired as it is, for the statements that hold it: it keeps reading
   * with the columns and dictionaries of before (pinned now, the table's change shifts their
   * indexes) and holds the dropped columns' files, wherever they move, until it is collected.
   * Called before the table's metadata changes.
   */
  withoutColumns(gone: ReadonlySet<number>, count: number): FilePart {
    const src = this.src
    const before = Array.from({ length: count }, (_, c) => src.tableColumn(c))
    const dicts = before.map((_, c) => src.dict(c))
    const pinned: PartSource = {
      tableDir: src.tableDir, get tableName() { return src.tableName }, columns: src.columns, timestampIndex: src.timestampIndex, cache: src.cache,
      tableColumn: (c) => before[c], dict: (c) => dicts[c], fail: (e) => src.fail(e),
    }
    const columns = before.filter((c, i): c is NonNullable<typeof c> => c !== undefined && !gone.has(i)).map((c) => ({ name: c.name, type: c.type }))
    const narrowed: PartSource = {
      tableDir: src.tableDir, get tableName() { return src.tableName }, columns, cache: src.cache,
      timestampIndex: src.timestampIndex - [...gone].filter((i) => i < src.timestampIndex).length,
      tableColumn: (c) => src.tableColumn(c), dict: (c) => src.dict(c), fail: (e) => src.fail(e),
    }
    const had = this.entry.files ?? src.columns.map((c) => c.name)
    const files = had.filter((_, i) => !gone.has(i))
    const dropped = had.filter((_, i) => gone.has(i))
    const dir = `${src.tableDir}/${this.entry.dir}`
    // SHOW PARTITIONS' size loses the dropped files (a Parquet partition's file keeps them): a
    // fixed-width file's recorded rows are its bytes as written (no stat on the event loop, which
    // DROP COLUMN paid per partition); a var-size file's size is asked of the file system
    let freed = 0
    if (this.entry.format !== 'parquet') {
      had.forEach((f, i) => {
        if (!gone.has(i)) return
        const type = before[i]?.type
        const w = type === undefined || isVarSize(type) ? -1 : fixedWidth(type)
        freed += w >= 0 ? (this.entry.rows - topOf(this.entry, f)) * w : columnFileBytes(dir, f)
      })
    }
    const { files: _files, dropped: _dropped, tops: _tops, ...rest } = this.entry
    const plain = files.length === columns.length && files.every((f, i) => f === columns[i]!.name)
    const tops = topsWithout(this.entry.tops, dropped)
    const entry: PartitionEntry = {
      ...rest, bytes: Math.max(0, this.entry.bytes - freed),
      ...(tops === undefined ? {} : { tops }),
      ...(plain ? {} : { files }),
      ...(dropped.length > 0 || this.entry.dropped !== undefined ? { dropped: [...new Set([...(this.entry.dropped ?? []), ...dropped])] } : {}),
    }
    const next = new FilePart(entry, narrowed)
    this.cols.forEach((v, c) => { if (!gone.has(c) && v !== undefined) next.keep(c - [...gone].filter((i) => i < c).length, v) })
    this.live = src
    this.src = pinned
    this.retireHolding(dropped)
    return next
  }

  /**
   * The same partition with the columns `changed` (by index) in new files (UPDATE rewrites only
   * the columns it changes, of the partitions it changes): `entry` names them, and lists the
   * files they replace, `replaced`, in `dropped`; `src` reads the `_meta` that holds `entry`. The
   * new part keeps this part's other loaded columns and the new values; this part is retired as
   * it is and holds the replaced files, wherever they move, for the statements still reading it.
   */
  withColumns(entry: PartitionEntry, src: PartSource, changed: ReadonlyMap<number, Vector>, replaced: readonly string[]): FilePart {
    const next = new FilePart(entry, src)
    this.cols.forEach((v, c) => { if (v !== undefined && !changed.has(c)) next.keep(c, v) })
    for (const [c, v] of changed) next.keep(c, v)
    this.retireHolding(replaced)
    return next
  }

  /** {@link retire}, also holding the column files `names` of its directory (they leave it on their own). */
  private retireHolding(names: readonly string[]): void {
    this.retire()
    if (this.entry.format !== 'parquet') for (const f of names) holdDir(`${this.src.tableDir}/${this.entry.dir}/${f}`, this)
  }

  /**
   * {@inheritDoc ColdPart.nonNull}
   *
   * From the entry's recorded counts ({@link nonNullOf}: only while they were counted over this
   * directory and row count); a column without a file here (added later) has none. A Parquet
   * partition's from its file's footer ({@link parquetNonNull}).
   */
  nonNull(c: number): number | undefined {
    if (this.entry.format === 'parquet') return this.parquetNonNull(c)
    const fc = this.fileColumn(c)
    if (fc !== undefined) return nonNullOf(this.entry, fc.name)
    const type = this.src.tableColumn(c)?.type
    return type === undefined ? undefined : topNonNull(type, this.entry.rows)
  }

  /** the non-null counts of the Parquet file's columns, read from its footer once ({@link parquetNonNull}) */
  private parquetCounts: Map<string, number | undefined> | undefined

  /**
   * {@link nonNull} of a Parquet partition: from the file's own row-group statistics
   * (`num_values`, `null_count`: parquet/null-stats.ts) while the file holds exactly the
   * partition's rows as the table's columns ({@link parquetFile}); a column added after the file
   * was written has none in it.
   */
  private parquetNonNull(c: number): number | undefined {
    const file = this.parquetFile()
    if (file === undefined) return undefined
    const type = this.src.tableColumn(c)?.type
    const fc = this.src.columns[c]
    if (type === undefined) return undefined
    if (fc === undefined) return topNonNull(type, this.entry.rows)
    if (fc.type !== type) return undefined
    if (this.parquetCounts === undefined) {
      try {
        const pf = ParquetFile.open(file.path)
        this.parquetCounts = pf.rowCount === this.entry.rows ? parquetNonNullCounts(pf) : new Map()
      } catch {
        // a damaged footer fails the scan that reads the column, with its own error
        this.parquetCounts = new Map()
      }
    }
    return this.parquetCounts.get(fc.name)
  }

  /** {@inheritDoc ColdPart.column} */
  column(c: number): Vector {
    const v = this.cols[c]
    if (v !== undefined) {
      if (!this.retired) this.src.cache.touch(this, c)
      return v
    }
    if (this.successor !== undefined) return sliceVector(this.successor.column(c), 0, this.entry.rows)
    const s = this.src
    const fc = this.fileColumn(c)
    let loaded: Vector
    try {
      if (fc === undefined) {
        const type = s.tableColumn(c)?.type
        if (type === undefined) throw internalError(`partition ${this.entry.name} has no column ${c}`)
        loaded = allocate(type, this.entry.rows, s.dict(c))
      } else {
        // a retired partition reads its directory where it is now (moved to the trash once `_meta` let it go)
        let tableDir = s.tableDir
        let entry = this.entry
        if (this.retired) {
          // a dropped column's files move on their own (withoutColumns), the directory's others with it
          const base = `${s.tableDir}/${this.entry.dir}/${fc.name}`
          const moved = whereNow(base)
          const now = moved !== base ? moved : whereNow(`${s.tableDir}/${this.entry.dir}`)
          const cut = now.lastIndexOf('/')
          tableDir = now.slice(0, cut)
          entry = { ...this.entry, dir: now.slice(cut + 1) }
        }
        loaded = entry.format === 'parquet'
          ? readParquetPartColumn(tableDir, s.tableName, fc, entry, s.dict(c))
          : readColumn(tableDir, s.tableName, fc, c === s.timestampIndex, entry, s.dict(c))
      }
    } catch (e) {
      throw s.fail(e)
    }
    const bytes = vectorBytes(loaded)
    STORAGE_STATS.columnLoads++
    STORAGE_STATS.bytesLoaded += bytes
    if (this.loadedCount === 0) STORAGE_STATS.partitionLoads++
    this.keep(c, loaded, bytes)
    return loaded
  }

  /**
   * The symbol index of SYMBOL column `c` over this partition's rows: from its index file when
   * that holds a valid index of these rows (index-file.ts), completed or rebuilt from the key
   * column otherwise (and then written back). Undefined for a Parquet partition.
   */
  postings(c: number): SymbolPostings | undefined {
    if (this.successor !== undefined) return this.successor.postings(c)
    if (this.entry.format === 'parquet') return undefined
    const rows = this.entry.rows
    const have = cachedPostings(this, c)
    if (have !== undefined && have.indexed >= rows) return have
    const fc = this.fileColumn(c)
    // a column without a file here (added later) has no index file either: its keys are all null
    const file = fc === undefined ? undefined : indexFileOf(`${this.src.tableDir}/${this.entry.dir}`, fc.name)
    let p = this.retired || file === undefined ? undefined : readIndexFile(file, rows)
    if (p !== undefined && p.indexed >= rows) STORAGE_STATS.indexReads++
    else {
      STORAGE_STATS.indexBuilds++
      const keys = this.column(c).data as Int32Array
      if (p === undefined) p = new SymbolPostings()
      p.extend(keys, rows)
      // best effort: the file is a cache; a retired partition's directory may be gone
      if (!this.retired && file !== undefined) try { writeIndexFile(file, encodeIndexBlock(keys, 0, rows)) } catch { /* rebuilt next time */ }
    }
    setPostings(this, c, p)
    return p
  }

  /** {@inheritDoc ColdPart.readRanges} */
  readRanges(columns: readonly number[], intervals: Float64Array): { ranges: number[]; reader: PartReader } | undefined {
    const s = this.src
    // anything already in memory is cheaper to read from there; a Parquet partition loads whole columns
    if (this.retired || this.successor !== undefined || this.entry.format === 'parquet' || this.cols[s.timestampIndex] !== undefined || columns.some((c) => this.cols[c] !== undefined)) return undefined
    // a column with a column top (its file holds fewer rows than the partition) is read whole
    if (this.entry.tops !== undefined && columns.some((c) => { const f = this.fileColumn(c); return f !== undefined && topOf(this.entry, f.name) > 0 })) return undefined
    // the files as this partition names them; a column without a file (added later) is read whole (all null)
    let files = s.columns
    if (this.entry.files !== undefined || columns.some((c) => c >= s.columns.length)) {
      const fcs = columns.map((c) => this.fileColumn(c))
      if (fcs.some((f) => f === undefined)) return undefined
      const mapped = [...s.columns]
      columns.forEach((c, k) => { mapped[c] = fcs[k]! })
      const tsFile = this.fileColumn(s.timestampIndex)
      if (tsFile === undefined) return undefined
      mapped[s.timestampIndex] = tsFile
      files = mapped
    }
    try {
      return readRanges({ dir: `${s.tableDir}/${this.entry.dir}`, rows: this.entry.rows, columns: files, timestampIndex: s.timestampIndex, dict: (c) => s.dict(c) }, columns, intervals)
    } catch (e) {
      throw s.fail(e)
    }
  }

  /** {@inheritDoc ColdPart.parquetFile} */
  parquetFile(): ParquetFileOfPart | undefined {
    // a file whose columns are named otherwise, or hold a dropped one, is not the table's rows as they are now
    if (this.entry.format !== 'parquet' || this.retired || this.successor !== undefined || this.entry.files !== undefined || this.entry.dropped !== undefined) return undefined
    return { path: `${this.src.tableDir}/${this.entry.dir}/${PARQUET_PARTITION_FILE}`, columns: this.src.columns }
  }

  /** Installs column `c` as loaded (also used to keep a checkpoint's just-written rows). */
  keep(c: number, v: Vector, bytes = vectorBytes(v)): void {
    if (this.cols[c] === undefined) this.loadedCount++
    this.cols[c] = v
    if (!this.retired) this.src.cache.add(this, c, bytes)
  }

  /** {@inheritDoc Evictable.loaded} */
  loaded(c: number): Vector | undefined {
    return this.cols[c]
  }

  /** {@inheritDoc Evictable.evict} */
  evict(c: number): void {
    if (this.retired || this.cols[c] === undefined) return
    this.cols[c] = undefined
    this.loadedCount--
  }

  /**
   * {@inheritDoc ColdPart.unretire}
   *
   * It reads with the table's columns again (not those a DROP COLUMN pinned), releases the
   * directories and files it held, and its loaded columns count in the memory budget again.
   */
  unretire(): void {
    if (!this.retired) return
    this.retired = false
    if (this.live !== undefined) { this.src = this.live; this.live = undefined }
    releaseDirs(this)
    this.cols.forEach((v, c) => { if (v !== undefined) this.src.cache.add(this, c, vectorBytes(v)) })
  }

  /** {@inheritDoc ColdPart.retire} */
  retire(loaded?: readonly (Vector | undefined)[]): void {
    if (this.retired) return
    // its columns are not read now (a TRUNCATE or DROP PARTITION of many partitions would read them all):
    // statements that still hold it read them when they need them, from its directory, which it holds
    // until it is garbage collected (retired-dirs.ts); what is loaded stays, out of the budget, and so do
    // the columns the caller already read (`loaded[c]`, e.g. an out-of-order merge that read them in turns)
    loaded?.forEach((v, c) => {
      if (v === undefined || v.length !== this.entry.rows || this.cols[c] !== undefined) return
      this.cols[c] = v
      this.loadedCount++
    })
    this.retired = true
    this.src.cache.forget(this, this.cols.length)
    holdDir(`${this.src.tableDir}/${this.entry.dir}`, this)
  }
}

/** The error for a designated timestamp out of order or range in a partition's file, at row `r`. */
function corruptedTail(table: string, partition: string, column: string, r: number): Error {
  return corrupted(table, partition, `column ${column}: designated timestamp out of order or range at row ${r}`)
}
