/**
 * Durable storage of a data directory: the lock, the WAL, checkpoints, and partitions whose
 * columns load lazily under the memory budget ({@link PartCache}). The {@link Catalog} keeps the tables; every table created or loaded here gets
 * this store as its {@link TableStore}.
 *
 * Directory layout (see docs/storage.md): `_lock`, `_db` (msgpack `{ version, nextId, seq }`),
 * `wal.log`, `_trash/` (tables being created or dropped; emptied on open), and one directory
 * `<name>~<id>` per table, where `<name>` is a sanitised form of the table's name at creation
 * ({@link tableDirName}); the real name is in the table's `_meta`.
 */
import * as path from 'node:path'
import { SqlError, SqlState, internalError } from '../../errors.js'
import { timestampMicros } from '../../types/timestamp-ns.js'
import { type Vector, type I64Vector, type SymbolTable, allocate, concatVectors } from '../../types/vector.js'
import type { Catalog } from '../catalog.js'
import { ADOPT_MIN_ROWS, Table, type TableStore, concatAppends } from '../table.js'
import type { ColdPart } from '../table-parts.js'
import { type TableState, checkpointSteps, metaKey } from './checkpoint.js'
import { type Background, type Steps, type SyncWait, background, runSteps } from './steps.js'
import { io } from './io.js'
import { fsyncDir, fsyncDirSteps, replaceFileAtomic, replaceFileAtomicSteps } from './durable-steps.js'
import { DirLock } from './lock.js'
import { FORMAT_VERSION, type PartitionEntry, type TableFileMeta, columnFileBytes, corrupted, purgeDropped, readDictionaries, readTableMeta, removeDropped, removeUnreferenced, topsWithout, writeColumnSteps, writeDictionarySteps, writeTableMeta, writeTableMetaSteps } from './table-files.js'
import { trimCutParts } from './cut-trim.js'
import { FilePart, type PartSource } from './file-part.js'
import { convertParts } from './convert-parts.js'
import { loadSyncColumnReader } from '../../parquet/sync-column.js'
import { KEEP_FILE, ParquetKeep, addDirty, hasParquet } from './parquet-keep.js'
import { type StoreAccess, parquetBack } from './parquet-back.js'
import { PartCache } from './part-cache.js'
import { WAL_FILE, WalWriter, ioError } from './wal.js'
import { WalScratch, decodeAppend, encodeAppendRecords, packr, recordCount, rowsPerRecord } from './wal-codec.js'
import { isTableDirName, tableDirName } from '../names.js'
import { type UndoEntry, removeDdlUndo, restoreMetas, rollBackDdl, writeDdlUndo } from './ddl-undo.js'

/** The internal directory for tables being created (`new-<id>`) or dropped (`<id>`); never a table directory (no `~`). */
export const TRASH_DIR = '_trash'
/** Where the previous layout put a dropped table: `_dropped_<id>` in the data directory itself. */
const LEGACY_TRASH = /^_dropped_\d+$/

/** Options of durable storage. */
export interface StoreOptions {
  /** bytes of table data to keep in memory: loaded columns, and a reservation for the rows awaiting a checkpoint; beyond it loaded columns are evicted, least recently used first */
  readonly memoryBudget?: number
  /** WAL bytes after which the tables are checkpointed */
  readonly checkpointBytes?: number
  /** ms after the lock owner's last heartbeat when a lock whose owner cannot be proven dead is taken over (default 15 s) */
  readonly lockLease?: number
}

/** Default memory budget: 1 GiB. */
export const DEFAULT_MEMORY_BUDGET = 1 << 30
/** Default checkpoint threshold: 64 MiB of WAL. */
export const DEFAULT_CHECKPOINT_BYTES = 64 << 20
/**
 * Bytes a commit encodes and writes to the WAL, or applies to a table, per turn of the event loop,
 * about: its records are made this size (rather than wal-codec's 16 MiB) so that one is a step.
 */
export const STEP_BYTES = 4 << 20

/**
 * Appends waiting for the group sync that commits them, numbered in arrival order. Until the
 * group is written they are single appends (`first === last`); writing merges each run of
 * consecutive appends to one table into one entry with one WAL record.
 */
interface StagedAppend {
  readonly table: Table
  readonly vectors: readonly Vector[]
  readonly length: number
  /** the arrival numbers of the appends it holds */
  readonly first: number
  readonly last: number
  /** its WAL record's sequence number and offset, once written */
  seq: number
  at: number
}

/** Durable storage for one open data directory. */
export class DurableStore implements TableStore {
  private readonly states = new Map<Table, TableState>()
  private readonly metaKeys = new Map<Table, string>()
  private wal!: WalWriter
  private seq = 0
  /**
   * int64 words of the WAL records being written: released only when the WAL has no pending
   * bytes (every record encoded into it was written out; see {@link walSteps})
   */
  private readonly walScratch = new WalScratch(1 << 16, STEP_BYTES >> 1)
  private checkpointQueued = false
  /** appends waiting for the sync that commits them, in arrival (and WAL) order */
  private staged: StagedAppend[] = []
  /** how many of `staged` (a prefix) have their WAL record written */
  private written = 0
  /** appends ever staged (their arrival numbers are 1..arrived) */
  private arrived = 0
  /** every append up to this arrival number is applied, or dropped by a failed sync */
  private resolved = 0
  /** the running group sync, if any */
  private syncing: Promise<void> | undefined
  /** recent failed syncs: the arrival numbers they dropped */
  private readonly failures: { from: number; to: number; error: SqlError }[] = []
  private keepWal = false
  /** partitions dropped by TTL wait for a checkpoint ({@link persistSoon}) */
  private dropsPending = false
  /**
   * The checkpoint running in the background, one step per turn of the event loop (after a
   * commit took the WAL past {@link checkpointBytes}); `done` resolves when it has ended
   */
  private job: { readonly run: Background; readonly done: Promise<void> } | undefined
  /** ends when the DDL statements started so far have ended ({@link oneDdlAtATime}) */
  private ddlTurn: Promise<void> = Promise.resolve()
  /** an undo journal a failed statement could not remove (ddl-undo.ts): settled before the next write ({@link settleUndo}) */
  private undoLeft: readonly UndoEntry[] | undefined
  /** rewrites made by the change {@link persistDdl} runs, persisted by it afterwards */
  private deferred: DeferredRewrite[] | undefined
  /** a step of {@link job} is running (a change it makes itself does not wait for it) */
  private inStep = false
  /**
   * The group commit's current phase running in steps, one per turn of the event loop: writing the
   * staged appends' WAL records, or applying them to their tables once synced. `finish` runs
   * its remaining steps now ({@link quiesce}).
   */
  private commitJob: { readonly finish: () => void } | undefined
  /** a step of {@link commitJob} is running */
  private inCommitStep = false
  /** the `nextId` last written to `_db` */
  private savedNextId = -1
  /** loaded partition columns under the memory budget */
  readonly cache: PartCache
  private readonly checkpointBytes: number
  /** converts back to Parquet the partitions a checkpoint wrote as column files (parquet-keep.ts) */
  private readonly keep = new ParquetKeep((t) => this.catalog.all().includes(t), async (t, name) => { await parquetBack(t, name, this.access) },
    { read: () => this.readInternal(KEEP_FILE), write: (b) => this.writeInternal(KEEP_FILE, b) })
  /** what writing partitions back to Parquet needs of the store (parquet-back.ts) */
  private readonly access: StoreAccess = {
    state: (t) => this.states.get(t), quiesce: () => this.quiesce(), source: (t, s, f) => this.source(t, s, f), check: () => this.lock.check(),
  }

