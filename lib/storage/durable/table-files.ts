/**
 * One table's files: the `_meta` file, partition directories of column files, and symbol
 * dictionaries. Writing a partition never changes a byte that `_meta` refers to: a rewritten
 * partition goes to a new directory `<name>.<txn>`, rows appended in order to the last partition
 * go after the end of its column files ({@link appendPartition}), and replacing `_meta` (atomic
 * rename) is the moment the change takes effect. Bytes past the end `_meta` records (an append a
 * crash interrupted) are ignored by readers and cut before the next append; files no longer
 * referenced are removed after the change.
 */
import { splitNs } from '../../types/timestamp-ns.js'
import { SqlError, SqlState } from '../../errors.js'
import { type I64Vector, type Vector, SymbolTable, allocate, concatVectors, materialize, sliceVector } from '../../types/vector.js'
import { appendIndexBlock, encodeIndexBlockSteps, indexFileOf, writeIndexFileSteps } from './index-file.js'
import { type ColumnType, physicalOf } from '../../types/column-type.js'
import type { TableData, TableMeta } from '../table.js'
import type { HeldRows } from '../held-rows.js'
import type { ArrVector } from '../../types/array-vector.js'
import { decodeFixed, decodeVar, encodeFixed, encodeVar, fixedWidth, isVarSize } from './column-codec.js'
import { io, writeAll } from './io.js'
import { fsyncDirSteps, replaceFileAtomicSteps, writeFileDurableSteps } from './durable-steps.js'
import { packr } from './wal-codec.js'
import { type Steps, runSteps } from './steps.js'
import { isHeld, movedDir } from './retired-dirs.js'
import { readArrayRows } from './array-rows.js'
import { ARR_FILE_MAGIC, arrRecordBytes, decodeArrFile, encodeArrFile, isArrFile2 } from './array-codec.js'
import { nullsOf } from '../../types/null-count.js'

/** The `_meta` file's format version. */
export const FORMAT_VERSION = 1

/** A partition as `_meta` records it. */
export interface PartitionEntry {
  /** QuestDB-style name (`2024-01-15`, `default`, ...) */
  name: string
  /** its directory inside the table directory (`<name>.<txn>`) */
  dir: string
  lo: number
  hi: number
  rows: number
  minTs: number
  maxTs: number
  /** bytes of its column files */
  bytes: number
  /** 'parquet': the partition is one Parquet file `<dir>/data.parquet` (ALTER TABLE ... CONVERT PARTITION); absent: column files */
  format?: 'parquet'
  /**
   * Column files of a partition that was Parquet (a write made a checkpoint rewrite it): it goes
   * back to Parquet (storage/durable/parquet-keep.ts), reusing the row groups of the Parquet file
   * in directory `dir` that the writes left as they were (parquet-merge.ts); `whole`: the rows
   * may have changed in place (UPDATE, a schema change), every row is encoded; `dirty` (a DEDUP
   * table): designated-timestamp ranges `[lo, hi, ...]` (µs) where appended rows may have replaced
   * old ones. Recorded in `_meta` with the checkpoint that made it column files, so a crash never
   * loses it.
   */
  parquetFrom?: { readonly dir: string; readonly whole?: boolean; readonly dirty?: readonly number[] }
  /**
   * The names its column files (or Parquet columns) have, by column index, when they differ from
   * the table's column names: ALTER TABLE RENAME COLUMN and ADD COLUMN rewrite no partition. A
   * renamed column keeps its files under the old name; columns past the end of this list were
   * added after the partition was written and are null in every row of it (QuestDB's "column
   * top" at the partition's end). Absent: one file per column, named as the column.
   */
  files?: readonly string[]
  /**
   * Names of column files (as {@link files} names them) of columns dropped after the partition
   * was written: ALTER TABLE DROP COLUMN rewrites no partition. Their files leave the directory
   * once this `_meta` is in place ({@link removeDropped}), and whatever a crash left of them is
   * removed on open ({@link purgeDropped}); a Parquet partition's file keeps them, unread.
   */
  dropped?: readonly string[]
  /**
   * Column tops (QuestDB's word): by file name, how many of the partition's first rows a column
   * file holds no bytes for, because the column was added after them (they are null). Rows
   * appended in place after ADD COLUMN write only their own values to the new column's file and
   * record the partition's rows before them here. Absent (or a file not listed): the file holds
   * every row.
   */
  tops?: Readonly<Record<string, number>>
  /**
   * Non-null values per column file (by the file name {@link files} gives, or the column name)
   * among the partition's rows, recorded when a checkpoint wrote them (so unkeyed `count(x)`
   * answers without reading the column). Valid only while `dir` and `rows` equal the entry's own:
   * an entry that keeps the field through a change of its rows or directory (a cut, an append, a
   * rewrite) no longer reads the rows it was counted over, and the field is ignored
   * ({@link nonNullOf}). Files written after it (UPDATE's `<column>.u<txn>`) have no count.
   */
  nonNull?: NonNullCounts
}

/** The column top of file `name` in partition `p`: its first rows without bytes in the file ({@link PartitionEntry.tops}). */
export function topOf(p: PartitionEntry, name: string): number {
  // (a part an out-of-order merge cut may end before the top: all its rows are then null)
  return Math.min(p.tops?.[name] ?? 0, p.rows)
}

