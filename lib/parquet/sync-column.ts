/**
 * Reads one whole column of a Parquet file synchronously: what a converted partition needs, since
 * a table's cold partitions hand out their columns synchronously (`FilePart.column`). Built on
 * hyparquet's page decoder (`hyparquet/src/column.js`, a public subpath), which is synchronous
 * once the chunk's bytes are in memory; they are read with positioned reads.
 *
 * The decoder modules are loaded by {@link loadSyncColumnReader} (async, once) before the first
 * read; the store loads them when it opens a table with a Parquet partition or converts one.
 */
import { closeSync, openSync } from 'node:fs'
import type { DecodedArray, FileMetaData } from 'hyparquet'
import { readCompressors as compressors } from './snappy-decode.js'
import { SqlError, SqlState } from '../errors.js'
import type { ColumnType } from '../types/column-type.js'
import { type SymbolTable, type Vector, allocate } from '../types/vector.js'
import { RAW_PARSERS, concatChunks, decodeColumn } from './decode-column.js'
import { ParquetFile } from './reader.js'
import { loadFlatChunkReader, pageLib, readFlatVector } from './flat-chunk.js'
import { checkPage, readChunkBytes } from './chunk-bytes.js'
import { readArrayVector } from './array-column.js'
import { isArrayType } from '../types/array-type.js'
import { arrConcat } from '../types/array-vector.js'

interface Decoder {
  readColumn: typeof import('hyparquet/src/column.js').readColumn
  getTreePath: typeof import('hyparquet/src/schema.js').getTreePath
  parquetSchema: typeof import('hyparquet').parquetSchema
  DEFAULT_PARSERS: typeof import('hyparquet/src/convert.js').DEFAULT_PARSERS
}

let decoder: Decoder | undefined

/** Loads the synchronous decoder (idempotent). */
export async function loadSyncColumnReader(): Promise<void> {
  if (decoder !== undefined) return
  const [column, schema, convert, main] = await Promise.all([
    import('hyparquet/src/column.js'), import('hyparquet/src/schema.js'), import('hyparquet/src/convert.js'), import('hyparquet'), loadFlatChunkReader(),
  ])
  decoder = { readColumn: column.readColumn, getTreePath: schema.getTreePath, parquetSchema: main.parquetSchema, DEFAULT_PARSERS: convert.DEFAULT_PARSERS }
}

/**
 * The decoded values of column `name` in row group `g` of an open file (`fd`, footer `md`, schema
 * tree `tree` from {@link schemaTree}): one array per page.
 */
export function readChunk(fd: number, md: FileMetaData, tree: unknown, g: number, name: string, label: string): DecodedArray[] {
  const d = decoder
  if (d === undefined) throw new SqlError(SqlState.INTERNAL_ERROR, 'the Parquet column reader is not loaded', -1)
  const group = md.row_groups[g]!
  const chunk = group.columns.find((c) => c.meta_data?.path_in_schema[0] === name)?.meta_data
  if (chunk === undefined) throw new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${label}: no column ${name}`, -1)
  const start = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset)
  const length = Number(chunk.total_compressed_size)
  const buf = readChunkBytes(fd, start, length, label)
  checkPages(buf, label)
  const schemaPath = d.getTreePath(tree as never, chunk.path_in_schema)
  const rows = Number(group.num_rows)
  try {
    return d.readColumn({ view: new DataView(buf.buffer, buf.byteOffset, length), offset: 0 }, { groupStart: 0, groupRows: rows, selectStart: 0, selectEnd: rows }, {
      pathInSchema: chunk.path_in_schema, element: schemaPath[schemaPath.length - 1]!.element, schemaPath, type: chunk.type, codec: chunk.codec,
      parsers: { ...d.DEFAULT_PARSERS, ...RAW_PARSERS }, compressors, utf8: false,
    }).data
  } catch (err) {
    throw new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${label}: ${(err as Error).message}`, -1)
  }
}

/** Walks a chunk's page headers before hyparquet decodes it: a page past the size limit is refused first. */
function checkPages(buf: Buffer, label: string): void {
  const l = pageLib()
  if (l === undefined) return
  const reader = { view: new DataView(buf.buffer, buf.byteOffset, buf.length), offset: 0 }
  try {
    while (reader.offset < buf.length - 1) {
      const h = l.parquetHeader(reader)
      checkPage(h, label)
      reader.offset += h.compressed_page_size
    }
  } catch (err) {
    if (err instanceof SqlError) throw err
    throw new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${label}: ${(err as Error).message}`, -1)
  }
}

/** The schema tree {@link readChunk} needs. */
export function schemaTree(md: FileMetaData): unknown {
  if (decoder === undefined) throw new SqlError(SqlState.INTERNAL_ERROR, 'the Parquet column reader is not loaded', -1)
  return decoder.parquetSchema(md)
}

/** Column `name` of the Parquet file at `path`, whole, as a vector of `type` (SYMBOL keys from `dict`). */
export function readParquetColumn(path: string, name: string, type: ColumnType, dict: SymbolTable | undefined): Vector {
  const file = ParquetFile.open(path)
  const md = file.metadata
  const tree = schemaTree(md)
  const fd = openSync(path, 'r')
  try {
    if (isArrayType(type)) return arrConcat(type, md.row_groups.map((_, g) => readArrayVector(fd, md, tree, g, name, path, type)))
    // flat DOUBLE / INT64 / SYMBOL chunks straight into typed arrays (flat-chunk.ts), else the general path
    const fast: Vector[] = []
    for (let g = 0; g < md.row_groups.length; g++) {
      const v = readFlatVector(fd, md, tree, g, name, path, type, dict)
      if (v === undefined) break
      fast.push(v)
    }
    if (fast.length === md.row_groups.length) return concatVectors(type, fast, dict)
    const parts: DecodedArray[] = []
    for (let g = 0; g < md.row_groups.length; g++) for (const x of readChunk(fd, md, tree, g, name, path)) parts.push(x)
    return decodeColumn(type, concatChunks(parts), dict)
  } finally {
    closeSync(fd)
  }
}

/** One vector of `type` holding `parts` (typed-array vectors of one column, SYMBOL keys of `dict`) in order. */
function concatVectors(type: ColumnType, parts: readonly Vector[], dict: SymbolTable | undefined): Vector {
  if (parts.length === 1) return parts[0]!
  let total = 0
  for (const p of parts) total += p.length
  // TIMESTAMP_NS parts are BigInt64Arrays
  const out: Vector = parts[0]!.data instanceof BigInt64Array ? { kind: 'i64', type, length: total, data: new BigInt64Array(total) } : allocate(type, total, dict)
  const dst = out.data as Float64Array | Int32Array
  let o = 0
  for (const p of parts) { dst.set(p.data as Float64Array | Int32Array, o); o += p.length }
  return out
}