  private constructor(readonly root: string, private readonly catalog: Catalog, options: StoreOptions, private readonly lock: DirLock) {
    this.cache = new PartCache(options.memoryBudget ?? DEFAULT_MEMORY_BUDGET)
    this.checkpointBytes = options.checkpointBytes ?? DEFAULT_CHECKPOINT_BYTES
  }

  /**
   * Opens (creating) the data directory `dir`: lock, metadata, WAL replay, checkpoint. On a full
   * disk (or another write failure) the opening checkpoint is skipped: the replayed rows stay in
   * memory and in the WAL, reads work, and writes fail until space is freed.
   */
  static async open(dir: string, catalog: Catalog, options: StoreOptions = {}): Promise<DurableStore> {
    const root = path.resolve(dir)
    io.mkdirSync(root)
    const lock = await DirLock.acquire(root, { lease: options.lockLease })
    // partitions converted to Parquet read their columns through it (a loader that cannot load it
    // leaves tables without such partitions unaffected; reading one then fails with XX000)
    try { await loadSyncColumnReader() } catch { /* see above */ }
    const store = new DurableStore(root, catalog, options, lock)
    try {
      store.start()
    } catch (e) {
      try { store.wal?.close() } catch { /* closing after a failed open */ }
      lock.release()
      throw e
    }
    return store
  }

  private start(): void {
    const db = io.existsSync(`${this.root}/_db`) ? packr.unpack(io.readFileSync(`${this.root}/_db`)) as { nextId: number; seq: number } : { nextId: 1, seq: 0 }
    this.seq = db.seq
    this.catalog.reserveIds(db.nextId)
    // a statement that rewrote several tables and did not commit: each gets its `_meta` of before it back
    rollBackDdl(this.root)
    for (const e of io.readdirSync(this.root).sort()) {
      // leftovers of a drop or a failed create; the internal state lives apart from table directories
      if (e === TRASH_DIR || LEGACY_TRASH.test(e)) { io.rmSync(`${this.root}/${e}`); continue }
      if (!isTableDirName(e) || !io.existsSync(`${this.root}/${e}/_meta`)) continue
      this.adoptDir(`${this.root}/${e}`, e)
    }
    this.catalog.store = this
    const byId = new Map([...this.states].map(([t, s]) => [t.meta.id, { t, s }]))
    this.wal = WalWriter.open(`${this.root}/${WAL_FILE}`, (group) => this.replay(byId, group))
    // before the opening checkpoint, whose own notes are added to the list
    this.keep.recover((id) => byId.get(id)?.t)
    for (const [t, s] of this.states) this.keep.note(t, undefined, s.file)
    try { this.checkpoint() } catch (e) {
      // the replayed rows are in memory and still in the WAL: open without the checkpoint
      if (!isWriteFailure(e)) throw e
    }
  }

  private adoptDir(dir: string, entry: string): void {
    let file
    try { file = readTableMeta(dir) } catch (e) {
      // an unreadable _meta: the table cannot be named reliably; keep the directory, report it by directory name
      const name = entry.slice(0, entry.lastIndexOf('~'))
      const id = Number(entry.slice(entry.lastIndexOf('~') + 1))
      const t = new Table({ id, name, columns: [], timestampIndex: -1, partitionBy: 'NONE', wal: false, dedupKeys: [], ttl: undefined, maxUncommittedRows: 0, o3MaxLag: 0 }, this)
      this.states.set(t, { dir, file: { version: FORMAT_VERSION, meta: t.meta, walSeq: Infinity, txn: 0, partitions: [], symbols: {} }, dirtyFrom: Infinity, appliedSeq: 0, broken: corrupted(name, '_meta', 'table metadata is unreadable', e) })
      this.catalog.adopt(t)
      return
    }
    if (file.meta.ttl === null) file.meta = { ...file.meta, ttl: undefined }
    // nothing reads the rows after a cut part's end now: its files lose them
    try { file.partitions = trimCutParts(dir, file) } catch { /* best effort: tried again on the next open */ }
    const state: TableState = { dir, file, dirtyFrom: Infinity, appliedSeq: file.walSeq, broken: undefined }
    const t: Table = new Table(structuredClone(file.meta), this, [])
    const src = this.source(t, state, file)
    t.settle(file.partitions.map((p) => new FilePart(p, src)))
    this.states.set(t, state)
    this.metaKeys.set(t, metaKey(t))
    this.catalog.adopt(t)
    try { removeUnreferenced(dir, file) } catch { /* best effort */ }
    try { purgeDropped(dir, file) } catch { /* best effort: unread, tried again on the next open */ }
  }

  /** Applies one WAL group (one append, in one or more records) to its table, unless a checkpoint holds it already. */
  private replay(byId: ReadonlyMap<number, { t: Table; s: TableState }>, group: readonly Uint8Array[]): void {
    const head = packr.unpack(group[0]!) as { s: number; t: number }
    this.seq = Math.max(this.seq, head.s)
    const e = byId.get(head.t)
    if (e === undefined || head.s <= e.s.file.walSeq || e.s.broken !== undefined) return
    try {
      const types = e.t.meta.columns.map((c) => c.type)
      const parts = group.map((p) => decodeAppend(p, types))
      const length = parts.reduce((n, r) => n + r.length, 0)
      const vectors = parts.length === 1 ? parts[0]!.vectors : types.map((type, c) => concatVectors(type, parts.map((r) => r.vectors[c]!)))
      e.t.appendUnlogged(vectors, length)
      this.markDirty(e.s, e.t, vectors, length, head.s)
    } catch (err) {
      e.s.broken ??= err instanceof Error ? err : new Error(String(err))
      this.keepWal = true
    }
  }

