/**
 * Reads a Parquet file as EpochDB column batches, one row group at a time, reading only the
 * projected columns' chunks and skipping row groups whose designated-timestamp statistics fall
 * outside the wanted intervals.
 *
 * The footer is read synchronously (a statement binds its columns from it); row groups are read
 * with positioned reads of an open file descriptor. Every failure is a SqlError: a file that cannot
 * be opened 58030 (the OS error as its cause), a file that is not Parquet or is damaged XX001, both
 * naming the file. These are the codes of the engine's own files (converted partitions); a file a
 * user names (read_parquet) has its errors turned into client errors by `user-file-error.ts`.
 */
import { loadFlatChunkReader, readFlatVector } from './flat-chunk.js'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { type DecodedArray, type FileMetaData, type SchemaElement, parquetMetadata } from 'hyparquet'
import { loadSyncColumnReader, readChunk, schemaTree } from './sync-column.js'
import { SqlError, SqlState } from '../errors.js'
import type { ColumnType } from '../types/column-type.js'
import { BATCH_SIZE, type Batch, type Vector, sliceVector } from '../types/vector.js'
import { RAW_PARSERS, concatChunks, decodeColumn, newDictionary } from './decode-column.js'
import { type EpochFooter, FOOTER_KEY, inferColumnType } from './schema.js'
import { rawDecimals } from './decimal-column.js'
import { readArrayVector } from './array-column.js'
import { checkGroupRows } from './chunk-bytes.js'
import { arrayType, isArrayType } from '../types/array-type.js'
import { doubleListDims } from './schema.js'

/** A column EpochDB reads from a file. */
export interface ParquetColumnInfo {
  readonly name: string
  readonly type: ColumnType
}

/** One row group: its first row, row count and designated-timestamp bounds (µs) when known. */
export interface RowGroupInfo {
  readonly start: number
  readonly rows: number
  readonly tsMin: number | undefined
  readonly tsMax: number | undefined
}

/** How to type what is read. */
export interface ParquetReadOptions {
  /** SYMBOL columns come back as VARCHAR (read_parquet, as QuestDB) or as SYMBOL (a converted partition) */
  readonly symbols?: 'VARCHAR' | 'SYMBOL'
  /** the name in error messages (default: the path) */
  readonly displayName?: string
}

function damaged(name: string, err: unknown): SqlError {
  if (err instanceof SqlError) return err
  const msg = err instanceof Error ? err.message : String(err)
  return new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${name}: ${msg}`, -1)
}

function corrupt(name: string, why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${name}: ${why}`, -1)
}

/** A 58030 error for a file that could not be opened; the OS error is its `cause` (files.ts reads its code). */
function openFailed(name: string, err: NodeJS.ErrnoException): SqlError {
  return new SqlError(SqlState.IO_ERROR, `could not open parquet file [path=${name}, error=${err.code ?? 'EIO'}]`, -1, { cause: err })
}

function openFile(path: string, name: string): number {
  try {
    return openSync(path, 'r')
  } catch (err) {
    throw openFailed(name, err as NodeJS.ErrnoException)
  }
}

function readAt(fd: number, start: number, end: number): ArrayBuffer {
  const buf = Buffer.allocUnsafe(Math.max(0, end - start))
  let got = 0
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, start + got)
    if (n === 0) break
    got += n
  }
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + got) as ArrayBuffer
}

function isTimestamp(t: ColumnType): boolean {
  return t === 'TIMESTAMP' || t === 'TIMESTAMP_NS'
}

/** Nanosecond values (bigints, or null) floored to microseconds. */
function nanosToMicros(data: DecodedArray): DecodedArray {
  const out: (bigint | null)[] = new Array(data.length)
  for (let i = 0; i < data.length; i++) {
    const x = data[i] as bigint | null | undefined
    out[i] = typeof x === 'bigint' ? (x < 0n ? (x - 999n) / 1000n : x / 1000n) : null
  }
  return out as DecodedArray
}

/** A Parquet file's schema and row groups, read from its footer. */
export class ParquetFile {
  readonly columns: ParquetColumnInfo[] = []
  /** index in {@link ParquetFile.columns} of the designated timestamp, or -1 */
  readonly timestampIndex: number
  readonly rowGroups: RowGroupInfo[] = []
  readonly rowCount: number
  /** the file's own column name of each of {@link ParquetFile.columns} */
  readonly leaves: string[] = []
  /** per column: values arrive in nanoseconds but the column is TIMESTAMP (µs) */
  private readonly fromNanos: boolean[] = []

