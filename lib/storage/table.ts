/**
 * A table: its metadata, its checkpointed partitions ({@link ColdPart}s, durable tables only; their
 * columns load lazily) and its rows in memory as column buffers.
 *
 * The in-memory rows live in a {@link TableData} version. Readers take the list of cold
 * partitions, the current version and its row count when a statement starts (a snapshot, see
 * table-parts.ts) and read only that. Appends in timestamp order
 * write past the snapshot's end; anything that rewrites rows (out-of-order merge, dedup, UPDATE,
 * TRUNCATE, schema change) installs a new version, so a running reader is never disturbed.
 *
 * An out-of-order merge without DEDUP rewrites only the rows from the first one a new row lands
 * before: the rows before it stay in their buffers as a frozen segment (`Table.frozen`, never
 * written again) and the version holds the rest. Copying them into the new version instead made
 * every merge cost the whole in-memory area (two interleaved ILP streams into a durable table:
 * 1.9M rows copied per commit before a checkpoint, 0.3-0.9 s each). Segments are joined four at a
 * time when they come close in size (so there are O(log rows) of them, see `joinSmall`) and all at
 * once whenever something needs the rows as one version (UPDATE, DDL). A checkpoint writes them
 * as they are held (held-rows.ts), without joining them first.
 */
import { timestampMicros } from '../types/timestamp-ns.js'
import type { ColumnType } from '../types/column-type.js'
import { type Vector, type I64Vector, type SymbolTable, concatVectors, sliceVector } from '../types/vector.js'
import type { PartitionUnit } from '../sql/ast.js'
import { ColumnBuffer, RowBuffer } from './column-buffer.js'
import { applyTtl } from './partition-ops.js'
import { dedupRows, firstAfter, minOf, timestampOrder } from './merge-rows.js'
import { type RowSegment, mergeSegments, mergeTail } from './o3-merge.js'
import { type ColdPart, type PartCut, type SnapshotPart, coldSnapshotPart, memorySnapshotPart } from './table-parts.js'
import { WriteLock } from './write-lock.js'
import { HeldRows } from './held-rows.js'
import { noteTableRows } from './table-growth.js'
import { type Steps, runSteps } from './durable/steps.js'
import { type Turns, inTurns, rowsPerTurn } from './in-turns.js'

/** Column metadata (immutable: DDL replaces the table's {@link TableMeta}). */
export interface ColumnMeta {
  readonly name: string
  readonly type: ColumnType
  readonly indexed: boolean
  /** the index's value block capacity (`INDEX CAPACITY n`, a power of 2); absent: QuestDB's default, 256 */
  readonly indexCapacity?: number
  readonly symbolCapacity: number
  readonly symbolCached: boolean
}

/**
 * Table-level metadata. Immutable: DDL installs a new object ({@link Table.setMeta}), so a
 * snapshot, a bound plan or a running reader keeps the metadata it started with.
 */
export interface TableMeta {
  readonly id: number
  readonly name: string
  readonly columns: readonly ColumnMeta[]
  /** index of the designated timestamp column, or -1 */
  readonly timestampIndex: number
  readonly partitionBy: PartitionUnit
  readonly wal: boolean
  /** upsert key column names (the designated timestamp included), empty when dedup is off */
  readonly dedupKeys: readonly string[]
  readonly ttl: { readonly count: number; readonly unit: Exclude<PartitionUnit, 'NONE'> } | undefined
  readonly maxUncommittedRows: number
  readonly o3MaxLag: number
}

/** `meta` frozen, with its columns, keys and TTL: a change in place throws instead of reaching readers. */
function frozen(meta: TableMeta): TableMeta {
  if (Object.isFrozen(meta)) return meta
  for (const c of meta.columns) Object.freeze(c)
  Object.freeze(meta.columns)
  Object.freeze(meta.dedupKeys)
  if (meta.ttl !== undefined && meta.ttl !== null) Object.freeze(meta.ttl)
  return Object.freeze(meta)
}

/** Rows appended to one table: a vector per table column. */
export interface TableAppend {
  readonly table: Table
  readonly vectors: readonly Vector[]
  readonly length: number
}

/** Consecutive appends to one table as a single append: one vector per column, one WAL record, one merge. */
export function concatAppends(table: Table, parts: readonly TableAppend[]): TableAppend {
  if (parts.length === 1) return parts[0]!
  const vectors = table.meta.columns.map((c, k) => concatVectors(c.type, parts.map((a) => a.vectors[k]!)))
  return { table, vectors, length: parts.reduce((n, a) => n + a.length, 0) }
}

/** One immutable-by-convention version of a table's in-memory rows. */
export interface TableData {
  readonly columns: readonly ColumnBuffer[]
  /** rows visible in this version */
  readonly rowCount: number
}

/** A snapshot: what one statement reads, as parts in timestamp order. */
export interface TableSnapshot {
  /** the table's metadata when the snapshot was taken (later DDL installs a new object) */
  readonly meta: TableMeta
  readonly rowCount: number
  readonly parts: readonly SnapshotPart[]
}

/**
 * What durable storage plugs into a table; absent for in-memory databases. Each method throws
 * (a SqlError) to refuse the change, and the table then stays as it was.
 */