  /** {@inheritDoc TableStore.dictionaries} */
  dictionaries(table: Table): readonly (SymbolTable | undefined)[] {
    const s = this.stateOf(table)
    if (s.broken !== undefined) throw s.broken
    try { return readDictionaries(s.dir, s.file) } catch (e) {
      s.broken = e instanceof SqlError ? e : corrupted(table.meta.name, '-', String(e), e)
      throw s.broken
    }
  }

  /** How the partitions of `file` (written for `t`) read their column files. */
  private source(t: Table, s: TableState, file: TableFileMeta): PartSource {
    return {
      tableDir: s.dir,
      get tableName() { return t.meta.name },
      columns: file.meta.columns.map((c) => ({ name: c.name, type: c.type })),
      tableColumn: (c) => t.meta.columns[c],
      timestampIndex: file.meta.timestampIndex,
      cache: this.cache,
      dict: (c) => t.dictOf(c),
      fail: (e) => (s.broken ??= e instanceof SqlError ? e : corrupted(t.meta.name, '?', String(e), e)),
    }
  }

  /** {@inheritDoc TableStore.logAppend} */
  logAppend(table: Table, vectors: readonly Vector[], length: number): void {
    this.lock.check()
    const s = this.stateOf(table)
    if (s.broken !== undefined) throw s.broken
    const n = ++this.arrived
    this.staged.push({ table, vectors, length, first: n, last: n, seq: 0, at: 0 })
  }

  /** True while some appends wait for their sync. */
  get uncommitted(): boolean {
    return this.staged.length > 0
  }

  /** How many appends were ever staged: the arrival number of the latest ({@link commit} takes it to wait for every append up to it). */
  get arrivals(): number {
    return this.arrived
  }

  /**
   * Group commit: resolves once every append staged so far (or, given `target`, every append up
   * to that arrival number, see {@link arrivals}) is durable and applied to its table.
   * Appends staged while a sync is running wait for it, then share the next one, so concurrent
   * writers pay one sync per group instead of one each; a group's appends to one table share one
   * WAL record. Rejects with 58030 when the write or sync failed: those appends are dropped from
   * the WAL and never applied.
   */
  async commit(target = this.arrived): Promise<void> {
    while (this.resolved < target) {
      // no WAL record is written while a background checkpoint runs: its end empties the WAL
      if (this.job !== undefined && this.syncing === undefined) { await this.job.done; continue }
      this.syncing ??= this.syncStaged().finally(() => { this.syncing = undefined })
      await this.syncing
    }
    const failed = this.failures.find((f) => f.from <= target && target <= f.to)
    if (failed !== undefined) throw failed.error
  }

  /** {@link DurableStore.commit}, blocking: before checkpoints and rewrites, which need every append applied. */
  commitSync(): void {
    this.quiesce()
    if (this.staged.length === 0) return
    const upto = this.arrived
    const failed = runSteps(this.walSteps())
    if (failed !== undefined) throw failed
    try {
      this.wal.syncNow()
    } catch (e) {
      throw this.dropStaged(e)
    }
    runSteps(this.applySteps(upto))
  }

  /**
   * One group commit: the staged appends' WAL records are written, synced off the main thread,
   * then applied. Writing and applying run in steps, one per turn of the event loop (see
   * {@link stepped}), so a large append does not hold the loop for the whole batch: queries are
   * answered meanwhile and see the batch only once it is applied whole.
   */
  private async syncStaged(): Promise<void> {
    if (this.staged.length === 0) { this.resolved = this.arrived; return }
    const upto = this.arrived
    if (await this.stepped(this.walSteps()) !== undefined) return
    try {
      await this.wal.sync()
    } catch (e) {
      this.dropStaged(e)
      return
    }
    await this.stepped(this.applySteps(upto))
  }