/**
 * `tops` without the files that are no longer the partition's own (`gone`: dropped or replaced
 * files), or undefined when none is left.
 */
export function topsWithout(tops: PartitionEntry['tops'], gone: readonly string[]): PartitionEntry['tops'] {
  if (tops === undefined) return undefined
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(tops)) if (!gone.includes(k)) out[k] = v
  return Object.keys(out).length === 0 ? undefined : out
}

/** {@link PartitionEntry.nonNull}: what a checkpoint counted, and over which rows. */
export interface NonNullCounts {
  /** the entry's directory and row count when counted */
  readonly dir: string
  readonly rows: number
  /** non-null values by file name */
  readonly counts: Readonly<Record<string, number>>
}

/**
 * The recorded non-null count of the column whose file is `file` in partition `e`, or undefined
 * when none holds for the entry as it is (see {@link PartitionEntry.nonNull}; a Parquet partition
 * is counted from its own file, not from this).
 */
export function nonNullOf(e: PartitionEntry, file: string): number | undefined {
  const s = e.nonNull
  if (s === undefined || e.format === 'parquet' || s.dir !== e.dir || s.rows !== e.rows || typeof s.counts !== 'object' || s.counts === null) return undefined
  if (!Object.hasOwn(s.counts, file)) return undefined
  const n = s.counts[file]
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= e.rows ? n : undefined
}

/**
 * Non-null values among `rows` rows of a column of type `type` that has no value in them (a column
 * added after they were written): none, but for the types without a null (BOOLEAN, BYTE, SHORT
 * read as 0, which `count(x)` counts).
 */
export function topNonNull(type: ColumnType, rows: number): number {
  return nullsOf(allocate(type, 1), 1) === 1 ? 0 : rows
}

/** Non-null values of column `c` of `data` among rows [start, end). */
export function nonNullRows(data: TableData | HeldRows, c: number, start: number, end: number): number {
  let nulls = 0
  for (const v of piecesOf(data, c, start, end)) nulls += nullsOf(v, v.length)
  return end - start - nulls
}

/** The file of a Parquet partition inside its directory (QuestDB's name). */
export const PARQUET_PARTITION_FILE = 'data.parquet'

/** The content of a table's `_meta` file. */
export interface TableFileMeta {
  version: number
  meta: TableMeta
  /** the last WAL sequence number whose rows the partitions include */
  walSeq: number
  /** checkpoint counter; suffix of the newest partition directories */
  txn: number
  partitions: PartitionEntry[]
  /** dictionary file per SYMBOL column name */
  symbols: Record<string, string>
}

/** Reads a table's `_meta`. */
export function readTableMeta(dir: string): TableFileMeta {
  const m = packr.unpack(io.readFileSync(`${dir}/_meta`)) as TableFileMeta
  if (m.version !== FORMAT_VERSION) throw new SqlError(SqlState.DATA_CORRUPTED, `unknown table format version ${m.version} [dir=${dir}]`)
  for (const p of m.partitions) {
    p.lo ??= -Infinity; p.hi ??= Infinity; p.minTs ??= NaN; p.maxTs ??= NaN
    // a record that is not one (a damaged file) is no record
    const from = p.parquetFrom as unknown
    if (from !== undefined && (from === null || typeof from !== 'object' || typeof (from as { dir?: unknown }).dir !== 'string')) delete p.parquetFrom
    // ranges that are not numbers: every row group may have changed
    const dirty = p.parquetFrom?.dirty as unknown
    if (dirty !== undefined && !(Array.isArray(dirty) && dirty.every((x) => typeof x === 'number'))) p.parquetFrom = { dir: p.parquetFrom!.dir, whole: true }
    // file names a damaged `_meta` would make point elsewhere: the table is unreadable, not misread
    const files = p.files as unknown
    if (files !== undefined && !(Array.isArray(files) && files.length <= m.meta.columns.length && files.every((f) => typeof f === 'string' && /^[^/\\]+$/.test(f) && f !== '.' && f !== '..'))) {
      throw corrupted(m.meta.name, p.name, 'partition entry names column files that cannot be')
    }
    // only ever used to remove files: a list that is not plain file names is dropped, never followed
    const dropped = p.dropped as unknown
    if (dropped !== undefined && !(Array.isArray(dropped) && dropped.every(isPlainName))) delete p.dropped
    // column tops that are not counts of rows would misplace every value after them: unreadable, not misread
    const tops = p.tops as unknown
    if (tops !== undefined && !(tops !== null && typeof tops === 'object' && Object.values(tops).every((n) => Number.isInteger(n) && (n as number) >= 0))) {
      throw corrupted(m.meta.name, p.name, 'partition entry has column tops that are not row counts')
    }
  }
  return m
}

/** True for a name that is one file name inside a directory (no separator, not `.` or `..`). */
function isPlainName(f: unknown): boolean {
  return typeof f === 'string' && /^[^/\\]+$/.test(f) && f !== '.' && f !== '..'
}