export interface TableStore {
  /** the symbol dictionaries, on first use (throws when the table is unreadable) */
  dictionaries(table: Table): readonly (SymbolTable | undefined)[]
  /**
   * Writes an append to the log; the store applies it ({@link Table.applyAppend}) once a sync has
   * made it durable (see `DurableStore.commit`, which the database awaits before acknowledging)
   */
  logAppend(table: Table, vectors: readonly Vector[], length: number): void
  /** persists a rewrite (UPDATE, TRUNCATE, DROP PARTITION, ADD/DROP COLUMN) after it is applied; `full` rewrites every partition */
  persistRewrite(table: Table, full: boolean): void
  /**
   * True when a rewrite just applied is persisted later, by the DDL statement that made it (whose
   * syncs run off the main thread: `DurableStore.persistDdl`), which calls `undo` if that fails;
   * false: persist it now ({@link persistRewrite})
   */
  deferRewrite?(table: Table, full: boolean, undo: () => void): boolean
  /**
   * persists, in the background checkpoint, partitions the table dropped itself while a commit
   * applied rows (TTL): not now, inside the commit's step; until then the files still hold them
   * (a crash brings them back, and the next commit drops them again)
   */
  persistSoon?(table: Table): void
  /**
   * Writes the table's rows in memory as partitions now (a checkpoint of this table alone), so that
   * every row is in a cold partition (UPDATE then changes partitions, not the whole table)
   */
  flush?(table: Table): void
  /**
   * UPDATE: replaces, in the cold partitions `changes` names, the columns it gives (by index) with
   * the values given (whole columns), writing only those columns' files, in steps; resolves once
   * `_meta` names them and the table's cold partitions are the new ones. Nothing else may change
   * the table meanwhile (the caller holds its write lock alone)
   */
  updateColumns?(table: Table, changes: ReadonlyMap<ColdPart, ReadonlyMap<number, Vector>>): Promise<void>
  /** bytes on disk of the partition named `name` (SHOW PARTITIONS) */
  partitionBytes?(table: Table, name: string): number
  /** 'parquet' when the partition named `name` is one Parquet file (CONVERT PARTITION TO PARQUET) */
  partitionFormat?(table: Table, name: string): 'parquet' | undefined
  /**
   * Called before the table's rows or metadata change: a checkpoint running in steps in the
   * background finishes first (it must write the state it started from)
   */
  quiesce?(): void
}

/**
 * Most parts one partition is kept in by out-of-order merges that cut it ({@link ColdPart.cut}):
 * a merge reaching a partition in this many moves all of them to memory, and the checkpoint writes
 * it as one directory again (QuestDB bounds its partition splits so: `cairo.o3.last.partition.max.splits`).
 */
const MAX_CUTS = 16

/**
 * What an out-of-order merge moves to memory: cold partitions [from, end) whole and, with `cut`,
 * the partition before them from its cut on (`tails`: its columns' rows after the cut, as read
 * ahead); `held`: the whole partitions' columns as read ahead.
 */
interface Thawing {
  readonly from: number
  readonly cut: { readonly part: ColdPart; readonly at: PartCut; readonly tails: Vector[] } | undefined
  readonly held?: Map<ColdPart, Vector[]>
}

/**
 * Fewest rows of an in-order append to a durable table that becomes a segment of its own (its
 * vectors adopted, not copied into the newest rows' buffers: see {@link Table.applyAppendSteps}).
 */
export const ADOPT_MIN_ROWS = 8192
/** Most frozen segments before an in-order batch is copied into the newest rows again (a checkpoint settles them all). */
const MAX_ADOPTED_SEGMENTS = 64

/** Most rows the in-memory buffers are sized for after a checkpoint (they grow past it as needed). */
const SETTLE_CAPACITY = 1 << 18

/** Late rows an in-memory table keeps before it merges them, at least (see `Table.late`). */
const LATE_LIMIT = 4096

/**
 * A table: checkpointed partitions ({@link ColdPart}s, durable tables only) followed by rows in
 * memory (all rows of an in-memory table), optionally backed by durable storage.
 */
export class Table {
  /** checkpointed partitions, in timestamp order; their rows come before the in-memory ones */
  private cold: readonly ColdPart[]
  /**
   * In-memory rows before {@link current}'s, oldest first: the rows an out-of-order merge left
   * where they were (see the file's comment). Never written again; empty in most tables.
   */
  private frozen: readonly TableData[] = []
  /** rows of the frozen segments that are batches adopted as they came ({@link applyAppendSteps}), since the last checkpoint */
  private adoptedRows = 0
  /** the newest in-memory rows (all of them when {@link frozen} is empty): appends go here */
  private current: TableData | undefined
  /**
   * Rows appended since an out-of-order append, not merged yet (in-memory tables without DEDUP):
   * merged in one go when someone next reads the rows, or when they reach {@link LATE_LIMIT} or
   * an eighth of the table. A stream of late single-row INSERTs then costs one merge per batch of
   * them rather than a copy of the table per row.
   */
  private late: RowBuffer | undefined
  /** columns of cold partitions read ahead for the out-of-order merge running now ({@link loadThawing}) */
  private preloaded: Map<ColdPart, Vector[]> | undefined
  /** what the out-of-order merge running now moves to memory, planned and read ahead ({@link loadThawing}) */
  private planned: Thawing | undefined
  /** durable storage, when the database has a data directory */
  store: TableStore | undefined
  /** writers share it, UPDATE holds it alone (see write-lock.ts) */
  readonly writers = new WriteLock()

  /** the current metadata; replaced, never changed in place */
  private currentMeta: TableMeta
  /** an in-memory append running a slice per turn of the event loop ({@link Table.appendInTurns}) */
  private turns: Turns<void> | undefined
  /**
   * Commits that changed the rows since the table was opened (appends, UPDATE, TRUNCATE, dropped
   * partitions): `wal_tables()`' writerTxn / sequencerTxn.
   */
  txn = 0
  /** told of every append once it is logged (materialized views over the table note its range) */
  appended: ((table: Table, vectors: readonly Vector[], length: number) => void) | undefined

  constructor(meta: TableMeta, store?: TableStore, cold: readonly ColdPart[] = []) {
    this.currentMeta = frozen(meta)
    this.store = store
    this.cold = cold
  }

  /** The table's metadata now (immutable; a DDL statement installs a new one). */
  get meta(): TableMeta {
    return this.currentMeta
  }