  /**
   * Runs `steps` one per turn of the event loop (the first now) as the {@link commitJob};
   * resolves to what they return. {@link quiesce} runs the remaining steps at once when something
   * needs the commit finished now (DDL, UPDATE, a checkpoint, close).
   */
  private stepped<T>(steps: Steps<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let ended = false
      const run = (all: boolean): void => {
        if (ended) return
        this.inCommitStep = true
        let r: IteratorResult<SyncWait | void, T>
        try {
          // (these steps yield no file to sync)
          do r = steps.next(); while (all && r.done !== true)
        } catch (e) {
          ended = true
          reject(e)
          return
        } finally {
          this.inCommitStep = false
          if (ended && this.commitJob === job) this.commitJob = undefined
        }
        if (r.done === true) {
          ended = true
          if (this.commitJob === job) this.commitJob = undefined
          resolve(r.value)
          return
        }
        setImmediate(() => run(false))
      }
      const job = { finish: () => run(true) }
      this.commitJob = job
      run(false)
    })
  }

  /**
   * Writes the WAL records of the staged appends not written yet, in steps of about
   * {@link STEP_BYTES} (a record encoded, checksummed and written per step): each run of
   * consecutive appends to one table (of fewer than `ADOPT_MIN_ROWS` rows each; larger ones stay
   * apart) becomes one append with one group of records (an
   * out-of-order group then also merges into its table once, not once per row). On failure
   * (58030, 53100, 54000) every staged append is dropped, the WAL cut back to where this write
   * started, and the error returned.
   */
  private *walSteps(): Steps<SqlError | undefined> {
    if (this.written === this.staged.length) return undefined
    const from = this.wal.size
    try {
      this.lock.check()
      const fresh = this.staged.slice(this.written)
      const merged: StagedAppend[] = []
      for (let i = 0; i < fresh.length;) {
        const table = fresh[i]!.table
        let j = i + 1
        // a large append stays alone: in order it is adopted as it is (table.ts), and out of order it
        // merges into rows that include the one before it without a copy of both first (two
        // interleaved ILP streams: the concatenation was one more copy of every row)
        if (fresh[i]!.length < ADOPT_MIN_ROWS) while (j < fresh.length && fresh[j]!.table === table && fresh[j]!.length < ADOPT_MIN_ROWS) j++
        // one table's appends in a group all have its current columns: DDL commits the group first
        const run = fresh.slice(i, j)
        merged.push(run.length === 1 ? run[0]! : { ...concatAppends(table, run), first: run[0]!.first, last: run[run.length - 1]!.last, seq: 0, at: 0 })
        i = j
      }
      // appends staged meanwhile go after these (and into the next group commit)
      this.staged.splice(this.written, fresh.length, ...merged)
      for (const w of merged) {
        const types = w.table.meta.columns.map((c) => c.type)
        const perRecord = rowsPerRecord(types, STEP_BYTES)
        const count = recordCount(w.length, perRecord)
        w.seq = ++this.seq
        // a group of several records starts on a turn of its own (not after whatever staged it)
        if (count > 1) {
          yield
          this.lock.check()
        }
        let i = 0
        // the WAL holds records' pieces by reference until it writes them: the words' arena is
        // reused only once nothing is pending (a flush or a sync wrote, or a failure dropped, them all)
        if (this.wal.pendingBytes === 0) this.walScratch.release()
        for (const record of encodeAppendRecords(w.seq, w.table.meta.id, types, w.vectors, w.length, perRecord, this.walScratch)) {
          const at = this.wal.add(record, ++i < count)
          if (i === 1) w.at = at
          if (this.wal.pendingBytes >= STEP_BYTES) {
            this.wal.flush()
            this.walScratch.release()
            yield
            this.lock.check()
          }
        }
        this.written++
      }
    } catch (e) {
      // a group cut short must not stay in the log (its records would join the next group's)
      this.wal.truncate(Math.min(from, this.wal.size))
      return this.dropStaged(e)
    }
    return undefined
  }

  /**
   * Applies the written appends that arrived up to `upto` (their sync succeeded), in WAL order; a
   * large one in slices (see {@link Table.applyAppendSteps}), visible to readers when whole.
   */
  private *applySteps(upto: number): Steps<void> {
    let k = 0
    while (k < this.written && this.staged[k]!.last <= upto) k++
    // one splice, not a shift per append: shifting a long array is linear each time
    const done = this.staged.splice(0, k)
    this.written -= k
    for (const w of done) {
      yield* w.table.applyAppendSteps(w.vectors, w.length, rowsPerRecord(w.table.meta.columns.map((c) => c.type), STEP_BYTES))
      this.markDirty(this.stateOf(w.table), w.table, w.vectors, w.length, w.seq)
    }
    this.resolved = Math.max(this.resolved, upto)
    if (!this.checkpointQueued && this.wal.size >= this.checkpointBytes) {
      this.checkpointQueued = true
      queueMicrotask(() => this.afterCommit())
    }
  }

  /** A write or sync failed: every staged append is cut from the WAL and dropped; their commits reject. */
  private dropStaged(cause: unknown): SqlError {
    const error = cause instanceof SqlError ? cause : ioError('write-ahead log sync failed, nothing was committed', cause)
    const first = this.staged[0]
    if (first !== undefined) {
      this.wal.truncate(this.written > 0 ? first.at : this.wal.size)
      this.failures.push({ from: first.first, to: this.arrived, error })
      if (this.failures.length > 16) this.failures.shift()
    }
    this.staged = []
    this.written = 0
    this.resolved = this.arrived
    return error
  }

  /**
   * {@inheritDoc TableStore.deferRewrite}
   *
   * True while {@link persistDdl} runs a statement's change: the rewrite is persisted by it, after
   * the change, with its syncs off the main thread.
   */
  deferRewrite(table: Table, full: boolean, undo: () => void): boolean {
    if (this.deferred === undefined) return false
    this.deferred.push({ table, full, undo })
    return true
  }

  /**
   * Runs a DDL statement's change `change` (in memory, at once) and persists it as {@link sync}
   * does, but in the background: a step per turn of the event loop, every file sync on the thread
   * pool, so queries are answered while the files sync (they see the change already: the table
   * is changed in memory first, as a blocking DDL left it). Resolves once the change is durable.
   * On failure the table rewrites the change made ({@link deferRewrite}) are undone (rows and
   * partitions as before), and it rejects: the caller puts the catalog back and calls {@link sync}
   * (which makes the files match it again). Nothing else may change the tables it changes
   * meanwhile (the caller holds their write locks alone); anything that must change a table
   * first finishes the remaining steps at once ({@link quiesce}), as for a background checkpoint.
   */
  async persistDdl(change: () => void, flushFirst: readonly Table[] = []): Promise<void> {
    this.commitSync()
    // rows in memory of `flushFirst` (ADD COLUMN's table) go to their partitions before the change, as QuestDB
    // commits them first: the column added then starts after them (its column top), with no null written
    const dirty = flushFirst.filter((t) => { const s = this.states.get(t); return s !== undefined && s.broken === undefined && s.dirtyFrom !== Infinity })
    if (dirty.length > 0) await this.runJob(this.flushSteps(dirty))
    const deferred: DeferredRewrite[] = []
    this.deferred = deferred
    try { change() } catch (e) { this.deferred = undefined; for (const d of deferred.reverse()) d.undo(); throw e }
    this.deferred = undefined
    const full = new Map<Table, boolean>()
    for (const d of deferred) full.set(d.table, full.get(d.table) === true || d.full)
    const persisted = new Set<Table>()
    // several tables rewritten (TRUNCATE a, b): all or none, through an undo journal (ddl-undo.ts)
    let undo: AtomicUndo | undefined
    try {
      if (full.size > 1) undo = this.beginAtomic([...full.keys()])
      await this.runJob(this.syncSteps(full, persisted, undo !== undefined))
      if (undo !== undefined) this.commitAtomic(undo)
    } catch (e) {
      if (undo !== undefined) {
        this.rollBackAtomic(undo, persisted)
        for (const d of deferred.reverse()) d.undo()
      } else {
        for (const d of deferred.reverse()) if (!persisted.has(d.table)) d.undo()
      }
      throw e instanceof SqlError ? e : ioError('storage write failed', e)
    }
  }

  /**
   * Writes the undo journal of a statement rewriting `tables` (each one's `_meta` as it is on disk)
   * and remembers their states, to put back if the statement fails.
   */
  private beginAtomic(tables: readonly Table[]): AtomicUndo {
    const states = tables.map((t) => { const s = this.stateOf(t); return { t, s, before: { ...s } } })
    const entries: UndoEntry[] = states.map(({ s }) => ({ dir: path.basename(s.dir), meta: io.readFileSync(`${s.dir}/_meta`) }))
    try {
      this.write(() => { writeDdlUndo(this.root, entries) })
    } catch (e) {
      // it may be on disk all the same (a failed sync after its rename): gone before anything else is
      // written. No `_meta` was rewritten yet, so only the journal goes; if even that fails, the next
      // write settles it first (settleUndo)
      try { removeDdlUndo(this.root) } catch { this.undoLeft = entries }
      throw e
    }
    return { states, entries }
  }

  /**
   * An undo journal a failure left (its tables' `_meta` may not be the journal's yet): before any
   * other write, the tables get the journal's `_meta` and the journal goes, or the write fails, so
   * nothing is written that a crash would then roll back.
   */
  private settleUndo(): void {
    const left = this.undoLeft
    if (left === undefined) return
    try {
      restoreMetas(this.root, left)
      removeDdlUndo(this.root)
    } catch (e) {
      throw e instanceof SqlError ? e : ioError('storage write failed', e)
    }
    this.undoLeft = undefined
  }

  /** Commits: the journal removed, then what the old `_meta` of each table named and the new does not. */
  private commitAtomic(undo: AtomicUndo): void {
    this.write(() => { removeDdlUndo(this.root) })
    for (const { s, before } of undo.states) {
      try { removeUnreferenced(s.dir, s.file, true) } catch { /* leftovers are removed on the next open */ }
      try { removeDropped(s.dir, before.file, s.file, true) } catch { /* leftovers are removed on the next open */ }
    }
  }

  /**
   * After a failure: the tables whose new `_meta` was written (`persisted`) get the old one back and
   * their states as before; then the journal goes. When this fails too, the journal stays and the
   * next open puts the old `_meta` back.
   */
  private rollBackAtomic(undo: AtomicUndo, persisted: ReadonlySet<Table>): void {
    for (const { t, s, before } of undo.states) {
      if (!persisted.has(t)) continue
      Object.assign(s, before)
      this.metaKeys.set(t, metaKey(t))
    }
    this.undoLeft = undo.entries
    // when this fails the journal stays: tried again before the next write, or the next open puts the old `_meta` back
    try { this.settleUndo() } catch { /* see above */ }
    for (const { t, s } of undo.states) {
      if (persisted.has(t)) try { removeUnreferenced(s.dir, s.file, true) } catch { /* the next open removes them */ }
    }
  }

  /**
   * Runs `f` (a DDL statement: its catalog savepoint, change and {@link persistDdl}) after the
   * DDL statements that came before it have ended: one persists at a time, so none undoes its
   * change over another's.
   */
  async oneDdlAtATime<T>(f: () => Promise<T>): Promise<T> {
    const before = this.ddlTurn
    let end!: () => void
    this.ddlTurn = new Promise<void>((r) => { end = r })
    try {
      await before
      return await f()
    } finally {
      end()
    }
  }

  /** Steps checkpointing tables `tables` (their rows in memory written as they are: {@link flush}). */
  private *flushSteps(tables: readonly Table[]): Steps<void> {
    for (const t of tables) {
      const s = this.stateOf(t)
      if (s.broken === undefined && s.dirtyFrom !== Infinity) yield* this.checkpointChangedSteps(t, s, false)
    }
  }

  /**
   * Runs `steps` as the store's {@link job} (after the one running, if any): a step per turn of the
   * event loop (the first now), syncs on the thread pool; commits wait for it, and {@link quiesce}
   * runs its remaining steps at once. Resolves when they end; rejects with what they threw.
   */
  private async runJob(steps: Steps<void>): Promise<void> {
    while (this.job !== undefined) await this.job.done
    let end!: () => void
    const done = new Promise<void>((r) => { end = r })
    let outcome!: { error: unknown }
    const around = (run: () => void): void => {
      this.inStep = true
      try { run() } finally { this.inStep = false }
    }
    const job = { run: undefined as unknown as Background, done }
    this.job = job
    job.run = background(steps, around, (error) => { outcome = { error }; if (this.job === job) this.job = undefined; end() }, true)
    await done
    if (outcome.error !== undefined) throw outcome.error
  }

  /** {@inheritDoc TableStore.persistRewrite} */
  persistRewrite(table: Table, full: boolean): void {
    this.commitSync()
    const s = this.stateOf(table)
    s.appliedSeq = this.seq
    this.checkpointChanged(table, s, full)
  }

  /** {@inheritDoc TableStore.flush} */
  flush(table: Table): void {
    this.commitSync()
    const s = this.stateOf(table)
    if (s.broken !== undefined) throw s.broken
    if (s.dirtyFrom !== Infinity) this.checkpointChanged(table, s, false)
  }

  /**
   * {@inheritDoc TableStore.updateColumns}
   *
   * Each changed column of a partition is written as new files `<column>.u<txn>` in the
   * partition's directory (the partition's entry then names them: `PartitionEntry.files`), in
   * steps, their syncs on the thread pool; then `_meta` is replaced (the commit point; a crash
   * before it leaves the previous `_meta`, naming the files as they were, and new files no entry
   * names, which a later UPDATE of the same txn writes over); then the replaced files leave the
   * directory (`dropped`, as DROP COLUMN's). A failure before the commit point leaves the table as
   * it was.
   */
  async updateColumns(t: Table, changes: ReadonlyMap<ColdPart, ReadonlyMap<number, Vector>>): Promise<void> {
    const s = this.stateOf(t)
    if (s.broken !== undefined) throw s.broken
    const before = s.file
    const txn = before.txn + 1
    const cols = t.meta.columns
    const next = new Map<FilePart, { entry: PartitionEntry; changed: ReadonlyMap<number, Vector>; replaced: string[] }>()
    const store = this
    function* steps(): Steps<TableFileMeta> {
      for (const [part, changed] of changes) {
        const p = part as FilePart
        const e = p.entryFor(cols)
        const files = [...(e.files ?? cols.map((c) => c.name))]
        const path = `${s.dir}/${e.dir}`
        const replaced: string[] = []
        let bytes = e.bytes
        // a column past the files' end (added later) has none: those before it that UPDATE does not change get
        // an empty file whose column top is every row (files are named by index, without gaps; no null is written)
        const last = Math.max(...changed.keys())
        const topped: number[] = []
        for (let c = files.length; c < last; c++) if (!changed.has(c)) topped.push(c)
        const newTops: Record<string, number> = {}
        for (const c of [...changed.keys(), ...topped].sort((a, b) => a - b)) {
          const name = `${cols[c]!.name}.u${txn}`
          if (c < files.length) {
            replaced.push(files[c]!)
            bytes -= columnFileBytes(path, files[c]!)
          }
          files[c] = name
          const v = changed.get(c)
          if (v === undefined) newTops[name] = p.rows
          bytes += yield* writeColumnSteps(path, name, cols[c]!.type, v ?? allocate(cols[c]!.type, 0, t.dictOf(c)))
          yield
        }
        const { files: _f, tops: had, ...rest } = e
        // a replaced file's column top goes with it (the new files hold every row)
        const tops = { ...topsWithout(had, replaced), ...newTops }
        next.set(p, { entry: { ...rest, bytes: Math.max(0, bytes), files, dropped: [...new Set([...(e.dropped ?? []), ...replaced])], ...(Object.keys(tops).length === 0 ? {} : { tops }) }, changed, replaced })
      }
      // every column file written above is durable before the dictionaries and `_meta`
      yield { drain: true }
      const symbols = { ...before.symbols }
      const touched = new Set([...changes.values()].flatMap((m) => [...m.keys()]))
      for (const c of touched) {
        const col = cols[c]!
        const dict = t.dictOf(c)
        if (col.type !== 'SYMBOL' || dict === undefined) continue
        const file = `${col.name}.${txn}.sym`
        yield* writeDictionarySteps(s.dir, file, dict)
        symbols[col.name] = file
      }
      const byPart = new Map([...next].map(([p, x]) => [p.entry, x.entry]))
      if (![...byPart.keys()].every((e) => before.partitions.includes(e))) throw internalError('UPDATE: a changed partition is not in _meta')
      const file: TableFileMeta = { ...before, txn, partitions: before.partitions.map((e) => byPart.get(e) ?? e), symbols }
      store.lock.check()
      yield* writeTableMetaSteps(s.dir, file)
      return file
    }
    let file: TableFileMeta
    try {
      file = await this.inBackground(this.writeSteps(steps()))
    } catch (e) {
      // the new `_meta` may be in place (a failed directory sync): the previous one is written again, as the answer says
      // (the files it names were left as they were); should that fail too, the next sync writes it from the table
      try {
        const again = { ...before, txn }
        this.write(() => writeTableMeta(s.dir, again))
        s.file = again
      } catch {
        this.metaKeys.delete(t)
      }
      throw e
    }
    s.file = file
    const src = this.source(t, s, file)
    t.replaceCold(t.coldParts().map((p) => {
      const x = next.get(p as FilePart)
      return x === undefined ? p : (p as FilePart).withColumns(x.entry, src, x.changed, x.replaced)
    }))
    try { removeUnreferenced(s.dir, file, true) } catch { /* leftovers are removed on the next open */ }
    try { removeDropped(s.dir, before, file, true) } catch { /* leftovers are removed on the next open */ }
  }

  /** Runs `steps` in the background (steps.ts: a step per turn of the loop, syncs on the thread pool); resolves to what they return. */
  private inBackground<T>(steps: Steps<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let value: T
      const all = (function* () { value = yield* steps })()
      background(all, (run) => run(), (e) => { if (e === undefined) resolve(value); else reject(e) }, true)
    })
  }

  /** {@inheritDoc TableStore.persistSoon} */
  persistSoon(table: Table): void {
    const s = this.stateOf(table)
    // every in-memory row and the shorter partition list are written by the next checkpoint
    s.dirtyFrom = -Infinity
    this.dropsPending = true
    if (!this.checkpointQueued) {
      this.checkpointQueued = true
      queueMicrotask(() => this.afterCommit())
    }
  }

  /**
   * Checkpoints a table after a change of its rows or metadata. On failure its `_meta` may or
   * may not have been replaced, so the table is marked for a rewrite at the next {@link sync}
   * (which a failed DDL statement runs right after undoing its change in the catalog).
   */
  private checkpointChanged(t: Table, s: TableState, full: boolean): void {
    runSteps(this.checkpointChangedSteps(t, s, full))
  }

  /** {@link checkpointChanged} in steps (its syncs yielded: see steps.ts). */
  private *checkpointChangedSteps(t: Table, s: TableState, full: boolean, keepOld = false): Steps<void> {
    const before = s.file
    try {
      // the directories it replaced are removed on the thread pool: unlinking a large partition's files takes long
      yield* this.writeSteps(checkpointSteps(s, t, full, (f) => this.source(t, s, f), true, keepOld))
    } catch (e) {
      this.metaKeys.delete(t)
      throw e
    } finally {
      this.keep.note(t, before, s.file)
    }
    this.metaKeys.set(t, metaKey(t))
  }

  /**
   * ALTER TABLE ... CONVERT PARTITION: rewrites the partitions `choose` picks (after a checkpoint,
   * so every row is in a partition) as one Parquet file each, or back to column files, in new
   * directories; then replaces `_meta` (the commit point) and removes the old directories.
   * Partitions already in the target format are left alone. Resolves to the number converted.
   */
  async convertPartitions(t: Table, choose: (entries: readonly PartitionEntry[]) => ReadonlySet<PartitionEntry>, to: 'parquet' | 'native'): Promise<number> {
    this.commitSync()
    const s = this.stateOf(t)
    if (s.broken !== undefined) throw s.broken
    if (s.dirtyFrom !== Infinity) this.checkpointChanged(t, s, false)
    await loadSyncColumnReader()
    const done = await this.writeAsync(() => convertParts(s, t, choose, to))
    if (done === undefined) return 0
    s.file = done.file
    const src = this.source(t, s, done.file)
    const cold: FilePart[] = []
    for (const p of t.coldParts() as readonly FilePart[]) {
      const e = done.replaced.get(p)
      if (e === undefined) { cold.push(p); continue }
      p.retire()
      // (null: a later part of a cut partition, now in its first part's new entry)
      if (e !== null) cold.push(new FilePart(e, src))
    }
    t.replaceCold(cold)
    try { removeUnreferenced(s.dir, s.file) } catch { /* leftovers are removed on the next open */ }
    let n = 0
    for (const e of done.replaced.values()) if (e !== null) n++
    return n
  }

  /**
   * Checkpoints now and waits until the partitions the checkpoints wrote as column files that
   * were Parquet are Parquet again (`Database.close`, before {@link close}: its own checkpoint
   * then has nothing to write). Write failures are left to {@link close}.
   */
  async settleParquet(): Promise<void> {
    if (this.lock.lost !== undefined) return
    try { this.checkpoint() } catch (e) { if (!isWriteFailure(e)) throw e }
    await this.keep.idle()
  }

  /** {@link DurableStore.write} for an async step. */
  private async writeAsync<T>(f: () => Promise<T>): Promise<T> {
    this.lock.check()
    try { return await f() } catch (e) { throw e instanceof SqlError ? e : ioError('storage write failed', e) }
  }

  /** {@inheritDoc TableStore.partitionBytes} */
  partitionBytes(table: Table, name: string): number {
    // a partition an out-of-order merge cut is in several parts
    let n = 0
    for (const x of this.states.get(table)?.file.partitions ?? []) if (x.name === name) n += x.bytes
    return n
  }

  /** {@inheritDoc TableStore.partitionFormat} */
  partitionFormat(table: Table, name: string): 'parquet' | undefined {
    return this.states.get(table)?.file.partitions.find((x) => x.name === name)?.format
  }

  /**
   * After DDL: creates, rewrites or removes table directories to match the catalog. Throws
   * (58030, or 53100 when the disk is full) when a write fails; what it changed for the tables
   * it had done is then either kept whole (a table's `_meta` replaced) or undone (dropped
   * directories moved back). A caller that undoes the catalog change calls it again to make
   * the files match the catalog (see `Database`).
   */
  sync(): void {
    this.commitSync()
    runSteps(this.syncSteps(new Map()))
  }

  /**
   * {@link sync} in steps (their syncs yielded). `rewritten`: tables a statement rewrote
   * ({@link deferRewrite}), each written whether its metadata changed or not, whole when `true`;
   * `persisted` gets those whose rewrite is durable.
   */
  private *syncSteps(rewritten: ReadonlyMap<Table, boolean>, persisted = new Set<Table>(), keepOld = false): Steps<void> {
    const live = new Set(this.catalog.all())
    for (const t of live) {
      const s = this.states.get(t) ?? (yield* this.createDirSteps(t))
      if (s.broken !== undefined) continue
      const full = rewritten.get(t)
      if (full !== undefined) {
        // the rows as they are now replace what the log holds (as persistRewrite)
        s.appliedSeq = this.seq
        yield* this.checkpointChangedSteps(t, s, full, keepOld)
        persisted.add(t)
        continue
      }
      const key = metaKey(t)
      if (this.metaKeys.get(t) === key) continue
      // a column renamed or added keeps every partition as it is (their `_meta` entries name their files:
      // PartitionEntry.files); any other change of the columns rewrites them all
      yield* this.checkpointChangedSteps(t, s, !columnsKept(s.file.meta.columns, t.meta.columns))
    }
    yield* this.dropDeadSteps(live)
    if (this.catalog.idCounter !== this.savedNextId) yield* this.writeSteps(this.writeDbSteps())
  }

  /**
   * Steps removing the directories of tables no longer in the catalog: all of them move to `_trash`
   * (one rename each; the data directory's sync yielded) or, when one move fails, those already moved move back and nothing is
   * dropped. Deleting the trash afterwards is best effort, off the main thread: the next open empties it.
   */
  private *dropDeadSteps(live: ReadonlySet<Table>): Steps<void> {
    const dead = [...this.states].filter(([t]) => !live.has(t))
    if (dead.length === 0) return
    const trash = `${this.root}/${TRASH_DIR}`
    const moved: { from: string; to: string }[] = []
    try {
      this.lock.check()
      io.mkdirSync(trash)
      for (const [t, s] of dead) {
        const to = `${trash}/${t.meta.id}`
        io.rmSync(to)
        io.renameSync(s.dir, to)
        moved.push({ from: s.dir, to })
      }
      yield* fsyncDirSteps(this.root)
    } catch (e) {
      for (const m of moved.reverse()) try { io.renameSync(m.to, m.from) } catch { /* the next open finds it in the trash */ }
      try { fsyncDir(this.root) } catch { /* best effort */ }
      throw e instanceof SqlError ? e : ioError('storage write failed', e)
    }
    for (const [t] of dead) {
      this.states.delete(t)
      this.metaKeys.delete(t)
      this.cache.reserve(t, 0)
    }
    // on the thread pool (a large table's files take long to unlink); what is left is emptied on the next open
    for (const m of moved) void io.rmLater(m.to)
  }

  /** Checkpoints every table with unapplied rows, then empties the WAL. */
  checkpoint(): void {
    this.commitSync()
    runSteps(this.checkpointAll())
  }

  /**
   * {@link checkpoint} in steps (a column file each, see checkpoint.ts): the tables dirty when it
   * starts, then `_db`, then the WAL emptied — unless something was written to it meanwhile.
   * `inBackground`: files no longer referenced are removed on the thread pool.
   */
  private *checkpointAll(inBackground = false): Steps<void> {
    // an unreadable table with rows not checkpointed keeps the WAL: they are nowhere else
    let keep = this.keepWal
    const walSize = this.wal.size
    const dirty = [...this.states].filter(([, s]) => s.dirtyFrom !== Infinity)
    for (const [t, s] of dirty) {
      if (s.broken !== undefined) { keep = true; continue }
      const before = s.file
      try {
        yield* this.writeSteps(checkpointSteps(s, t, false, (f) => this.source(t, s, f), inBackground))
        this.keep.note(t, before, s.file)
      } catch (e) {
        // a damaged partition the checkpoint had to read or extend: the table becomes unreadable, the others go on
        if (!(e instanceof SqlError) || e.code !== SqlState.DATA_CORRUPTED) throw e
        s.broken ??= e
        keep = true
      }
      yield
    }
    // `_db` (the sequence) is durable before the WAL is emptied: its syncs, and the WAL's, off the main thread
    yield* this.writeSteps(this.writeDbSteps())
    if (!keep && this.wal.size > 0 && this.wal.size === walSize) yield* this.writeSteps(this.wal.resetSteps())
  }

  /** Each step of `steps` as a {@link write}. */
  private *writeSteps<T>(steps: Steps<T>): Steps<T> {
    this.settleUndo()
    // a failed sync of a file a step yielded goes back into the steps that wrote it
    let failed: { readonly e: unknown } | undefined
    for (;;) {
      this.lock.check()
      let r: IteratorResult<SyncWait | void, T>
      try { r = failed === undefined ? steps.next() : steps.throw(failed.e) } catch (e) { throw e instanceof SqlError ? e : ioError('storage write failed', e) }
      failed = undefined
      if (r.done === true) return r.value
      try { yield r.value } catch (e) { failed = { e } }
    }
  }

  /**
   * Finishes the background checkpoint now, if one is running: before anything changes a
   * table's rows or metadata, or writes the WAL, so the checkpoint writes the state it started
   * from (its steps never interleave with a change). Called by tables ({@link TableStore.quiesce})
   * and before every synchronous write here. A failure ends it as in the background: the WAL still
   * holds every row, the next checkpoint retries.
   */
  quiesce(): void {
    // a commit in steps first: its appends are applied before anything else changes a table
    if (this.commitJob !== undefined && !this.inCommitStep) this.commitJob.finish()
    const job = this.job
    if (job === undefined || this.inStep) return
    job.run.finish()
  }

  /**
   * Starts the background checkpoint (unless one runs): its first step on the next turn of the
   * loop, a step per turn, the syncs of the files it writes off the main thread (see steps.ts).
   */
  private startCheckpoint(): void {
    if (this.job !== undefined) return
    let end!: () => void
    const done = new Promise<void>((r) => { end = r })
    const around = (run: () => void): void => {
      this.inStep = true
      try { run() } finally { this.inStep = false }
    }
    // a failure ends it: see quiesce
    const run = background(this.checkpointAll(true), around, () => { if (this.job === job) this.job = undefined; end() })
    const job = { run, done }
    this.job = job
  }

  /**
   * Checkpoints and releases the directory. A checkpoint that fails for want of space (or any
   * write failure) is skipped: every acknowledged row is in the WAL and is replayed on the next
   * open, so closing on a full disk is clean. A lost lock skips it too (the directory is no
   * longer ours).
   */
  close(): void {
    try {
      if (this.lock.lost === undefined) this.checkpoint()
    } catch (e) {
      if (!isWriteFailure(e)) throw e
    } finally {
      // a background checkpoint the lost lock stopped is dropped: the WAL holds its rows
      this.job?.run.stop()
      try { this.wal.close() } catch { /* closing anyway */ }
      this.lock.release()
    }
  }

  private afterCommit(): void {
    this.checkpointQueued = false
    // not under a running UPDATE: a checkpoint would swap the rows it read; the next commit tries again
    if (this.catalog.all().some((t) => t.writers.heldAlone)) return
    // in the background, in steps: queries are answered while it writes (commits wait for it);
    // a failure leaves every acknowledged row in the WAL, and the next checkpoint retries
    if (this.wal.size >= this.checkpointBytes || this.dropsPending) {
      this.dropsPending = false
      this.startCheckpoint()
    }
  }

  private markDirty(s: TableState, t: Table, vectors: readonly Vector[], length: number, seq: number): void {
    s.appliedSeq = seq
    const ti = t.meta.timestampIndex
    if (ti < 0) { s.dirtyFrom = -Infinity; return }
    const ts = vectors[ti] as I64Vector
    if (t.meta.dedupKeys.length > 0 && hasParquet(s.file)) s.dedupDirty = addDirty(s.dedupDirty, ts, length, (x) => timestampMicros(t.meta.columns[ti]!.type, x))
    let min = s.dirtyFrom
    for (let i = 0; i < length; i++) { const x = Number(ts.data[ts.isConst ? 0 : i]!); if (x < min) min = x }
    s.dirtyFrom = min
  }

  private stateOf(t: Table): TableState {
    const s = this.states.get(t)
    if (s !== undefined) return s
    // a CREATE TABLE persisting in the background (persistDdl) may be making its directory: finished first
    this.quiesce()
    return this.states.get(t) ?? this.createDir(t)
  }

  /**
   * Creates the directory of a new table: built as `_trash/new-<id>` (with its `_meta`), then
   * renamed into place — the one step that makes the table exist, so a failure leaves no table
   * behind, in this process or after a restart. `_db` (the next id) is written first so the id is
   * never reused.
   */
  private createDir(t: Table): TableState {
    return runSteps(this.createDirSteps(t))
  }

  /** {@link createDir} in steps (its syncs yielded: see steps.ts). */
  private *createDirSteps(t: Table): Steps<TableState> {
    const dir = `${this.root}/${tableDirName(t.meta.name, t.meta.id)}`
    const staging = `${this.root}/${TRASH_DIR}/new-${t.meta.id}`
    const s: TableState = { dir, file: { version: FORMAT_VERSION, meta: t.meta, walSeq: this.seq, txn: 0, partitions: [], symbols: {} }, dirtyFrom: -Infinity, appliedSeq: this.seq, broken: undefined }
    let placed = false
    try {
      io.rmSync(staging)
      io.mkdirSync(staging)
      yield* writeTableMetaSteps(staging, { ...s.file, meta: structuredClone(t.meta) })
      yield* this.writeSteps(this.writeDbSteps())
      if (io.existsSync(dir)) throw Object.assign(new Error(`table directory exists: ${dir}`), { code: 'EEXIST' })
      io.renameSync(staging, dir)
      placed = true
      yield* fsyncDirSteps(this.root)
    } catch (e) {
      try { io.rmSync(placed ? dir : staging) } catch { /* emptied on the next open, or found with its _meta */ }
      throw e instanceof SqlError ? e : ioError('could not create the table directory', e)
    }
    this.states.set(t, s)
    return s
  }

  /** An internal file of the data directory (`_acl`, ...), or undefined when there is none. */
  readInternal(name: string): Uint8Array | undefined {
    const file = `${this.root}/${name}`
    return io.existsSync(file) ? io.readFileSync(file) : undefined
  }

  /** Replaces an internal file atomically and durably (58030 / 53100 when the write fails). */
  writeInternal(name: string, bytes: Uint8Array): void {
    this.write(() => replaceFileAtomic(this.root, name, bytes))
  }

  /** Writes `_db` (the next table id and the WAL sequence) atomically, in steps (its syncs yielded, see durable-steps.ts). */
  private *writeDbSteps(): Steps<void> {
    const nextId = this.catalog.idCounter
    yield* replaceFileAtomicSteps(this.root, '_db', packr.pack({ version: FORMAT_VERSION, nextId, seq: this.seq }))
    this.savedNextId = nextId
  }

  /** Runs a storage write, turning an OS error into 58030 (53100 for a full disk). */
  private write(f: () => void): void {
    this.lock.check()
    this.settleUndo()
    try { f() } catch (e) { throw e instanceof SqlError ? e : ioError('storage write failed', e) }
  }
}

/** A statement rewriting several tables, until it commits: their states before it and its undo journal's entries. */
interface AtomicUndo {
  readonly states: readonly { readonly t: Table; readonly s: TableState; readonly before: TableState }[]
  readonly entries: readonly UndoEntry[]
}

/** A table rewrite a DDL statement's change made ({@link DurableStore.deferRewrite}). */
interface DeferredRewrite {
  readonly table: Table
  readonly full: boolean
  /** puts the table's rows, partitions and metadata back as before the change */
  readonly undo: () => void
}

/**
 * True when the partitions written for columns `before` serve columns `now` as they are: the same
 * types at the same places, some maybe renamed, maybe more columns after them (ADD COLUMN).
 */
function columnsKept(before: readonly { readonly type: string }[], now: readonly { readonly type: string }[]): boolean {
  return now.length >= before.length && before.every((c, i) => c.type === now[i]!.type)
}

/** A storage write that failed (58030, 53100): the WAL still holds every acknowledged row. */
function isWriteFailure(e: unknown): boolean {
  return e instanceof SqlError && (e.code === SqlState.IO_ERROR || e.code === SqlState.DISK_FULL)
}