/** Writes a table's `_meta` atomically. */
export function writeTableMeta(dir: string, m: TableFileMeta): void {
  runSteps(writeTableMetaSteps(dir, m))
}

/** {@link writeTableMeta} in steps (its syncs yielded, see durable-steps.ts). */
export function writeTableMetaSteps(dir: string, m: TableFileMeta): Steps<void> {
  return replaceFileAtomicSteps(dir, '_meta', packr.pack(m))
}

/** Writes rows [start, end) of in-memory rows `data` as partition directory `dir`; returns the bytes written. */
export function writePartition(tableDir: string, dir: string, meta: TableMeta, data: TableData | HeldRows, start: number, end: number): number {
  return runSteps(writePartitionSteps(tableDir, dir, meta, data, start, end))
}

/**
 * {@link NonNullCounts} of rows [start, end) of `data` written as partition directory `dir` (files
 * named as the columns), a column a step (a pass over its values, ~1 ns a row).
 */
export function* nonNullCountsSteps(dir: string, meta: TableMeta, data: TableData | HeldRows, start: number, end: number): Steps<NonNullCounts> {
  const counts: Record<string, number> = {}
  for (let i = 0; i < meta.columns.length; i++) {
    if (i > 0) yield
    counts[meta.columns[i]!.name] = nonNullRows(data, i, start, end)
  }
  return { dir, rows: end - start, counts }
}

/**
 * {@link writePartition} in steps: a column file per step, a large one about 4 MiB per step (an
 * indexed column's index file in steps of its own after it). The column files'
 * syncs are yielded `later` (see steps.ts): a caller that stepped it must yield a drain before
 * anything that relies on them being durable (a checkpoint does, before `_meta`).
 */
export function* writePartitionSteps(tableDir: string, dir: string, meta: TableMeta, data: TableData | HeldRows, start: number, end: number): Steps<number> {
  const path = `${tableDir}/${dir}`
  io.rmSync(path)
  io.mkdirSync(path)
  let bytes = 0
  for (let i = 0; i < meta.columns.length; i++) {
    if (i > 0) yield
    const c = meta.columns[i]!
    const vs = piecesOf(data, i, start, end)
    if (isVarSize(c.type)) {
      const [d, o] = encodeVarPieces(c.type, vs, 0)
      bytes += (yield* writeFileSteps(`${path}/${c.name}.d`, d)) + (yield* writeFileSteps(`${path}/${c.name}.o`, o))
    } else if (fixedWidth(c.type) > 0) {
      bytes += yield* writeFileSteps(`${path}/${c.name}.d`, fixedPiecesOf(c.type, vs))
    }
    if (c.indexed && c.type === 'SYMBOL') yield* indexSteps(function* () { yield* writeIndexFileSteps(indexFileOf(path, c.name), yield* encodeIndexBlockSteps(keysOf(vs), 0, end - start)) })
  }
  yield* fsyncDirSteps(path)
  return bytes
}

/**
 * Writes column `v` (of type `type`) as the files `<name>.d` (and `<name>.o`) of partition
 * directory `path`, in steps as {@link writePartitionSteps} does (their syncs `later`: the caller
 * drains before relying on them); returns the bytes written.
 */
export function* writeColumnSteps(path: string, name: string, type: ColumnType, v: Vector): Steps<number> {
  if (isVarSize(type)) {
    const [d, o] = encodeVarPieces(type, [v], 0)
    return (yield* writeFileSteps(`${path}/${name}.d`, d)) + (yield* writeFileSteps(`${path}/${name}.o`, o))
  }
  return fixedWidth(type) > 0 ? yield* writeFileSteps(`${path}/${name}.d`, fixedPieces(type, v)) : 0
}

/** Bytes of the files `<name>.d` and `<name>.o` of directory `path` (0 for those absent). */
export function columnFileBytes(path: string, name: string): number {
  let n = 0
  for (const ext of ['.d', '.o']) try { n += io.statSize(`${path}/${name}${ext}`) } catch { /* none */ }
  return n
}

/** The symbol keys of a SYMBOL column's pieces, in one array. */
function keysOf(vs: readonly Vector[]): Int32Array {
  if (vs.length === 1) return materialize(vs[0]!).data as Int32Array
  let n = 0
  for (const v of vs) n += v.length
  const out = new Int32Array(n)
  let at = 0
  for (const v of vs) { out.set(materialize(v).data as Int32Array, at); at += v.length }
  return out
}

/**
 * Rows [start, end) of column `c` of `data`: a view per segment they fall in (in-memory rows held
 * apart, held-rows.ts), or one view. Written piece by piece, they are never joined into one copy.
 */
function piecesOf(data: TableData | HeldRows, c: number, start: number, end: number): Vector[] {
  const col = data.columns[c]!
  return 'pieces' in col ? col.pieces(start, end) : [col.view(start, end)]
}

/** {@link fixedPieces} of each of `vs` in turn. */
function* fixedPiecesOf(type: ColumnType, vs: readonly Vector[]): Generator<Uint8Array, void, void> {
  for (const v of vs) yield* fixedPieces(type, v)
}

/**
 * The `.d` and `.o` parts of var-size rows given as pieces, the data part starting at byte `base`
 * of its file: each piece encoded, its offsets moved past the pieces before it (an array column's
 * in layout 2, array-codec.ts, which a new file starts with the magic of).
 */