  /**
   * Installs new metadata (DDL): readers that took a snapshot, and plans bound before, keep the
   * object they hold. The caller persists it (the store compares `_meta` after each DDL statement).
   */
  setMeta(next: TableMeta): void {
    this.quiesce()
    // late rows kept for later (in-memory tables) were appended under the upsert keys of before:
    // merged after DEDUP ENABLE they would replace each other as if they came in one commit
    if (this.late !== undefined && next.dedupKeys.join('\u0000') !== this.meta.dedupKeys.join('\u0000')) this.mergeLate()
    this.currentMeta = frozen(next)
  }

  /** The in-memory rows (after the cold partitions) as one version, with any late rows merged in. */
  private get data(): TableData {
    if (this.late !== undefined) this.mergeLate()
    if (this.frozen.length > 0) runSteps(this.joinSteps())
    return this.hot
  }

  /** The newest in-memory rows ({@link current}) as they are, without the late rows. */
  private get hot(): TableData {
    if (this.current !== undefined) return this.current
    const dicts = this.store?.dictionaries(this)
    return (this.current = { columns: this.meta.columns.map((c, i) => new ColumnBuffer(c.type, 1024, dicts?.[i])), rowCount: 0 })
  }

  /** Installs `d` as every in-memory row (no frozen segment). */
  private set data(d: TableData) {
    this.frozen = []
    this.adoptedRows = 0
    this.current = d
  }

  private get coldRows(): number {
    let n = 0
    for (const p of this.cold) n += p.rows
    return n
  }

  /** Rows in the frozen in-memory segments. */
  private get frozenRows(): number {
    let n = 0
    for (const f of this.frozen) n += f.rowCount
    return n
  }

  /** Number of rows now. */
  get rowCount(): number {
    return this.coldRows + this.frozenRows + this.hot.rowCount + (this.late?.length ?? 0)
  }

  /** The rows as of now, for one statement to read: cold partitions, then the in-memory rows. */
  snapshot(): TableSnapshot {
    // first: merging late rows can move cold partitions to memory
    const memory = this.inMemory()
    const parts: SnapshotPart[] = []
    let start = 0
    for (const p of this.cold) { parts.push(coldSnapshotPart(p, start)); start += p.rows }
    for (const d of memory) {
      if (d.rowCount === 0) continue
      parts.push(memorySnapshotPart(d.columns, d.rowCount, start, this.meta.timestampIndex))
      start += d.rowCount
    }
    return { meta: this.meta, rowCount: start, parts }
  }

  /**
   * The in-memory rows as they are held, oldest first: the frozen segments, then the newest rows
   * (one version in most tables), with any late rows merged in. Reading them joins nothing. @internal
   */
  inMemory(): readonly TableData[] {
    if (this.late !== undefined) this.mergeLate()
    return this.frozen.length === 0 ? [this.hot] : [...this.frozen, this.hot]
  }

  /**
   * Joins the in-memory segments into one version, a column per step (what reading the rows as
   * one version, `data`, runs at once). Nothing may change the table between steps. @internal
   */
  *joinSteps(): Steps<void> {
    if (this.frozen.length === 0) return
    const segments = [...this.frozen, this.hot]
    let rows = 0
    for (const d of segments) rows += d.rowCount
    const columns: ColumnBuffer[] = []
    for (const b of this.hot.columns) {
      const c = columns.length
      const out = new ColumnBuffer(b.type, rows, b.dict)
      for (const d of segments) out.appendRange(d.columns[c]!.view(0, d.rowCount), 0, d.rowCount)
      columns.push(out)
      if (columns.length < this.hot.columns.length) yield
    }
    this.data = { columns, rowCount: rows }
  }

  /**
   * Every row in memory as one version (loads the cold partitions; UPDATE and other rewrites).
   * The version's identity changes whenever the rows do.
   */
  materialized(): TableData {
    this.quiesce()
    this.thaw(0)
    return this.data
  }

  /** The cold partitions and the in-memory rows as one version. @internal */
  pending(): { cold: readonly ColdPart[]; data: TableData } {
    return { cold: this.cold, data: this.data }
  }

  /** The cold partitions and the in-memory rows as they are held, segments not joined (a checkpoint writes them so). @internal */
  pendingHeld(): { cold: readonly ColdPart[]; held: HeldRows } {
    return { cold: this.cold, held: new HeldRows(this.inMemory()) }
  }

  /**
   * Prepares a checkpoint: with `full` every row moves to memory; otherwise the last cold
   * partition does when the first in-memory row belongs to it (it is then written anew), unless
   * `appendable` says the rows can be appended to its files where they are. The partitions that
   * move are read a column per step (a background checkpoint: a column per turn of the event
   * loop), then moved in one step. Nothing may change the table between steps. @internal
   */
  *prepareCheckpointSteps(full: boolean, partitionOfFirst: (ts: number) => { lo: number; hi: number } | undefined, appendable: (p: ColdPart) => boolean = () => false): Steps<void> {
    const from = full ? 0 : this.checkpointThawFrom(partitionOfFirst, appendable)
    if (from >= this.cold.length) return
    const held = yield* this.readColumnsSteps(this.cold.slice(from))
    this.preloaded = held
    try { yield* this.thawSteps(from) } finally { this.preloaded = undefined }
  }

  /** The first cold partition a (not full) checkpoint moves to memory: see {@link prepareCheckpointSteps}. */
  private checkpointThawFrom(partitionOfFirst: (ts: number) => { lo: number; hi: number } | undefined, appendable: (p: ColdPart) => boolean): number {
    const last = this.cold[this.cold.length - 1]
    // the oldest in-memory rows (segments are not joined for this)
    const hot = this.inMemory().find((d) => d.rowCount > 0)
    if (last === undefined || hot === undefined) return this.cold.length
    const ti = this.meta.timestampIndex
    if (ti < 0) return appendable(last) ? this.cold.length : this.cold.length - 1
    const b = partitionOfFirst(timestampMicros(hot.columns[ti]!.type, (hot.columns[ti]!.view(0, 1) as I64Vector).data[0]!))
    // the first rows of a partition a merge cut stay as they are: the rows after them are written as a part of their own
    if (b !== undefined && last.cutShort === true) return this.cold.length
    return b === undefined || (b.lo === last.lo && b.hi === last.hi && !appendable(last)) ? this.cold.length - 1 : this.cold.length
  }