  private constructor(readonly path: string, private readonly name: string, /** the parsed footer */ readonly metadata: FileMetaData, /** the file's size in bytes */ readonly byteLength: number, options: ParquetReadOptions) {
    const footer = this.footer()
    const schema = metadata.schema
    const elements: SchemaElement[] = []
    // top-level leaves only: nested groups (structs, lists, maps) are skipped, as QuestDB does
    let i = 1
    const skip = (k: number): number => { let end = k + 1; for (let c = 0; c < (schema[k]!.num_children ?? 0); c++) end = skip(end); return end }
    const types: (ColumnType | undefined)[] = []
    while (i < schema.length) {
      const el = schema[i]!
      if ((el.num_children ?? 0) > 0 || el.repetition_type === 'REPEATED') {
        // lists of lists .. of DOUBLE are DOUBLE arrays; other nested columns are skipped
        const dims = el.repetition_type === 'REPEATED' ? 0 : doubleListDims(schema, i)
        if (dims > 0) { elements.push(el); types.push(arrayType(dims)) }
        i = skip(i)
        continue
      }
      elements.push(el)
      types.push(undefined)
      i++
    }
    for (let e = 0; e < elements.length; e++) {
      const el = elements[e]!
      const inferred = types[e] ?? inferColumnType(el)
      const declared = footer?.columns.find((c) => c.name === el.name)?.type
      // the footer's type when the file agrees on its kind (an array for an array)
      let type = declared !== undefined && (types[e] === undefined) === !isArrayType(declared) ? declared : inferred
      if (type === undefined) continue
      // INT96 and TIMESTAMP(NANOS) leaves read as TIMESTAMP are converted from nanoseconds
      this.fromNanos.push(type === 'TIMESTAMP' && (el.type === 'INT96' || el.logical_type?.type === 'TIMESTAMP' && el.logical_type.unit === 'NANOS'))
      if (type === 'SYMBOL' && options.symbols !== 'SYMBOL') type = 'VARCHAR'
      this.columns.push({ name: el.name, type })
      this.leaves.push(el.name)
    }
    if (this.columns.length === 0) throw new SqlError(SqlState.DATA_CORRUPTED, `no supported columns found in parquet file: ${name}`, -1)
    this.timestampIndex = this.designated(footer, elements)
    const tsLeaf = this.timestampIndex < 0 ? undefined : this.leaves[this.timestampIndex]
    let start = 0
    for (const g of metadata.row_groups) {
      const rows = Number(g.num_rows)
      checkGroupRows(rows, byteLength, name)
      const chunk = tsLeaf === undefined ? undefined : g.columns.find((c) => c.meta_data?.path_in_schema[0] === tsLeaf)
      const st = chunk?.meta_data?.statistics
      const lo = st?.min_value ?? st?.min
      const hi = st?.max_value ?? st?.max
      // bounds in microseconds; a TIMESTAMP_NS file's are floored (exactly, as bigints)
      const ns = this.timestampIndex >= 0 && this.columns[this.timestampIndex]!.type === 'TIMESTAMP_NS'
      const micros = (x: unknown): number | undefined => (typeof x !== 'bigint' ? undefined : Number(ns ? (x < 0n ? (x - 999n) / 1000n : x / 1000n) : x))
      this.rowGroups.push({ start, rows, tsMin: micros(lo), tsMax: micros(hi) })
      start += rows
    }
    this.rowCount = start
  }

  /** Opens `path` and reads its footer. */
  static open(path: string, options: ParquetReadOptions = {}): ParquetFile {
    const name = options.displayName ?? path
    const fd = openFile(path, name)
    try {
      const stat = fstatSync(fd)
      if (stat.isDirectory()) throw openFailed(name, Object.assign(new Error('is a directory'), { code: 'EISDIR' }))
      const size = stat.size
      if (size < 12) throw corrupt(name, 'file is too short')
      const tail = new DataView(readAt(fd, size - 8, size))
      if (tail.byteLength < 8 || tail.getUint32(4, true) !== 0x31524150) throw corrupt(name, 'not a parquet file (footer magic PAR1 missing)')
      const metaLength = tail.getUint32(0, true)
      if (metaLength + 8 > size - 4) throw corrupt(name, `footer length ${metaLength} exceeds the file`)
      const footer = readAt(fd, size - 8 - metaLength, size)
      const metadata = parquetMetadata(footer, { parsers: RAW_PARSERS })
      const file = new ParquetFile(path, name, metadata, size, options)
      rawDecimals(metadata) // once typed: DECIMAL values then arrive as their unscaled integers, not doubles
      return file
    } catch (err) {
      throw damaged(name, err)
    } finally {
      closeSync(fd)
    }
  }