function encodeVarPieces(type: ColumnType, vs: readonly Vector[], base: number): [Uint8Array[], Uint8Array[]] {
  const d: Uint8Array[] = []
  const o: Uint8Array[] = []
  let at = base
  if (physicalOf(type) === 'arr') {
    // layout 2 (array-codec.ts): a new file starts with its magic; the offsets are absolute
    // (a file of no rows stays empty: a column top's file, say)
    if (at === 0 && vs.some((v) => v.length > 0)) { d.push(ARR_FILE_MAGIC); at = ARR_FILE_MAGIC.length }
    for (const v of vs) {
      const [pd, po] = encodeArrFile(v as ArrVector, at)
      d.push(pd)
      o.push(po)
      at += pd.length
    }
    return [d, o]
  }
  for (const v of vs) {
    const [pd, po] = encodeVar(v)
    if (at !== 0) rebaseOffsets(po, at)
    d.push(pd)
    o.push(po)
    at += pd.length
  }
  return [d, o]
}

/**
 * Builds and writes an index file in steps of its own, after its column's (a large partition's
 * index is tens of milliseconds of work). A cache: a failure to write one leaves it to be rebuilt
 * when read. Not synced (index-file.ts).
 */
function* indexSteps(write: () => Steps<void>): Steps<void> {
  try { yield* write() } catch { /* rebuilt from the key column when next read */ }
}

/**
 * True when rows can be appended to the array column files of partition directory `path`: every
 * array column's file (`names[i]`, absent for a column added since, which gets a file of its own)
 * is in layout 2 (array-codec.ts). A layout 1 file starts with every row's header, so the
 * partition is written anew instead (in layout 2; the next checkpoints append to it).
 */
export function arrayFilesAppendable(path: string, columns: readonly { readonly type: ColumnType }[], names: readonly (string | undefined)[]): boolean {
  // (an 8-byte read per array column of the last partition, at each checkpoint that appends to it)
  for (let i = 0; i < columns.length; i++) {
    if (physicalOf(columns[i]!.type) !== 'arr' || names[i] === undefined) continue
    const head = Buffer.alloc(8)
    let fd: number
    try { fd = io.openSync(`${path}/${names[i]!}.d`, 'r') } catch { return false }
    let n: number
    try { n = io.readSync(fd, head, 0) } finally { io.closeSync(fd) }
    // an empty file holds no rows in either layout: the rows appended start it in layout 2
    if (n !== 0 && !isArrFile2(head)) return false
  }
  return true
}

/** Where layout 2 array rows (array-codec.ts) end in `<base>.d` after its first `rows` rows: after the last one's record and elements. */
function arrDataEnd(base: string, type: ColumnType, rows: number): number {
  // no rows: after the magic, or at 0 in an empty file (the append writes the magic first)
  if (rows === 0) return io.statSize(`${base}.d`) >= ARR_FILE_MAGIC.length ? ARR_FILE_MAGIC.length : 0
  const b = Buffer.alloc(8)
  const read = (file: string, at: number) => {
    const fd = io.openSync(file, 'r')
    try { if (io.readSync(fd, b, at) !== 8) throw new RangeError(`${file} is shorter than its rows`) } finally { io.closeSync(fd) }
  }
  read(`${base}.o`, (rows - 1) * 8)
  const last = b.readUInt32LE(0) + b.readInt32LE(4) * TWO32
  read(`${base}.d`, last)
  return last + arrRecordBytes(type) + Math.max(0, b.readInt32LE(0)) * 8
}

/**
 * Appends rows [start, end) of in-memory rows `data` to the column files of partition `p` (whose
 * rows the files hold up to `p.rows`): each file is cut to its recorded end, the rows written
 * after it, and the file synced. The partition's `_meta` entry is the caller's to replace, with
 * the rows, timestamps and the returned bytes added. Never changes a byte before the recorded end.
 */
export function appendPartition(tableDir: string, p: PartitionEntry, meta: TableMeta, data: TableData | HeldRows, start: number, end: number): number {
  return runSteps(appendPartitionSteps(tableDir, p, meta, data, start, end))
}

/**
 * {@link appendPartition} in steps, as {@link writePartitionSteps}: a column's files per step (about 4 MiB of rows per step), their syncs `later`.
 * `names`: each column's file name in the partition (default: the column names); `tops`: the columns
 * that have no file there yet (added after the partition was written): theirs is written with the
 * new rows only, and the partition's rows before them are its column top (the caller records
 * `p.rows` in the entry's {@link PartitionEntry.tops} under its name: no null is written). A
 * column with a top already appends after the rows its file holds. No other column's file is rewritten.
 */
