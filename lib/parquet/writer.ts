/**
 * Writes column batches as one Parquet file, row group by row group, to a byte sink: memory holds
 * a few row groups (default 100,000 rows each: the one filling and up to {@link GROUPS_IN_FLIGHT}
 * compressing) and their encoded bytes, whatever the file's size.
 *
 * Built on hyparquet-writer (pure JS): data pages v2, dictionary encoding where it pays (always
 * for SYMBOL), min/max statistics per column chunk, `sorting_columns` marking the designated
 * timestamp ascending (as QuestDB does), and the footer's `epochdb` entry with the exact types.
 * Codecs: SNAPPY (default; our own compressor, `snappy-compress.ts`), GZIP, BROTLI,
 * UNCOMPRESSED, ZSTD when the optional `@hpcc-js/wasm-zstd` is installed (zstd.ts; else refused
 * with 0A000); LZ4_RAW is refused (no compressor for it; readers decode them all).
 *
 * Pipelined: a full row group's fast-path chunks go to the compression threads (worker-pool.ts),
 * which encode and compress their pages; the writer goes on reading the next group meanwhile,
 * and writes groups in order as their pages come back, at most {@link GROUPS_IN_FLIGHT} groups
 * behind. The bytes are those of encoding and compressing here.
 */
import type { ByteWriter, ParquetWriter } from 'hyparquet-writer'
import type { ColumnChunk, RowGroup, SchemaElement } from 'hyparquet'
import { SqlError, SqlState } from '../errors.js'
import type { ColumnType } from '../types/column-type.js'
import { type Batch, type Vector, materialize, sliceVector } from '../types/vector.js'
import { columnValues } from './encode-column.js'
import { zstdCompressor } from './zstd.js'
import { type ChunkColumn, codePointCompare, planPlainChunk, planSymbolChunk, portableParts, portableSymbols } from './plain-chunk.js'
import { type ChunkPlan, compressPages, emitChunk } from './chunk-plan.js'
import { CODECS, type ParquetCodec, type ZstdCompress, pageCodec } from './codecs.js'
import { type CompressPool, parquetWorkers, defaultCompressThreads } from './worker-pool.js'
import type { CompressResult } from './worker.js'
import { type EpochFooter, FOOTER_KEY, parquetElements } from './schema.js'

type HyparquetWriter = Pick<typeof import('hyparquet-writer'), 'ByteWriter' | 'ParquetWriter'>

export { CODECS, type ParquetCodec } from './codecs.js'

/** Row groups compressing while the writer encodes the next: bounds the export's memory. */
export const GROUPS_IN_FLIGHT = 2

/** How a Parquet file is written (QuestDB's COPY / `/exp` option names, camel-cased). */
export interface ParquetWriteOptions {
  /** default `snappy` */
  readonly compressionCodec?: ParquetCodec
  /** gzip 0-9, brotli 0-11, zstd 1-22 (default 3); ignored by the others */
  readonly compressionLevel?: number
  /** rows per row group (default 100,000) */
  readonly rowGroupSize?: number
  /** target uncompressed data page bytes (default 1 MiB) */
  readonly dataPageSize?: number
  /** min/max statistics per column chunk (default true) */
  readonly statisticsEnabled?: boolean
  /** columns that get a split-block bloom filter */
  readonly bloomFilterColumns?: readonly string[]
  /** the bloom filters' false-positive rate (default 0.01) */
  readonly bloomFilterFpp?: number
}

/** Where the bytes go; `write` may return a promise to apply back-pressure. */
export interface ByteSink {
  write(bytes: Uint8Array): void | Promise<void>
}

/** A result column to write. */
export interface ParquetColumn {
  readonly name: string
  readonly type: ColumnType
}