  private footer(): EpochFooter | undefined {
    const kv = this.metadata.key_value_metadata?.find((k) => k.key === FOOTER_KEY)
    if (kv?.value === undefined) return undefined
    try {
      const f = JSON.parse(kv.value) as EpochFooter
      return f.version === 1 && Array.isArray(f.columns) ? f : undefined
    } catch {
      return undefined
    }
  }

  private designated(footer: EpochFooter | undefined, elements: readonly SchemaElement[]): number {
    if (footer !== undefined && footer.timestamp >= 0) {
      const name = footer.columns[footer.timestamp]?.name
      const k = this.columns.findIndex((c) => c.name === name)
      if (k >= 0 && isTimestamp(this.columns[k]!.type)) return k
    }
    // as QuestDB: every row group sorted ascending on one REQUIRED TIMESTAMP column
    const groups = this.metadata.row_groups
    if (groups.length === 0) return -1
    const idx = groups[0]!.sorting_columns?.[0]
    if (idx === undefined || idx.descending) return -1
    if (!groups.every((g) => g.sorting_columns?.[0]?.column_idx === idx.column_idx && !g.sorting_columns[0].descending)) return -1
    const el = elements[idx.column_idx]
    if (el === undefined || el.repetition_type !== 'REQUIRED') return -1
    const k = this.columns.findIndex((c) => c.name === el.name)
    return k >= 0 && isTimestamp(this.columns[k]!.type) ? k : -1
  }

  /**
   * The rows of the projected columns (indexes into {@link ParquetFile.columns}), one batch per
   * row group; row groups `keep` refuses are not read.
   */
  async *batches(projection: readonly number[], keep?: (g: RowGroupInfo) => boolean): AsyncGenerator<Batch> {
    await loadSyncColumnReader()
    await loadFlatChunkReader()
    const fd = openFile(this.path, this.name)
    const dicts = projection.map((c) => (this.columns[c]!.type === 'SYMBOL' ? newDictionary() : undefined))
    try {
      const names = projection.map((c) => this.leaves[c]!)
      const tree = schemaTree(this.metadata)
      for (let gi = 0; gi < this.rowGroups.length; gi++) {
        const g = this.rowGroups[gi]!
        if (g.rows === 0 || (keep !== undefined && !keep(g))) continue
        // column chunks are decoded synchronously once read (hyparquet's page decoder)
        const vectors: Vector[] = projection.map((c, k) => {
          // flat DOUBLE / INT64 / dictionary strings as SYMBOL: straight into the typed array
          const type = this.columns[c]!.type
          if (isArrayType(type)) return readArrayVector(fd, this.metadata, tree, gi, names[k]!, this.name, type)
          const fast = this.fromNanos[c] === true ? undefined : readFlatVector(fd, this.metadata, tree, gi, names[k]!, this.name, type, dicts[k])
          if (fast !== undefined) return fast
          const data = concatChunks(readChunk(fd, this.metadata, tree, gi, names[k]!, this.name))
          if (data.length !== g.rows) throw corrupt(this.name, `column ${names[k]} has ${data.length} values in a row group of ${g.rows} rows`)
          return decodeColumn(type, this.fromNanos[c] === true ? nanosToMicros(data) : data, dicts[k])
        })
        // operators expect batches of about BATCH_SIZE rows; other writers make far larger row groups
        for (let at = 0; at < g.rows; at += BATCH_SIZE) {
          const end = Math.min(g.rows, at + BATCH_SIZE)
          yield at === 0 && end === g.rows ? { length: g.rows, vectors } : { length: end - at, vectors: vectors.map((v) => sliceVector(v, at, end)) }
        }
      }
    } finally {
      closeSync(fd)
    }
  }
}