  /** After a checkpoint: the in-memory rows are now the cold partitions `cold`. @internal */
  settle(cold: readonly ColdPart[]): void {
    this.cold = cold
    const d = this.current
    // sized for the rows that came since the last checkpoint (within reason), so steady appends do not regrow from 1024
    // (batches adopted as segments of their own never came through these buffers)
    const capacity = d === undefined ? 1024 : Math.min(Math.max(1024, this.frozenRows - this.adoptedRows + d.rowCount), SETTLE_CAPACITY)
    this.frozen = []
    this.adoptedRows = 0
    if (d !== undefined) this.current = { columns: d.columns.map((b) => new ColumnBuffer(b.type, capacity, b.dict)), rowCount: 0 }
  }

  /**
   * Moves cold partitions [from, end) in front of the in-memory rows (retiring them; the columns
   * {@link preloaded} holds for one are used as they are, not read again).
   */
  private thaw(from: number): void {
    runSteps(this.thawSteps(from))
  }

  /**
   * {@link thaw} in steps: a column per step, the new version installed in the last. The moved
   * partitions' rows, the frozen segments and the newest rows are copied once, into one version
   * (joining the segments costs no copy of its own). Nothing may change the table between steps.
   */
  private *thawSteps(from: number): Steps<void> {
    this.quiesce()
    if (from >= this.cold.length) return
    const moving = this.cold.slice(from)
    const memory = this.inMemory()
    let rows = 0
    for (const p of moving) rows += p.rows
    for (const d of memory) rows += d.rowCount
    const hot = this.hot
    const columns: ColumnBuffer[] = []
    for (let c = 0; c < hot.columns.length; c++) {
      if (c > 0) yield
      const b = hot.columns[c]!
      const out = new ColumnBuffer(b.type, rows, b.dict)
      for (const p of moving) out.append(this.preloaded?.get(p)?.[c] ?? p.column(c))
      for (const d of memory) out.appendRange(d.columns[c]!.view(0, d.rowCount), 0, d.rowCount)
      columns.push(out)
    }
    for (const p of moving) p.retire(this.preloaded?.get(p))
    this.cold = this.cold.slice(0, from)
    this.data = { columns, rowCount: rows }
  }

  /** The symbol dictionary of column `i`, if it is a SYMBOL column. */
  dictOf(i: number) {
    return this.hot.columns[i]!.dict
  }

  /**
   * Appends rows given as one vector per table column (types must match). Rows older than the
   * newest row are merged into timestamp order; DEDUP UPSERT KEYS replaces equal-key rows.
   */
  append(vectors: readonly Vector[], length: number): void {
    if (length === 0) return
    // before the rows go in: a large append starts the parallel workers loading while it runs
    noteTableRows(this.rowCount + length)
    this.txn++
    if (this.store !== undefined) this.store.logAppend(this, vectors, length)
    else this.applyAppend(vectors, length)
    this.appended?.(this, vectors, length)
  }

  /**
   * {@link append} for an in-memory table (no store), a large append a slice of `rowsPerStep`
   * rows (about 4 MiB) per turn of the event loop ({@link applyAppendSteps}), so the loop answers queries
   * meanwhile; resolves once every row is in, and readers see them all at once then. Any other
   * change to the table meanwhile finishes it first, at once. A durable table logs the append
   * (its commit applies it in steps).
   */
  async appendInTurns(vectors: readonly Vector[], length: number, rowsPerStep = rowsPerTurn(this.meta.columns.map((c) => c.type))): Promise<void> {
    if (this.store !== undefined || length <= rowsPerStep) { this.append(vectors, length); return }
    noteTableRows(this.rowCount + length)
    this.quiesce()
    this.txn++
    const run = inTurns(this.applyAppendSteps(vectors, length, rowsPerStep))
    this.turns = run
    try { await run.done } finally { if (this.turns === run) this.turns = undefined }
    this.appended?.(this, vectors, length)
  }

  /** Finishes, at once, work on the table running in steps: the store's (a commit, a checkpoint) and an append in turns. */
  private quiesce(): void {
    this.store?.quiesce?.()
    this.turns?.finish()
  }

  /** Applies an append (and the table's TTL): at once in memory, or once its WAL record is durable. @internal */
  applyAppend(vectors: readonly Vector[], length: number): void {
    this.appendUnlogged(vectors, length)
    if (this.meta.ttl != null) applyTtl(this)
    noteTableRows(this.rowCount)
  }