export function* appendPartitionSteps(tableDir: string, p: PartitionEntry, meta: TableMeta, data: TableData | HeldRows, start: number, end: number,
  names: readonly string[] = meta.columns.map((c) => c.name), tops: ReadonlySet<number> = new Set()): Steps<number> {
  const path = `${tableDir}/${p.dir}`
  let bytes = 0
  for (let i = 0; i < meta.columns.length; i++) {
    if (i > 0) yield
    const c = meta.columns[i]!
    const vs = piecesOf(data, i, start, end)
    if (tops.has(i)) {
      bytes += yield* writeColumnSteps(path, names[i]!, c.type, concatVectors(c.type, vs))
      continue
    }
    // the rows its file holds (fewer than the partition's after a column top)
    const held = p.rows - topOf(p, names[i]!)
    if (isVarSize(c.type)) {
      const base = `${path}/${names[i]!}`
      const dataEnd = physicalOf(c.type) === 'arr' ? arrDataEnd(base, c.type, held) : varDataEnd(base, held)
      const [d, o] = encodeVarPieces(c.type, vs, dataEnd)
      bytes += (yield* appendFileSteps(`${base}.d`, dataEnd, d)) + (yield* appendFileSteps(`${base}.o`, held * 8, o))
    } else {
      const w = fixedWidth(c.type)
      if (w > 0) bytes += yield* appendFileSteps(`${path}/${names[i]!}.d`, held * w, fixedPiecesOf(c.type, vs))
    }
    if (c.indexed && c.type === 'SYMBOL') yield* indexSteps(function* () { appendIndexBlock(indexFileOf(path, names[i]!), p.rows, yield* encodeIndexBlockSteps(keysOf(vs), p.rows, p.rows + end - start)) })
  }
  return bytes
}

/** Bytes of a fixed-width column file encoded and written per step (a large partition's file is tens of MB). */
const WRITE_BYTES = 4 << 20

/**
 * int64 words of the piece being written (64-bit integer columns are held as safe integers and
 * converted for their files): one array reused by every piece, so a checkpoint does not allocate
 * (and fault in) fresh memory for each 4 MB of a LONG or TIMESTAMP column.
 */
let wordScratch = new Int32Array(0)

function scratchWords(words: number): Int32Array {
  if (wordScratch.length < words) wordScratch = new Int32Array(Math.max(words, Math.min(2 * wordScratch.length, WRITE_BYTES / 4)))
  return wordScratch
}

/**
 * The bytes of fixed-width column `v` (of type `type`), encoded about {@link WRITE_BYTES} at a
 * time. A piece's bytes may be shared scratch memory: valid until the next piece is taken (from
 * this or any other column), so each is written before the next is asked for ({@link writePiecesSteps}).
 */
function* fixedPieces(type: ColumnType, v: Vector): Generator<Uint8Array, void, void> {
  const per = Math.max(1, Math.floor(WRITE_BYTES / fixedWidth(type)))
  if (v.length <= per) { yield encodeFixed(v, scratchWords); return }
  for (let a = 0; a < v.length; a += per) yield encodeFixed(sliceVector(v, a, Math.min(v.length, a + per)), scratchWords)
}

/**
 * Writes `pieces` back to back at `at` of `fd`, a piece per step; returns the bytes written.
 * Closes `fd` if it fails or is stopped. Each piece is written in the step that takes it (a
 * piece may be scratch memory the next one reuses: {@link fixedPieces}).
 */
function* writePiecesSteps(fd: number, pieces: Iterable<Uint8Array>, at: number): Steps<number> {
  let pos = at
  let ok = false
  try {
    let first = true
    const it = pieces[Symbol.iterator]()
    for (;;) {
      if (!first) yield
      first = false
      const p = it.next()
      if (p.done === true) break
      writeAll(fd, p.value, pos)
      pos += p.value.length
    }
    ok = true
  } finally {
    if (!ok) io.closeSync(fd)
  }
  return pos - at
}

/** Cuts `file` to `at` bytes, writes `pieces` there (a piece per step) and syncs it (a step that yields the file to sync); returns the bytes written. */
function* appendFileSteps(file: string, at: number, pieces: Iterable<Uint8Array>): Steps<number> {
  // a file shorter than its recorded rows is damaged: never paper over it with zeros
  const size = io.statSize(file)
  if (size < at) throw new SqlError(SqlState.DATA_CORRUPTED, `could not append to ${file}: it is shorter than its recorded rows`)
  const fd = io.openSync(file, 'r+')
  try {
    // only a tail a crash left is cut (a truncate frees blocks, on the event loop)
    if (size > at) io.ftruncateSync(fd, at)
  } catch (e) {
    io.closeSync(fd)
    throw e
  }
  const bytes = yield* writePiecesSteps(fd, pieces, at)
  // synced while the next files are written; the runner closes it (a drain comes before `_meta`)
  yield { fsync: fd, later: true }
  return bytes
}

/** Writes a whole file (create/truncate, then `pieces`, a piece per step) and yields it to be synced before the next step; returns its bytes. */
function* writeFileSteps(path: string, pieces: Iterable<Uint8Array>): Steps<number> {
  const fd = io.openSync(path, 'w')
  const bytes = yield* writePiecesSteps(fd, pieces, 0)
  // synced while the next files are written; the runner closes it (a drain comes before `_meta`)
  yield { fsync: fd, later: true }
  return bytes
}