/** The codec named `name` (case-insensitive; `default` = snappy), or a SqlError naming the valid ones. */
export function parseCodec(name: string, position = 0): ParquetCodec {
  const n = name.toLowerCase()
  if (n === 'default') return 'snappy'
  if ((CODECS as readonly string[]).includes(n)) return n as ParquetCodec
  throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid compression codec[${name}], expected one of: ${CODECS.join(', ')}`, position)
}

/** How the writer spreads its work (internal: tests compare the threaded writer with the other). */
export interface WriterThreads {
  /** compression threads (0: compress on the writer's thread); default {@link defaultCompressThreads} */
  readonly compressThreads?: number
}

/** A row group encoded and (maybe) still compressing, waiting for its turn to be written. */
interface GroupInFlight {
  readonly rows: number
  /** per column: the fast path's pages, or undefined (hyparquet-writer writes it from `parts`) */
  readonly plans: (ChunkPlan | undefined)[]
  /** per column sent to a compression thread: its pages (undefined: refused by the fast path) and compressed bodies */
  readonly work: (Promise<CompressResult> | undefined)[]
  /** the columns' vectors (for hyparquet-writer) */
  readonly parts: Vector[][]
}

/** A streaming Parquet writer: {@link ParquetBatchWriter.push} batches, then {@link ParquetBatchWriter.finish}. */
export class ParquetBatchWriter {
  private readonly bytes: ByteWriter & { flush?: () => void }
  private readonly writer: ParquetWriter
  private readonly rowGroupSize: number
  private readonly pageSize: number
  private readonly blooms: ReadonlySet<string>
  /** restores the TIMESTAMP/DATE annotations before the footer is written */
  private readonly annotate: (() => void)[] = []
  private readonly stats: boolean
  private readonly fpp: number
  /** the codec's name and compressor, for the chunks encoded here (plain-chunk.ts) */
  private readonly codec: { name: string; compress: ((b: Uint8Array) => Uint8Array) | undefined }
  private readonly codecName: ParquetCodec
  private readonly level: number | undefined
  /** per column: may go through the fast path (plain-chunk.ts) */
  private readonly fast: boolean[]
  /** per column: what the fast path needs of it */
  private readonly chunkColumns: ChunkColumn[]
  /** the compression threads (undefined: compress here) */
  private readonly pool: CompressPool | undefined
  /** encoded groups not yet written, oldest first */
  private readonly queue: GroupInFlight[] = []
  private pending: Vector[][]
  private pendingRows = 0
  private chunks: Uint8Array[] = []
  /** rows written so far */
  rows = 0

  /**
   * A writer of `columns` (the designated timestamp at `timestampIndex`, or -1) into `sink`.
   * hyparquet-writer is loaded on first use, so opening a database never loads it.
   */
  static async open(columns: readonly ParquetColumn[], timestampIndex: number, sink: ByteSink, options: ParquetWriteOptions = {}, threads: WriterThreads = {}): Promise<ParquetBatchWriter> {
    // zstd comes from an optional package (zstd.ts): refused with 0A000 before anything is written when absent
    const zstd = options.compressionCodec === 'zstd' ? await zstdCompressor() : undefined
    const lib = await import('hyparquet-writer')
    return new ParquetBatchWriter(lib, columns, timestampIndex, sink, options, zstd, threads)
  }

  private constructor(lib: HyparquetWriter, private readonly columns: readonly ParquetColumn[], private readonly timestampIndex: number, private readonly sink: ByteSink, options: ParquetWriteOptions,
    zstd: ZstdCompress | undefined, threads: WriterThreads) {
    this.bytes = new lib.ByteWriter(1 << 20)
    this.codecName = options.compressionCodec ?? 'snappy'
    this.level = options.compressionLevel
    const pc = pageCodec(this.codecName, this.level, zstd)
    const codec = pc.name
    const compressors: Record<string, (b: Uint8Array) => Uint8Array> = pc.compress === undefined ? {} : { [codec]: pc.compress }
    this.codec = { name: codec, compress: pc.compress }
    this.pool = pc.compress === undefined ? undefined : parquetWorkers(threads.compressThreads ?? defaultCompressThreads())
    this.rowGroupSize = Math.max(1, options.rowGroupSize ?? 100_000)
    this.pageSize = Math.max(1024, options.dataPageSize ?? 1 << 20)
    this.blooms = new Set((options.bloomFilterColumns ?? []).map((c) => c.toLowerCase()))
    for (const b of this.blooms) {
      if (!columns.some((c) => c.name.toLowerCase() === b)) throw new SqlError(SqlState.UNDEFINED_COLUMN, `bloom filter column not found [column=${b}]`, 0)
    }
    this.fpp = options.bloomFilterFpp ?? 0.01
    this.stats = options.statisticsEnabled ?? true
    const schema: SchemaElement[] = [{ name: 'schema', num_children: columns.length }]
    columns.forEach((c, i) => {
      const els = parquetElements(c.name, c.type, i === timestampIndex)
      const el = els[0]!
      if (els.length > 1) { schema.push(...els); return }
      // hyparquet-writer maps every value of an annotated TIMESTAMP through BigInt(); the values are
      // already int64, so the columns are written bare and annotated before the footer
      if (el.logical_type?.type === 'TIMESTAMP') {
        const { converted_type, logical_type, ...bare } = el
        const target = { ...bare }
        this.annotate.push(() => Object.assign(target, { converted_type, logical_type }))
        schema.push(target)
      } else schema.push(el)
    })
    const footer: EpochFooter = { version: 1, columns: columns.map((c) => ({ name: c.name, type: c.type })), timestamp: timestampIndex }
    // the writer hands each row group's bytes over on flush; they go to the sink between groups
    this.bytes.flush = (): void => {
      this.chunks.push(new Uint8Array(this.bytes.buffer, 0, this.bytes.index).slice())
      this.bytes.index = 0
    }
    this.writer = new lib.ParquetWriter({
      writer: this.bytes, schema, codec, compressors, statistics: options.statisticsEnabled ?? true,
      kvMetadata: [{ key: FOOTER_KEY, value: JSON.stringify(footer) }], createdBy: 'EpochDB',
    })
    this.pending = columns.map(() => [])
    this.fast = columns.map((c) => !this.blooms.has(c.name.toLowerCase()))
    this.chunkColumns = columns.map((c, i) => ({ name: c.name, required: i === timestampIndex, codec: this.codec.name, compress: this.codec.compress, pageSize: this.pageSize, statistics: this.stats }))
  }

  /** Adds a batch; writes a row group whenever enough rows are pending. */
  async push(batch: Batch): Promise<void> {
    let start = 0
    while (start < batch.length) {
      const take = Math.min(batch.length - start, this.rowGroupSize - this.pendingRows)
      for (let c = 0; c < this.columns.length; c++) {
        const v = batch.vectors[c]!
        this.pending[c]!.push(start === 0 && take === batch.length ? v : sliceVector(v, start, start + take))
      }
      this.pendingRows += take
      start += take
      if (this.pendingRows >= this.rowGroupSize) await this.flushGroup()
    }
  }

  /** Encodes the pending rows as a row group and queues it; writes the oldest groups once more than {@link GROUPS_IN_FLIGHT} wait. */
  private async flushGroup(): Promise<void> {
    if (this.pendingRows === 0) return
    const rows = this.pendingRows
    const parts = this.pending
    this.pending = this.columns.map(() => [])
    this.pendingRows = 0
    // fixed-width and SYMBOL columns take the fast path (plain-chunk.ts), straight from their typed
    // arrays: with compression threads they are encoded there too (their rows, and a SYMBOL
    // column's symbol table when small, copied over); the rest (and any column the fast path
    // refuses) is written by hyparquet-writer in writeGroup
    const pool = this.pool
    const plans: (ChunkPlan | undefined)[] = []
    const work: (Promise<CompressResult> | undefined)[] = []
    this.columns.forEach((c, i) => {
      const col = this.chunkColumns[i]!
      let plan: ChunkPlan | undefined
      let w: Promise<CompressResult> | undefined
      if (!this.fast[i]) plan = undefined
      else if (pool === undefined) plan = c.type === 'SYMBOL' ? planSymbolChunk(col, parts[i]!, rows) : planPlainChunk(col, parts[i]!, rows)
      else {
        const symbols = c.type === 'SYMBOL'
        const portable = rows === 0 ? undefined : symbols ? portableSymbols(parts[i]!) : portableParts(parts[i]!)
        if (portable !== undefined) w = pool.encode(this.codecName, this.level, col, portable, rows, symbols)
        else if (symbols) {
          // a symbol table too large to copy: encoded here, compressed there
          plan = planSymbolChunk(col, parts[i]!, rows)
          if (plan !== undefined) w = pool.compressPlan(this.codecName, this.level, plan)
        }
      }
      w?.catch(() => undefined) // awaited when the group is written; a failure then fails the export
      plans.push(plan)
      work.push(w)
    })
    this.queue.push({ rows, plans, work, parts })
    while (this.queue.length > (pool === undefined ? 0 : GROUPS_IN_FLIGHT)) await this.writeGroup()
  }

  /** Writes the oldest queued group (once its pages are compressed) and hands its bytes to the sink. */
  private async writeGroup(): Promise<void> {
    const group = this.queue.shift()!
    const rows = group.rows
    const done = await Promise.all(group.work)
    const start = this.bytes.offset
    const chunks: (ColumnChunk | undefined)[] = group.plans.map((local, i) => {
      const col = this.chunkColumns[i]!
      const moved = done[i]
      if (moved !== undefined) return moved.plan === undefined ? undefined : emitChunk(this.bytes, col, moved.plan, moved.bodies)
      return local === undefined ? undefined : emitChunk(this.bytes, col, local, compressPages(local, col.compress))
    })
    const slow = this.columns.map((_, i) => i).filter((i) => chunks[i] === undefined)
    const own: (ChunkStats | undefined)[] = []
    const columnData = slow.map((i) => {
      const c = this.columns[i]!
      return {
        name: c.name,
        data: withStats(columnValues(group.parts[i]!, rows), c.type, this.stats, own, i, group.parts[i]!),
        // numeric statistics are computed here with typed loops (the library's generic ones cost more than encoding)
        ...(own[i] !== undefined ? { statistics: false } : {}),
        ...(this.blooms.has(c.name.toLowerCase()) ? { bloomFilter: { fpp: this.fpp } } : {}),
        ...(c.type === 'SYMBOL' ? { encoding: 'RLE_DICTIONARY' as const } : c.type === 'DOUBLE' || c.type === 'TIMESTAMP' || c.type === 'LONG' ? { encoding: 'PLAIN' as const } : {}),
      }
    })
    if (slow.length > 0) {
      this.writer.write({ columnData, rowGroupSize: rows, pageSize: this.pageSize })
      const g = this.writer.row_groups[this.writer.row_groups.length - 1]!
      slow.forEach((i, k) => {
        const chunk = g.columns[k]!
        const st = own[i]
        if (st !== undefined && chunk.meta_data !== undefined) chunk.meta_data.statistics = st
        chunks[i] = chunk
      })
      // the row group holds every column, in schema order; its bytes start with the fast chunks
      g.columns = chunks as ColumnChunk[]
      g.total_compressed_size = BigInt(this.bytes.offset - start)
      let total = 0n
      for (const c of g.columns) total += c.meta_data?.total_uncompressed_size ?? 0n
      g.total_byte_size = total
      g.file_offset = BigInt(start)
    } else {
      let total = 0n
      for (const c of chunks) total += c!.meta_data?.total_uncompressed_size ?? 0n
      const w = this.writer as unknown as { num_rows: bigint; row_groups: RowGroup[] }
      w.num_rows += BigInt(rows)
      w.row_groups.push({ columns: chunks as ColumnChunk[], total_byte_size: total, num_rows: BigInt(rows), total_compressed_size: BigInt(this.bytes.offset - start), file_offset: BigInt(start) })
      this.bytes.flush!()
    }
    const g = this.writer.row_groups[this.writer.row_groups.length - 1]
    if (g !== undefined && this.timestampIndex >= 0) g.sorting_columns = [{ column_idx: this.timestampIndex, descending: false, nulls_first: false }]
    this.rows += rows
    await this.drain()
  }

  private async drain(): Promise<void> {
    const chunks = this.chunks
    this.chunks = []
    for (const c of chunks) await this.sink.write(c)
  }

  /**
   * Writes a row group of another file as it is (a Parquet partition rewritten around it, see
   * storage/durable/parquet-merge.ts): after the rows pushed so far, which are written first as a
   * group of their own. `bytes` are the file's bytes from offset `from` (its column chunks),
   * `group` its footer entry; the schema must be this writer's. Page indexes and bloom filters
   * of the chunk are not carried over.
   */
  async copyRowGroup(bytes: Uint8Array, group: RowGroup, from: number): Promise<void> {
    await this.flushGroup()
    while (this.queue.length > 0) await this.writeGroup()
    const shift = BigInt(this.bytes.offset - from)
    const at = (x: bigint | undefined): bigint | undefined => (x === undefined ? undefined : x + shift)
    this.bytes.appendBytes(bytes)
    const columns: ColumnChunk[] = group.columns.map((c) => {
      const { offset_index_offset: _oi, offset_index_length: _ol, column_index_offset: _ci, column_index_length: _cl, ...chunk } = c
      const md = c.meta_data
      return {
        ...chunk,
        file_offset: c.file_offset + shift,
        meta_data: md === undefined ? undefined : {
          ...md, data_page_offset: md.data_page_offset + shift, dictionary_page_offset: at(md.dictionary_page_offset), index_page_offset: at(md.index_page_offset),
          bloom_filter_offset: undefined, bloom_filter_length: undefined,
        },
      }
    })
    const w = this.writer as unknown as { num_rows: bigint; row_groups: RowGroup[] }
    w.num_rows += group.num_rows
    w.row_groups.push({ ...group, columns, file_offset: at(group.file_offset) })
    this.bytes.flush!()
    this.rows += Number(group.num_rows)
    await this.drain()
  }

  /** Ends the row group being filled here (the rows pushed since the last one), whatever its size. */
  async endRowGroup(): Promise<void> {
    await this.flushGroup()
  }

  /** Writes the last row group and the footer. */
  async finish(): Promise<void> {
    await this.flushGroup()
    while (this.queue.length > 0) await this.writeGroup()
    this.bytes.finish = (): void => { this.bytes.flush!() }
    for (const a of this.annotate) a()
    await this.writer.finish()
    await this.drain()
  }
}

/** Min, max and null count of one column chunk. */
interface ChunkStats {
  min_value?: number | bigint | string
  max_value?: number | bigint | string
  null_count: bigint
}

/**
 * Records in `out[i]` the statistics of `data` when it is a typed array of a numeric column
 * (no nulls: typed arrays are only used then), or of a SYMBOL column (from its distinct keys,
 * not a string comparison per row); other columns keep the library's statistics.
 */
function withStats<T>(data: T, type: ColumnType, enabled: boolean, out: (ChunkStats | undefined)[], i: number, parts: readonly Vector[]): T {
  if (!enabled) return data
  if (type === 'SYMBOL') { out[i] = symbolStats(parts); return data }
  if (data instanceof Float64Array || data instanceof Float32Array || data instanceof Int32Array) {
    if (type === 'IPV4' || data.length === 0) return data
    let min = Infinity
    let max = -Infinity
    for (let k = 0; k < data.length; k++) { const x = data[k]!; if (x < min) min = x; if (x > max) max = x }
    out[i] = { min_value: min === 0 ? -0 : min, max_value: max === 0 ? 0 : max, null_count: 0n }
  } else if (data instanceof BigInt64Array && data.length > 0) {
    // safe integers held as doubles: compared as numbers (a bigint comparison per row costs more)
    const numbers = parts.map((v) => materialize(v).data)
    if (numbers.every((d) => d instanceof Float64Array)) {
      let min = Infinity
      let max = -Infinity
      for (const d of numbers as Float64Array[]) for (let k = 0; k < d.length; k++) { const x = d[k]!; if (x < min) min = x; if (x > max) max = x }
      out[i] = { min_value: BigInt(min), max_value: BigInt(max), null_count: 0n }
      return data
    }
    let min = data[0]!
    let max = min
    for (let k = 1; k < data.length; k++) { const x = data[k]!; if (x < min) min = x; if (x > max) max = x }
    out[i] = { min_value: min, max_value: max, null_count: 0n }
  }
  return data
}

/** Min and max (UTF-8 byte order, as Parquet orders BYTE_ARRAY) and null count of SYMBOL vectors. */
function symbolStats(parts: readonly Vector[]): ChunkStats | undefined {
  let nulls = 0
  let min: string | undefined
  let max: string | undefined
  for (const v of parts) {
    const m = materialize(v)
    // a column of nulls only (a column top); anything else: the library's statistics (never a wrong null count)
    if (m.kind === 'null') { nulls += m.length; continue }
    if (m.kind !== 'sym') return undefined
    const values = m.dict.values
    const seen = new Uint8Array(values.length)
    const d = m.data
    for (let r = 0; r < m.length; r++) { const k = d[r]!; if (k < 0) nulls++; else seen[k] = 1 }
    for (let k = 0; k < seen.length; k++) {
      if (seen[k] === 0) continue
      const x = values[k]!
      if (min === undefined || codePointCompare(x, min) < 0) min = x
      if (max === undefined || codePointCompare(x, max) > 0) max = x
    }
  }
  return { ...(min === undefined ? {} : { min_value: min, max_value: max }), null_count: BigInt(nulls) }
}