  /**
   * {@link applyAppend} in steps, for a large commit (one step per turn of the event loop, see
   * `DurableStore.commit`): rows in timestamp order after the newest row (no DEDUP) are copied
   * `rowsPerStep` at a time, after room is made for them a column per step, and become visible to
   * readers at once in the last step, so a reader never sees part of an append. Any other append
   * (out of order, DEDUP) is applied whole in one step, after steps that read the checkpointed
   * partitions it moves to memory a column at a time ({@link loadThawing}). Nothing else may change the table between
   * steps: the store finishes the remaining steps first ({@link TableStore.quiesce}; in memory,
   * {@link appendInTurns} does). @internal
   */
  *applyAppendSteps(vectors: readonly Vector[], length: number, rowsPerStep: number): Steps<void> {
    this.quiesce()
    const ts = this.meta.timestampIndex
    const inOrder = this.late === undefined && this.meta.dedupKeys.length === 0 && (ts < 0 || this.inOrder(vectors[ts] as I64Vector, length))
    if (!inOrder) {
      // the partitions the merge moves to memory are read first, a column per step (a Parquet one decodes)
      const plan = yield* this.loadThawing(vectors, length)
      this.planned = plan
      this.preloaded = plan?.held
      try { this.applyAppend(vectors, length) } finally { this.preloaded = undefined; this.planned = undefined }
      return
    }
    if (this.store !== undefined && length >= ADOPT_MIN_ROWS && this.frozen.length < MAX_ADOPTED_SEGMENTS) {
      // a large batch in order into a durable table: its vectors become a segment of their own
      // (the newest rows so far freeze before it), adopted without a copy where they are column
      // memory already (an ILP request's builders); the checkpoint writes and settles it
      yield
      const hot = this.hot
      const segment = { columns: hot.columns.map((b, c) => ColumnBuffer.adopt(b.type, vectors[c]!, b.dict)), rowCount: length }
      if (hot.rowCount > 0) {
        this.frozen = [...this.frozen, hot, segment]
        this.current = { columns: hot.columns.map((b) => new ColumnBuffer(b.type, 1024, b.dict)), rowCount: 0 }
      } else {
        this.frozen = [...this.frozen, segment]
      }
      this.adoptedRows += length
      if (this.meta.ttl != null) applyTtl(this)
      return
    }
    if (length <= rowsPerStep) { this.applyAppend(vectors, length); return }
    yield
    // in order: at the end of the newest rows (frozen segments stay as they are)
    const cols = this.hot.columns
    for (const b of cols) { b.makeRoom(length); yield }
    for (let from = 0; from < length; from += rowsPerStep) {
      const to = Math.min(length, from + rowsPerStep)
      for (let c = 0; c < cols.length; c++) cols[c]!.append(sliceVector(vectors[c]!, from, to))
      if (to < length) yield
    }
    this.current = { columns: cols, rowCount: this.hot.rowCount + length }
    if (this.meta.ttl != null) applyTtl(this)
    noteTableRows(this.rowCount)
  }

  /** Applies an append without logging it (WAL replay). @internal */
  appendUnlogged(vectors: readonly Vector[], length: number): void {
    this.quiesce()
    if (length === 0) return
    if (this.late !== undefined) { this.addLate(vectors, length); return }
    const ts = this.meta.timestampIndex
    const dedup = this.meta.dedupKeys.length > 0
    const needsMerge = ts >= 0 && (dedup || !this.inOrder(vectors[ts] as I64Vector, length))
    // a durable table merges once per group commit already; an in-memory one waits for more rows
    if (needsMerge && !dedup && this.store === undefined) { this.addLate(vectors, length); return }
    this.merge(vectors, length, needsMerge)
  }

  /** Keeps rows for the next merge of late rows; merges when there are enough of them. */
  private addLate(vectors: readonly Vector[], length: number): void {
    const late = this.late ??= new RowBuffer(this.hot.columns, Math.max(length, 64))
    late.append(vectors, length)
    if (late.length >= Math.max(LATE_LIMIT, (this.frozenRows + this.hot.rowCount) >> 3)) this.mergeLate()
  }

  /** Merges the late rows into the in-memory rows. */
  private mergeLate(): void {
    const late = this.late!
    this.late = undefined
    const vectors = late.vectors()
    // late rows start before the newest row, but one batch of them may have caught up
    this.merge(vectors, late.length, !this.inOrder(vectors[this.meta.timestampIndex] as I64Vector, late.length))
  }

  /**
   * Appends rows at once: at the end, or with `needsMerge` (out of order, or a DEDUP table)
   * merged into timestamp order and deduplicated.
   */
  private merge(vectors: readonly Vector[], length: number, needsMerge: boolean): void {
    const ts = this.meta.timestampIndex
    if (!needsMerge) {
      // at the end of the newest rows (frozen segments stay as they are)
      const hot = this.hot
      const cols = hot.columns
      for (let c = 0; c < cols.length; c++) cols[c]!.append(vectors[c]!)
      this.current = { columns: cols, rowCount: hot.rowCount + length }
      return
    }
    const min = minOf(vectors[ts] as I64Vector, length)
    const plan = this.thawing(min)
    if (plan.from < this.cold.length || plan.cut !== undefined) { this.mergeThawed(plan, vectors, length, min); return }
    if (this.meta.dedupKeys.length === 0) this.mergeNewest(vectors, length, min)
    else this.mergeDedup(vectors, length, min)
  }

  /**
   * The merge of rows that reach checkpointed partitions (`plan`, {@link thawPlan}): the rows that
   * move to memory (the cut partition's after the cut, whole partitions, as read ahead when the
   * commit ran in steps) and the in-memory rows are merged with the new ones straight from where
   * they are held, so each is copied once (into the merged version; DEDUP: into the rows it sorts,
   * then in their order). Before, the move (`thawSteps`) copied them into one version and the
   * merge copied them again. The moved partitions retire as in {@link thawSteps}; a failure while
   * reading leaves the table as it was.
   */
  private mergeThawed(plan: Thawing, vectors: readonly Vector[], length: number, min: number | bigint): void {
    const ts = this.meta.timestampIndex
    const cut = plan.cut
    const moving = this.cold.slice(plan.from)
    const preloaded = this.preloaded
    const segments: RowSegment[] = []
    if (cut !== undefined) segments.push({ rows: cut.part.rows - cut.at.at, column: (c) => cut.tails[c] ?? cut.at.tail(c) })
    for (const p of moving) segments.push({ rows: p.rows, column: (c) => preloaded?.get(p)?.[c] ?? p.column(c) })
    for (const d of this.inMemory()) if (d.rowCount > 0) segments.push({ rows: d.rowCount, column: (c) => d.columns[c]!.view(0, d.rowCount) })
    const like = this.hot.columns
    let data: TableData
    if (this.meta.dedupKeys.length === 0) {
      const columns = mergeSegments(like, segments, vectors, length, ts)
      data = { columns, rowCount: columns[ts]!.length }
    } else {
      // staged once (the rows before the first one at `min` are left in order by timestampOrder), then sorted and deduplicated
      let existing = 0
      for (const g of segments) existing += g.rows
      const total = existing + length
      const merged = like.map((b, c) => {
        const out = new ColumnBuffer(b.type, total, b.dict)
        for (const g of segments) out.appendRange(g.column(c), 0, g.rows)
        out.append(vectors[c]!)
        return out
      })
      const from = firstAfter(merged[ts]!, existing, min, true)
      const [order, count] = dedupRows(this.meta, merged, timestampOrder(merged[ts]!, from, existing, total), total, existing)
      data = { columns: merged.map((b) => b.permuted(order, count)), rowCount: count }
    }
    for (const p of moving) p.retire(preloaded?.get(p))
    if (cut === undefined) this.cold = this.cold.slice(0, plan.from)
    else {
      // its first rows stay where they are, as a part of their own (the same files, fewer rows)
      if (cut.at.prefix !== cut.part) cut.part.retire()
      this.cold = [...this.cold.slice(0, plan.from - 1), cut.at.prefix]
    }
    this.data = data
  }