/** Adds `base` to each int64 (lo, hi word pairs) offset of an offsets part. */
function rebaseOffsets(o: Uint8Array, base: number): void {
  const w = new Int32Array(o.buffer, o.byteOffset, o.length >> 2)
  for (let i = 0; i < w.length; i += 2) {
    const x = (w[i]! >>> 0) + w[i + 1]! * TWO32 + base
    const hi = Math.floor(x / TWO32)
    w[i] = (x - hi * TWO32) | 0
    w[i + 1] = hi
  }
}

const TWO32 = 4294967296

/** Where the data part of a var-size column's first `rows` rows ends, from its files `<base>.o` and `<base>.d`. */
export function varDataEnd(base: string, rows: number): number {
  if (rows === 0) return 0
  const b = Buffer.alloc(8)
  const read = (file: string, at: number, n: number) => {
    const fd = io.openSync(file, 'r')
    try { if (io.readSync(fd, b.subarray(0, n), at) !== n) throw new RangeError(`${file} is shorter than its rows`) } finally { io.closeSync(fd) }
  }
  read(`${base}.o`, (rows - 1) * 8, 8)
  const last = b.readUInt32LE(0) + b.readInt32LE(4) * TWO32
  read(`${base}.d`, last, 4)
  return last + 4 + Math.max(0, b.readInt32LE(0))
}

/** {@link varDataEnd} over the files' bytes (a string or binary column: every row is a length then its bytes). */
function varDataEndOf(o: Uint8Array, d: Uint8Array, rows: number): number {
  if (rows === 0) return 0
  const ov = Buffer.from(o.buffer, o.byteOffset, o.length)
  const last = ov.readUInt32LE((rows - 1) * 8) + ov.readInt32LE((rows - 1) * 8 + 4) * TWO32
  if (last + 4 > d.length) throw new RangeError('var-size data is truncated')
  return last + 4 + Math.max(0, Buffer.from(d.buffer, d.byteOffset, d.length).readInt32LE(last))
}

/** Writes a SYMBOL column's dictionary (a msgpack array of strings, key = index), in steps (its sync yielded). */
export function* writeDictionarySteps(tableDir: string, file: string, dict: SymbolTable): Steps<void> {
  yield* writeFileDurableSteps(`${tableDir}/${file}`, [packr.pack(dict.values)])
}

/** A 58030/XX001 error naming the table and partition. */
export function corrupted(table: string, partition: string, what: string, cause?: unknown): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, `could not read table data: ${what} [table=${table}, partition=${partition}]`, -1, { cause })
}

/** Reads a table's SYMBOL dictionaries (one per column; undefined for other types). */
export function readDictionaries(tableDir: string, m: TableFileMeta): (SymbolTable | undefined)[] {
  const meta = m.meta
  return meta.columns.map((c) => {
    if (c.type !== 'SYMBOL') return undefined
    const file = m.symbols[c.name]
    const d = new SymbolTable()
    if (file === undefined) return d
    let values: unknown
    try { values = packr.unpack(io.readFileSync(`${tableDir}/${file}`)) } catch (e) { throw corrupted(meta.name, '-', `symbol dictionary ${file} is unreadable`, e) }
    if (!Array.isArray(values)) throw corrupted(meta.name, '-', `symbol dictionary ${file} is not a list`)
    for (const s of values) d.intern(String(s))
    return d
  })
}

/** Reads one column file of partition `p` (checked for size, symbol keys and timestamp order). */
export function readColumn(tableDir: string, table: string, c: { readonly name: string; readonly type: ColumnType }, isTimestamp: boolean, p: PartitionEntry, dict: SymbolTable | undefined): Vector {
  const top = topOf(p, c.name)
  // a column top: the file holds the rows after it, the rows before are null
  if (top > 0) return withTop(c.type, top, readColumn(tableDir, table, c, isTimestamp, { ...p, rows: p.rows - top, tops: undefined }, dict), dict)
  const base = `${tableDir}/${p.dir}/${c.name}`
  const fail = (what: string, e?: unknown) => corrupted(table, p.name, `column ${c.name}: ${what}`, e)
  const read = (path: string) => {
    try { return io.readFileSync(path) } catch (e) { throw fail(`cannot read ${path.slice(tableDir.length + 1)}`, e) }
  }
  const w = fixedWidth(c.type)
  // files may run past the rows `_meta` records (an append a crash interrupted): only the recorded rows are read
  if (isVarSize(c.type)) {
    const o = read(`${base}.o`)
    if (o.length < p.rows * 8) throw fail(`offsets file has ${o.length} bytes, expected ${p.rows * 8}`)
    try {
      const d = read(`${base}.d`)
      // layout 2: the rows' records from the magic on (bytes after the recorded rows are ignored)
      if (physicalOf(c.type) === 'arr' && isArrFile2(d)) return decodeArrFile(c.type, d.subarray(ARR_FILE_MAGIC.length), p.rows).vector
      // layout 1 files hold exactly their rows, but for the first part of a partition an out-of-order merge cut (FilePart.cut)
      if (physicalOf(c.type) === 'arr' && o.length > p.rows * 8) return readArrayRows(base, c.type, 0, p.rows)
      return decodeVar(c.type, physicalOf(c.type) === 'arr' ? d : d.subarray(0, varDataEndOf(o, d, p.rows)), p.rows)
    } catch (e) { throw e instanceof SqlError ? e : fail(String((e as Error).message), e) }
  }
  if (w === 0) return { kind: 'null', type: c.type, length: p.rows, data: null } as Vector
  const bytes = read(`${base}.d`)
  if (bytes.length < p.rows * w) throw fail(`file has ${bytes.length} bytes, expected ${p.rows * w}`)
  const v = decodeFixed(c.type, bytes, p.rows, dict)
  if (dict !== undefined) {
    const keys = v.data as Int32Array
    for (let r = 0; r < keys.length; r++) if (keys[r]! >= dict.size || keys[r]! < -1) throw fail(`symbol key ${keys[r]} outside the dictionary`)
  }
  if (isTimestamp) checkTimestamps(v, p, fail)
  return v
}

