/**
 * A column chunk of the export's fast path between encoding and writing: its pages' levels and
 * values as they are before compression, then (once their bodies are compressed, here or in a
 * compression worker) written as page headers and bytes with the chunk's metadata. Splitting the
 * two lets the writer compress a row group's pages on other threads while it encodes the next,
 * and still write byte for byte what compressing in place writes.
 */
import type { ColumnChunk } from 'hyparquet'
import { pageHeader } from './page-header.js'

/** Where encoded bytes are appended (hyparquet-writer's ByteWriter: `offset` is the file position). */
export interface ChunkSink {
  readonly offset: number
  appendBytes(b: Uint8Array): void
}

/** What the encoder needs of the column and the file. */
export interface ChunkColumn {
  readonly name: string
  /** the designated timestamp: REQUIRED, no definition levels */
  readonly required: boolean
  /** Parquet's codec name written in the metadata */
  readonly codec: string
  /** the codec's compressor (absent: UNCOMPRESSED) */
  readonly compress: ((b: Uint8Array) => Uint8Array) | undefined
  /** target uncompressed bytes per data page */
  readonly pageSize: number
  /** compute min / max / null count */
  readonly statistics: boolean
}

/** One page before compression: a dictionary page (`dictionary` entries) or a data page v2. */
export interface PagePlan {
  /** a dictionary page's entry count; undefined for a data page */
  readonly dictionary: number | undefined
  /** a data page's rows, nulls and value encoding (page-header.ts ENCODING) */
  readonly rows: number
  readonly nulls: number
  readonly encoding: number
  /** definition levels (never compressed; empty for a dictionary page or a REQUIRED column) */
  readonly levels: Uint8Array
  /** the values' bytes, to be compressed (empty once compressed elsewhere: see `valuesLength`) */
  readonly values: Uint8Array
  /** the values' length, when `values` was dropped after compression on another thread */
  readonly valuesLength?: number
}

/** A column chunk's pages and metadata facts, ready to be compressed and written. */
export interface ChunkPlan {
  readonly type: 'DOUBLE' | 'FLOAT' | 'INT32' | 'INT64' | 'BYTE_ARRAY'
  readonly encodings: readonly string[]
  readonly rows: number
  readonly pages: readonly PagePlan[]
  /** min / max / null count (undefined: statistics off) */
  readonly stats: { min: unknown; max: unknown; nulls: number } | undefined
}

/** The pages' compressed bodies, in order, by `compress` (absent: the values as they are). */
export function compressPages(plan: ChunkPlan, compress: ((b: Uint8Array) => Uint8Array) | undefined): Uint8Array[] {
  return plan.pages.map((p) => (compress === undefined ? p.values : compress(p.values)))
}

/** Appends the chunk's pages (`bodies`: their compressed values, in order) to `sink`; its metadata. */
export function emitChunk(sink: ChunkSink, col: ChunkColumn, plan: ChunkPlan, bodies: readonly Uint8Array[]): ColumnChunk {
  const start = sink.offset
  let uncompressed = 0
  let dictStart: number | undefined
  let dataStart: number | undefined
  plan.pages.forEach((p, i) => {
    const body = bodies[i]!
    const size = p.valuesLength ?? p.values.length
    if (p.dictionary !== undefined) {
      const header = pageHeader(size, body.length, { dictionary: p.dictionary })
      dictStart = sink.offset
      sink.appendBytes(header)
      sink.appendBytes(body)
      uncompressed += header.length + size
      return
    }
    dataStart ??= sink.offset
    const header = pageHeader(p.levels.length + size, p.levels.length + body.length, {
      data: { numValues: p.rows, numNulls: p.nulls, numRows: p.rows, encoding: p.encoding, defLength: p.levels.length, repLength: 0, compressed: col.compress !== undefined },
    })
    sink.appendBytes(header)
    sink.appendBytes(p.levels)
    sink.appendBytes(body)
    uncompressed += header.length + p.levels.length + size
  })
  const end = sink.offset
  const stats = plan.stats
  return {
    file_offset: BigInt(start),
    meta_data: {
      type: plan.type, encodings: [...plan.encodings] as never, path_in_schema: [col.name], codec: col.codec as never, num_values: BigInt(plan.rows),
      total_uncompressed_size: BigInt(uncompressed), total_compressed_size: BigInt(end - start),
      data_page_offset: BigInt(dataStart ?? end), ...(dictStart === undefined ? {} : { dictionary_page_offset: BigInt(dictStart) }),
      ...(stats === undefined ? {} : { statistics: { null_count: BigInt(stats.nulls), ...(stats.min === undefined ? {} : { min_value: stats.min as never, max_value: stats.max as never }) } }),
    },
  }
}