  /**
   * The merge of a DEDUP table: as {@link mergeNewest}, only the rows from the first one at the
   * oldest new timestamp `min` on are rewritten (a new row may replace a row with its timestamp,
   * none older: the upsert keys include the timestamp), sorted with the new rows and deduplicated
   * ({@link dedupRows}); the rows before stay in their buffers as a frozen segment. Copying every
   * in-memory row instead made each DEDUP commit cost every row since the last checkpoint.
   */
  private mergeDedup(vectors: readonly Vector[], length: number, min: number | bigint): void {
    const ts = this.meta.timestampIndex
    const { hot, from } = this.reached(min, true)
    const keep = from < length ? 0 : from
    const existing = hot.rowCount - keep
    const total = existing + length
    const merged = hot.columns.map((b, c) => {
      const out = new ColumnBuffer(b.type, total, b.dict)
      out.appendRange(b.view(keep, hot.rowCount), 0, existing)
      out.append(vectors[c]!)
      return out
    })
    const [order, count] = dedupRows(this.meta, merged, timestampOrder(merged[ts]!, from - keep, existing, total), total, existing)
    const frozen = keep > 0 ? joinSmall([...this.frozen, { columns: hot.columns, rowCount: keep }]) : this.frozen
    this.data = { columns: merged.map((b) => b.permuted(order, count)), rowCount: count }
    this.frozen = frozen
  }

  /**
   * The out-of-order merge without DEDUP (o3-merge.ts): only the rows from the first one a new row
   * (the oldest, `min`) lands before are rewritten, the new rows' ascending runs merged. The rows
   * before it stay in their buffers as a frozen segment, unless they are fewer than the new rows
   * (then copying them is cheaper than one more segment). A merge reaching into the frozen
   * segments joins them first.
   */
  private mergeNewest(vectors: readonly Vector[], length: number, min: number | bigint): void {
    const ts = this.meta.timestampIndex
    const { hot, from } = this.reached(min, false)
    const keep = from < length ? 0 : from
    // room for the next in-order batch of this size, unless it will be a segment of its own
    const spare = this.store !== undefined && length >= ADOPT_MIN_ROWS ? 0 : length
    const columns = mergeTail(hot.columns, keep, from, hot.rowCount, vectors, length, ts, spare)
    const frozen = keep > 0 ? joinSmall([...this.frozen, { columns: hot.columns, rowCount: keep }]) : this.frozen
    this.data = { columns, rowCount: hot.rowCount - keep + length }
    this.frozen = frozen
  }

  /**
   * The newest in-memory rows a merge whose oldest new row is `min` reaches, and the first of them
   * it rewrites ({@link firstAfter}; `dedup`: the first at `min`); the frozen segments are joined
   * first when it reaches into them.
   */
  private reached(min: number | bigint, dedup: boolean): { hot: TableData; from: number } {
    const ts = this.meta.timestampIndex
    const hot = this.hot
    const from = firstAfter(hot.columns[ts]!, hot.rowCount, min, dedup)
    if (from > 0 || this.frozen.length === 0) return { hot, from }
    // the frozen segments it reaches (from the newest back to the one it lands in) are joined
    // with the newest rows; older segments stay as they are
    let k = this.frozen.length
    while (k > 0) {
      const d = this.frozen[k - 1]!
      const f = firstAfter(d.columns[ts]!, d.rowCount, min, dedup)
      if (f >= d.rowCount) break
      k--
      if (f > 0) break
    }
    const older = this.frozen.slice(0, k)
    // one segment reached and no newer rows: it becomes the newest rows as it is (the merge
    // writes new buffers anyway); several are joined first
    const reached = this.frozen.slice(k)
    let all: TableData
    if (reached.length === 1 && hot.rowCount === 0) {
      all = reached[0]!
      this.current = all
    } else {
      this.frozen = reached
      all = this.data
    }
    this.frozen = older
    return { hot: all, from: firstAfter(all.columns[ts]!, all.rowCount, min, dedup) }
  }

  /**
   * What an out-of-order merge whose oldest new row is `min` moves to memory (the cold partitions
   * holding timestamps >= `min`, the first of them only from its first row after `min`, DEDUP: at
   * `min`, when it can be cut): as read ahead ({@link loadThawing}) when that plan still holds, else
   * {@link thawPlan}.
   */
  private thawing(min: number | bigint): Thawing {
    const planned = this.planned
    return planned !== undefined && (planned.cut === undefined ? planned.from === this.firstReached(min) : this.cold[planned.from - 1] === planned.cut.part) ? planned : this.thawPlan(min)
  }