/**
 * Rows [from, p.rows) of one column file of partition `p`, read by position: only those rows'
 * bytes (an out-of-order merge that keeps the rows before `from` where they are, see
 * `FilePart.cut`). Checked as {@link readColumn} checks a whole file (size, symbol keys).
 */
export function readColumnTail(tableDir: string, table: string, c: { readonly name: string; readonly type: ColumnType }, p: PartitionEntry, from: number, dict: SymbolTable | undefined): Vector {
  const top = topOf(p, c.name)
  if (top > 0) {
    // a column top (see readColumn): the file's rows are the partition's from `top` on
    const inFile: PartitionEntry = { ...p, rows: p.rows - top, tops: undefined }
    if (from >= top) return readColumnTail(tableDir, table, c, inFile, from - top, dict)
    return withTop(c.type, top - from, readColumn(tableDir, table, c, false, inFile, dict), dict)
  }
  const base = `${tableDir}/${p.dir}/${c.name}`
  const fail = (what: string, e?: unknown) => corrupted(table, p.name, `column ${c.name}: ${what}`, e)
  const n = p.rows - from
  const readAt = (path: string, at: number, len: number): Uint8Array => {
    const out = Buffer.alloc(len)
    let fd: number
    try { fd = io.openSync(path, 'r') } catch (e) { throw fail(`cannot read ${path.slice(tableDir.length + 1)}`, e) }
    try {
      if (io.readSync(fd, out, at) !== len) throw fail(`${path.slice(tableDir.length + 1)} is shorter than its recorded rows`)
    } finally { io.closeSync(fd) }
    return out
  }
  if (isVarSize(c.type)) {
    if (physicalOf(c.type) === 'arr') {
      try { return readArrayRows(base, c.type, from, p.rows) } catch (e) { throw fail(String((e as Error).message), e) }
    }
    if (n === 0) return decodeVar(c.type, new Uint8Array(0), 0)
    const o = readAt(`${base}.o`, from * 8, 8)
    const start = Buffer.from(o.buffer, o.byteOffset, 8).readUInt32LE(0) + Buffer.from(o.buffer, o.byteOffset, 8).readInt32LE(4) * TWO32
    let end: number
    try { end = varDataEnd(base, p.rows) } catch (e) { throw fail(String((e as Error).message), e) }
    if (end < start) throw fail('offsets out of order')
    try { return decodeVar(c.type, readAt(`${base}.d`, start, end - start), n) } catch (e) { throw e instanceof SqlError ? e : fail(String((e as Error).message), e) }
  }
  const w = fixedWidth(c.type)
  if (w === 0) return { kind: 'null', type: c.type, length: n, data: null } as Vector
  const v = decodeFixed(c.type, readAt(`${base}.d`, from * w, n * w), n, dict)
  if (dict !== undefined) {
    const keys = v.data as Int32Array
    for (let r = 0; r < keys.length; r++) if (keys[r]! >= dict.size || keys[r]! < -1) throw fail(`symbol key ${keys[r]} outside the dictionary`)
  }
  return v
}

/** `top` null rows, then `v` (a column file's rows after its column top). */
function withTop(type: ColumnType, top: number, v: Vector, dict: SymbolTable | undefined): Vector {
  return concatVectors(type, [allocate(type, top, dict), v])
}

/** The designated timestamps must be ascending and inside the partition's recorded range. */
function checkTimestamps(v: Vector, p: PartitionEntry, fail: (what: string) => SqlError): void {
  // TIMESTAMP_NS: compared in microseconds, as the partition's range is recorded
  const d = v.type === 'TIMESTAMP_NS' ? splitNs(v as I64Vector, v.length).micros : v.data as Float64Array | BigInt64Array
  let prev = -Infinity
  for (let r = 0; r < v.length; r++) {
    const x = Number(d[r]!)
    if (x < prev || x < p.minTs || x > p.maxTs) throw fail(`designated timestamp out of order or range at row ${r}`)
    prev = x
  }
}

/** The data directory's trash (store.ts `TRASH_DIR`): emptied when the directory is opened. */
const TRASH = '_trash'

/** Entries moved to the trash by this process, for unique names there. */
let trashed = 0

/**
 * Removes entries of `tableDir` that `m` does not refer to (leftovers of a crash or a
 * checkpoint). `later`: each is moved out of the table directory now (one rename into the data
 * directory's trash, so neither a reader listing the directory nor a later write of the same
 * name ever meets it) and removed on the thread pool, not waited for: unlinking a large
 * partition's files takes long. Falls back to removing it at once when it cannot be moved.
 */