  /**
   * What an out-of-order merge whose oldest new row is `min` moves to memory: every cold partition
   * from the first holding timestamps >= `min`, the first of them cut ({@link ColdPart.cut}) after
   * its last row not after `min`, or in a DEDUP table before its first row at `min` (a new row may
   * replace any row with its timestamp, and no older row: the upsert keys include the timestamp).
   * The rows before the cut stay on disk as they are, as a part of their own, and only the rest
   * move (QuestDB splits a partition so too). A partition already in {@link MAX_CUTS} parts moves
   * whole, all its parts, so that the checkpoint writes it as one again.
   */
  private thawPlan(min: number | bigint): Thawing {
    const k = this.firstReached(min)
    if (k >= this.cold.length) return { from: k, cut: undefined }
    const p = this.cold[k]!
    let first = k
    while (first > 0 && this.cold[first - 1]!.lo === p.lo && this.cold[first - 1]!.hi === p.hi) first--
    if (k - first + 1 >= MAX_CUTS) return { from: first, cut: undefined }
    const at = p.cut?.(min, this.meta.dedupKeys.length > 0)
    return at === undefined ? { from: k, cut: undefined } : { from: k + 1, cut: { part: p, at, tails: [] } }
  }

  /** The first of the cold partitions (the rest follow it) holding timestamps >= `min`. */
  private firstReached(min: number | bigint): number {
    // partition ranges are microseconds for TIMESTAMP_NS tables too
    const us = timestampMicros(this.tsType(), min)
    let k = this.cold.length
    while (k > 0 && this.cold[k - 1]!.maxTs >= us) k--
    return k
  }

  /**
   * Steps reading what an append of these rows (out of order, or to a DEDUP table) will move to
   * memory ({@link thawPlan}): a column of a partition per step (a cut partition's rows after the
   * cut only), so a partition stored as Parquet is decoded a column per turn of the event loop
   * rather than all of them in the merge's one step. Resolves to the plan with what it read
   * (undefined: nothing moves), for {@link thawing}. The table must not change meanwhile (as for
   * {@link applyAppendSteps}).
   */
  private *loadThawing(vectors: readonly Vector[], length: number): Generator<void, Thawing | undefined, void> {
    const ts = this.meta.timestampIndex
    if (ts < 0 || this.cold.length === 0) return undefined
    const min = minOf(vectors[ts] as I64Vector, length)
    if (this.firstReached(min) >= this.cold.length) return undefined
    // (finding the cut reads the partition's timestamps from it on: a step of its own)
    yield
    const plan = this.thawPlan(min)
    const cut = plan.cut
    if (cut !== undefined) {
      for (let c = 0; c < this.meta.columns.length; c++) {
        yield
        cut.tails[c] = cut.at.tail(c)
      }
    }
    return { ...plan, held: yield* this.readColumnsSteps(this.cold.slice(plan.from)) }
  }

  /** Steps reading every column of cold partitions `parts`, a column of a partition per step; resolves to them by partition. */
  private *readColumnsSteps(parts: readonly ColdPart[]): Generator<void, Map<ColdPart, Vector[]>, void> {
    const held = new Map<ColdPart, Vector[]>()
    for (const p of parts) {
      const vs: Vector[] = []
      held.set(p, vs)
      for (let c = 0; c < this.meta.columns.length; c++) {
        yield
        vs.push(p.column(c))
      }
    }
    yield
    return held
  }

  /** The newest designated timestamp, or -Infinity when there are no rows. */
  private newest(): number | bigint {
    const d = this.hot.rowCount > 0 ? this.hot : this.frozen[this.frozen.length - 1]
    if (d !== undefined && d.rowCount > 0) return lastTimestamp(d.columns[this.meta.timestampIndex]!, d.rowCount)
    const last = this.cold[this.cold.length - 1]
    if (last === undefined) return -Infinity
    // a TIMESTAMP_NS partition records microseconds: its newest value is at most the microsecond's last nanosecond
    return this.tsType() === 'TIMESTAMP_NS' ? BigInt(last.maxTs) * 1000n + 999n : last.maxTs
  }

  private tsType(): string {
    return this.meta.columns[this.meta.timestampIndex]?.type ?? 'TIMESTAMP'
  }

  /** True when the new timestamps are ascending and not older than the newest row. */
  private inOrder(v: I64Vector, length: number): boolean {
    const d = v.data
    let prev = this.newest()
    for (let i = 0; i < length; i++) {
      const x = d[v.isConst ? 0 : i]!
      if (x < prev) return false
      prev = x
    }
    return true
  }

  /** Replaces every row with `columns` (used by UPDATE): a new version, every partition rewritten. */
  replace(columns: ColumnBuffer[], rowCount: number): void {
    this.quiesce()
    this.txn++
    this.rewrite(true, () => { this.cold = []; this.data = { columns, rowCount } })
  }

  /**
   * UPDATE of a table without storage: in the in-memory segments `changes` names (as
   * {@link inMemory} returned them, `segments`), the columns it gives by index are replaced (same
   * rows). Other segments and columns stay the very buffers they were; a statement already reading
   * keeps the buffers it holds. False, and nothing changes, when the rows changed since `segments`
   * was read. @internal
   */
  updateInMemory(segments: readonly TableData[], changes: ReadonlyMap<TableData, ReadonlyMap<number, ColumnBuffer>>): boolean {
    this.quiesce()
    const now = this.inMemory()
    if (this.store !== undefined || now.length !== segments.length || now.some((d, i) => d !== segments[i])) return false
    const changed = (d: TableData): TableData => {
      const m = changes.get(d)
      return m === undefined ? d : { columns: d.columns.map((c, i) => m.get(i) ?? c), rowCount: d.rowCount }
    }
    this.txn++
    this.frozen = this.frozen.map(changed)
    this.current = changed(this.hot)
    return true
  }

  /**
   * Removes whole partitions: `drop` tells, by lower bound, which. Cold partitions leave without
   * being rewritten; in-memory rows of dropped partitions (`inMemory`: the partitions of the
   * in-memory rows) are filtered out. `soon`: see {@link TableStore.persistSoon}.
   */
  dropRanges(drop: (lo: number, hi: number) => boolean, inMemory: readonly { lo: number; hi: number; start: number; end: number }[], soon = false): void {
    this.quiesce()
    this.txn++
    const gone = this.cold.filter((p) => drop(p.lo, p.hi))
    const hot = this.data
    const dropHot = inMemory.filter((r) => drop(r.lo, r.hi))
    // `soon` (TTL, inside a commit): persisted by the background checkpoint, not here (TableStore.persistSoon)
    const apply = soon && this.store?.persistSoon !== undefined
      ? (change: () => void) => { change(); this.store!.persistSoon!(this) }
      : (change: () => void) => this.rewrite(false, change)
    apply(() => {
      for (const p of gone) p.retire()
      this.cold = this.cold.filter((p) => !gone.includes(p))
      if (dropHot.length === 0) return
      let count = 0
      for (const r of inMemory) if (!dropHot.includes(r)) count += r.end - r.start
      const order = new Int32Array(count)
      let n = 0
      for (const r of inMemory) if (!dropHot.includes(r)) for (let i = r.start; i < r.end; i++) order[n++] = i
      this.data = { columns: hot.columns.map((c) => c.permuted(order, count)), rowCount: count }
    })
  }

  /**
   * Applies a rewrite and persists it; on failure restores the rows, columns and partitions as
   * they were: the partitions the change or the rewrite retired (TRUNCATE, DROP PARTITION, DROP
   * COLUMN, a partition moved to memory) are the table's live partitions again, not retired.
   */
  private rewrite(full: boolean, change: () => void): void {
    this.quiesce()
    const data = this.data
    const cold = this.cold
    const meta = this.meta
    const undo = (): void => {
      this.data = data
      this.cold = cold
      this.setMeta(meta)
      for (const p of cold) p.unretire?.()
    }
    // refused midway (a part that cannot change), it is undone as a failed write is
    try { change() } catch (e) { undo(); throw e }
    if (this.store === undefined) return
    // a DDL statement persisting in the background persists it after its change (and undoes it on failure)
    if (this.store.deferRewrite?.(this, full, undo) === true) return
    try {
      this.store.persistRewrite(this, full)
    } catch (e) {
      undo()
      // the failure may have come after the new `_meta` was in place: write the rows as they are again
      try { this.store.persistRewrite(this, full) } catch { undo() /* the old `_meta` stands, or the next write repairs it */ }
      throw e
    }
  }

  /** Swaps cold partitions for equivalent ones (same rows, another file format: CONVERT PARTITION). @internal */
  replaceCold(cold: readonly ColdPart[]): void {
    this.quiesce()
    this.cold = cold
  }

  /** Cold partitions in order, with their bounds (SHOW PARTITIONS, DROP PARTITION, TTL). */
  coldParts(): readonly ColdPart[] {
    return this.cold
  }

  /**
   * Adds columns (all nulls for existing rows). The checkpointed partitions are left as they are:
   * they have no files for the new columns, whose values read as null there (their `_meta` entries
   * say so, see `PartitionEntry.files`); only the rows in memory get a column of nulls.
   */
  addColumns(metas: readonly ColumnMeta[]): void {
    this.quiesce()
    const d = this.data
    this.rewrite(false, () => {
      this.setMeta({ ...this.meta, columns: [...this.meta.columns, ...metas] })
      this.data = { columns: [...d.columns, ...metas.map((m) => ColumnBuffer.nulls(m.type, d.rowCount))], rowCount: d.rowCount }
    })
  }

  /**
   * Drops the columns at `indexes`. The checkpointed partitions are not rewritten (as in QuestDB,
   * which drops the column from its metadata and deletes the files): each leaves its files as
   * they are and its `_meta` entry stops naming the dropped ones ({@link ColdPart.withoutColumns});
   * only the rows in memory lose a column. A part that cannot do that makes it a full rewrite.
   */
  dropColumns(indexes: readonly number[]): void {
    this.quiesce()
    const gone = new Set(indexes)
    const light = this.cold.every((p) => p.withoutColumns !== undefined)
    const d = light ? this.data : this.materialized()
    const count = this.meta.columns.length
    this.rewrite(!light, () => {
      if (light) this.cold = this.cold.map((p) => p.withoutColumns!(gone, count))
      const ts = this.meta.timestampIndex
      this.setMeta({
        ...this.meta,
        columns: this.meta.columns.filter((_, j) => !gone.has(j)),
        timestampIndex: ts >= 0 ? ts - [...gone].filter((i) => i < ts).length : ts,
      })
      this.data = { columns: d.columns.filter((_, j) => !gone.has(j)), rowCount: d.rowCount }
    })
  }

  /** Removes every row. */
  truncate(): void {
    this.quiesce()
    this.txn++
    const d = this.data
    this.rewrite(false, () => {
      for (const p of this.cold) p.retire()
      this.cold = []
      this.data = { columns: this.meta.columns.map((c, i) => new ColumnBuffer(c.type, 1024, d.columns[i]!.dict)), rowCount: 0 }
    })
  }
}

/**
 * `segments` with the newest four joined into one while the oldest of them is at most twice the
 * newest (size-tiered, as LSM stores compact): afterwards every segment is more than twice the
 * one three places later, so a table holds O(log rows) segments, and a row is copied about
 * log4(rows / batch) times over all merges. Every fresh page of column memory costs (first touch),
 * so four at a time copies half as often as pairs would.
 */
function joinSmall(segments: TableData[]): TableData[] {
  while (segments.length >= 4 && segments[segments.length - 4]!.rowCount <= 2 * segments[segments.length - 1]!.rowCount) {
    const four = segments.splice(segments.length - 4, 4)
    let rows = 0
    for (const d of four) rows += d.rowCount
    segments.push({
      rowCount: rows,
      columns: four[0]!.columns.map((x, c) => {
        const out = new ColumnBuffer(x.type, rows, x.dict)
        for (const d of four) out.appendRange(d.columns[c]!.view(0, d.rowCount), 0, d.rowCount)
        return out
      }),
    })
  }
  return segments
}

function lastTimestamp(buf: ColumnBuffer, rowCount: number): number | bigint {
  return (buf.view(rowCount - 1, rowCount) as I64Vector).data[0]!
}