export function removeUnreferenced(tableDir: string, m: TableFileMeta, later = false): void {
  const keep = new Set(['_meta', ...m.partitions.flatMap((p) => (p.parquetFrom === undefined ? [p.dir] : [p.dir, p.parquetFrom.dir])), ...Object.values(m.symbols)])
  const trash = `${tableDir}/../${TRASH}`
  let moveTo = later
  let made = false
  for (const e of io.readdirSync(tableDir)) {
    if (keep.has(e)) continue
    const abs = `${tableDir}/${e}`
    if (isHeld(abs)) {
      // a retired partition may still read it (retired-dirs.ts): moved to the trash, removed once nothing holds it
      const to = `${trash}/held-${++trashed}-${e}`
      try {
        if (!made) { io.mkdirSync(trash); made = true }
        io.renameSync(abs, to)
        movedDir(abs, to)
      } catch { /* left in place: the next open removes it */ }
      continue
    }
    if (moveTo) {
      const to = `${trash}/gone-${++trashed}-${e}`
      try {
        if (!made) { io.mkdirSync(trash); made = true }
        io.renameSync(`${tableDir}/${e}`, to)
        void io.rmLater(to)
        continue
      } catch {
        moveTo = false
      }
    }
    io.rmSync(`${tableDir}/${e}`)
  }
}

/** The files a column's data may have in a partition directory: data, offsets, symbol index. */
const COLUMN_FILE_EXTS = ['.d', '.o', '.i'] as const

/** The file names partition entry `e` reads its columns from (a table with columns `columns`). */
function liveNames(e: PartitionEntry, columns: readonly { readonly name: string }[]): Set<string> {
  return new Set(e.files ?? columns.map((c) => c.name))
}

/**
 * After `_meta` went from `before` to `after`: the files of columns dropped since (names in an
 * entry's `dropped` that the same directory's entry in `before` did not list) leave their
 * partition directories, renamed into the data directory's trash. A dropped column a retired
 * partition may still read (retired-dirs.ts: held by `<partition dir>/<name>`) moves to a
 * directory of its own there, which it reads and which is removed once nothing holds it; the
 * others are removed on the thread pool (`later`) or at once. Never a file `after` names.
 */
export function removeDropped(tableDir: string, before: TableFileMeta, after: TableFileMeta, later = false): void {
  runSteps(removeDroppedSteps(tableDir, before, after, later))
}

/** Partitions whose dropped files {@link removeDroppedSteps} moves per step (a few file-system calls each). */
const DROPPED_PER_STEP = 8

/**
 * {@link removeDropped} in steps, {@link DROPPED_PER_STEP} partitions' files per step: a DROP
 * COLUMN of a table of many partitions moved every partition's files in one turn of the event
 * loop (an existence check per extension, a directory, a rename per file, on the main thread). The
 * `_meta` that no longer names them is in force already: a crash between steps leaves files the
 * next open removes ({@link purgeDropped}).
 */
export function* removeDroppedSteps(tableDir: string, before: TableFileMeta, after: TableFileMeta, later = false): Steps<void> {
  let moved = 0
  const had = new Map(before.partitions.map((e) => [e.dir, new Set(e.dropped ?? [])]))
  const trash = `${tableDir}/../${TRASH}`
  for (const e of after.partitions) {
    if (e.dropped === undefined || e.format === 'parquet') continue
    const prev = had.get(e.dir)
    if (prev === undefined) continue
    const live = liveNames(e, after.meta.columns)
    for (const name of e.dropped) {
      if (prev.has(name) || live.has(name)) continue
      const base = `${tableDir}/${e.dir}/${name}`
      if (moved > 0 && moved % DROPPED_PER_STEP === 0) yield
      moved++
      const files = COLUMN_FILE_EXTS.map((x) => `${name}${x}`).filter((f) => io.existsSync(`${tableDir}/${e.dir}/${f}`))
      if (files.length === 0) continue
      const to = `${trash}/${isHeld(base) ? 'held' : 'gone'}-${++trashed}-${e.dir}`
      try {
        io.mkdirSync(to)
        for (const f of files) io.renameSync(`${tableDir}/${e.dir}/${f}`, `${to}/${f}`)
      } catch {
        // left where they are (unread: `_meta` no longer names them): the next open removes them
        continue
      }
      if (isHeld(base)) movedDir(base, to)
      else if (later) void io.rmLater(to)
      else io.rmSync(to)
    }
  }
}

/**
 * On open: removes what is left of dropped columns' files in the partition directories of `m`
 * (a crash between a DROP COLUMN's `_meta` and its files leaving, see {@link removeDropped}).
 * Never a file `m` names.
 */
export function purgeDropped(tableDir: string, m: TableFileMeta): void {
  for (const e of m.partitions) {
    if (e.dropped === undefined || e.format === 'parquet') continue
    const live = liveNames(e, m.meta.columns)
    for (const name of e.dropped) if (!live.has(name)) for (const x of COLUMN_FILE_EXTS) io.rmSync(`${tableDir}/${e.dir}/${name}${x}`)
  }
}
