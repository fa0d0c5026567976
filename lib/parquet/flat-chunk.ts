/**
 * The fast path of `read_parquet` and of Parquet partitions: a flat column chunk of DOUBLE,
 * INT64 (plain or TIMESTAMP(MICROS)) or dictionary-encoded strings read as SYMBOL, decoded page
 * by page straight into the vector's typed array. hyparquet's whole-column reader builds a plain
 * JavaScript array per page (one boxed number or one string per value) and places the nulls
 * value by value before {@link decodeColumn} copies it again; here a page's values land in the
 * typed array in one pass, a dictionary's strings are interned once per chunk and rows get their
 * keys, and INT64 values are read as two 32-bit halves instead of one BigInt each.
 *
 * Anything else (nested columns, other types, plain strings, values beyond 2^53) answers
 * `undefined` and takes the general path ({@link readChunk} + {@link decodeColumn}).
 */
import { readSync } from 'node:fs'
import type { ColumnChunk, FileMetaData, SchemaElement } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { SqlError, SqlState } from '../errors.js'
import type { ColumnType } from '../types/column-type.js'
import { type SymbolTable, type Vector, allocate } from '../types/vector.js'

/** hyparquet's page-level decoder functions (internal modules, loaded by {@link loadFlatChunkReader}). */
export interface PageLib {
  parquetHeader: typeof import('hyparquet/src/column.js').parquetHeader
  readDataPage: typeof import('hyparquet/src/datapage.js').readDataPage
  readDataPageV2: typeof import('hyparquet/src/datapage.js').readDataPageV2
  decompressPage: typeof import('hyparquet/src/datapage.js').decompressPage
  readPlain: typeof import('hyparquet/src/plain.js').readPlain
  getTreePath: typeof import('hyparquet/src/schema.js').getTreePath
}

let lib: PageLib | undefined

/** The page decoder once {@link loadFlatChunkReader} has run, else undefined. */
export function pageLib(): PageLib | undefined {
  return lib
}

/** Loads the page decoder's modules (idempotent); until then {@link readFlatVector} answers undefined. */
export async function loadFlatChunkReader(): Promise<void> {
  if (lib !== undefined) return
  const [column, datapage, plain, schema] = await Promise.all([
    import('hyparquet/src/column.js'), import('hyparquet/src/datapage.js'), import('hyparquet/src/plain.js'), import('hyparquet/src/schema.js'),
  ])
  lib = { parquetHeader: column.parquetHeader, readDataPage: datapage.readDataPage, readDataPageV2: datapage.readDataPageV2, decompressPage: datapage.decompressPage, readPlain: plain.readPlain, getTreePath: schema.getTreePath }
}

const utf8 = new TextDecoder()
const TWO32 = 4294967296

/** A dictionary page's values as the vector's own: numbers, or interned SYMBOL keys. */
type Dictionary = Float64Array | Int32Array

/** True when the fast path does not apply to the chunk. */
function unsupported(type: ColumnType, chunk: ColumnChunk['meta_data'], element: SchemaElement, depth: number): boolean {
  if (chunk === undefined || depth !== 2 || element.repetition_type === 'REPEATED') return true
  switch (type) {
    case 'DOUBLE': return chunk.type !== 'DOUBLE'
    case 'LONG': case 'TIMESTAMP': {
      if (chunk.type !== 'INT64') return true
      const lt = element.logical_type
      if (lt === undefined) return element.converted_type !== undefined && element.converted_type !== 'TIMESTAMP_MICROS' && element.converted_type !== 'INT_64'
      if (lt.type === 'TIMESTAMP') return lt.unit !== 'MICROS'
      return lt.type !== 'INTEGER'
    }
    case 'SYMBOL': return chunk.type !== 'BYTE_ARRAY'
    default: return true
  }
}

/**
 * Column `name` of row group `g` as a vector of `type` (SYMBOL keys interned in `dict`), or
 * undefined when the fast path does not apply. `fd` is the open file, `tree` its schema tree.
 */
export function readFlatVector(fd: number, md: FileMetaData, tree: unknown, g: number, name: string, label: string, type: ColumnType, dict: SymbolTable | undefined): Vector | undefined {
  const l = lib
  if (l === undefined) return undefined
  const group = md.row_groups[g]!
  const chunk = group.columns.find((c) => c.meta_data?.path_in_schema[0] === name)?.meta_data
  if (chunk === undefined) return undefined
  const schemaPath = l.getTreePath(tree as never, chunk.path_in_schema)
  const element = schemaPath[schemaPath.length - 1]!.element
  if (unsupported(type, chunk, element, schemaPath.length)) return undefined
  const start = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset)
  const length = Number(chunk.total_compressed_size)
  const buf = Buffer.allocUnsafe(length)
  let got = 0
  while (got < length) { const n = readSync(fd, buf, got, length - got, start + got); if (n === 0) break; got += n }
  if (got < length) throw corrupt(label, 'column chunk past the end of the file')
  const rows = Number(group.num_rows)
  const out = allocate(type, rows, dict)
  const dst = out.data as Float64Array | Int32Array
  const decoder = { pathInSchema: chunk.path_in_schema, type: chunk.type, element, schemaPath, codec: chunk.codec, compressors, parsers: {} as never, utf8: false }
  const reader = { view: new DataView(buf.buffer, buf.byteOffset, length), offset: 0 }
  let dictionary: Dictionary | undefined
  let row = 0
  try {
    while (row < rows && reader.offset < length - 1) {
      const header = l.parquetHeader(reader)
      const bytes = new Uint8Array(buf.buffer, buf.byteOffset + reader.offset, header.compressed_page_size)
      reader.offset += header.compressed_page_size
      if (header.type === 'DICTIONARY_PAGE') {
        const page = l.decompressPage(bytes, header.uncompressed_page_size, chunk.codec, compressors)
        const values = l.readPlain({ view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 }, chunk.type, header.dictionary_page_header!.num_values, element.type_length)
        dictionary = dictionaryOf(type, values as ArrayLike<unknown>, out)
        if (dictionary === undefined) return undefined
        continue
      }
      let page: { definitionLevels: number[] | undefined; dataPage: ArrayLike<unknown> }
      let encoding: string
      if (header.type === 'DATA_PAGE_V2') {
        page = l.readDataPageV2(bytes, header, decoder) as never
        encoding = header.data_page_header_v2!.encoding
      } else if (header.type === 'DATA_PAGE') {
        const raw = l.decompressPage(bytes, header.uncompressed_page_size, chunk.codec, compressors)
        page = l.readDataPage(raw, header.data_page_header!, decoder) as never
        encoding = header.data_page_header!.encoding
      } else continue
      const keyed = encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY'
      if (keyed && dictionary === undefined) throw corrupt(label, `column ${name}: dictionary-encoded page without a dictionary`)
      if (!keyed && type === 'SYMBOL') return undefined
      const next = place(dst, row, rows, page.definitionLevels, page.dataPage, keyed ? dictionary : undefined, type === 'LONG' || type === 'TIMESTAMP')
      if (next < 0) return undefined
      row = next
    }
  } catch (err) {
    if (err instanceof SqlError) throw err
    throw corrupt(label, (err as Error).message)
  }
  if (row !== rows) throw corrupt(label, `column ${name} has ${row} values in a row group of ${rows} rows`)
  return out
}

/** The dictionary's values for `type`: numbers, or keys of `out`'s symbol table; undefined to give up. */
function dictionaryOf(type: ColumnType, values: ArrayLike<unknown>, out: Vector): Dictionary | undefined {
  if (type === 'SYMBOL') {
    const table = (out as { dict: SymbolTable }).dict
    const keys = new Int32Array(values.length)
    for (let i = 0; i < values.length; i++) { const v = values[i]; keys[i] = table.intern(v instanceof Uint8Array ? utf8.decode(v) : String(v)) }
    return keys
  }
  if (values instanceof Float64Array) return values
  if (values instanceof BigInt64Array) return int64Numbers(values) ?? undefined
  return undefined
}

/** INT64 values as numbers, read as two 32-bit halves; undefined when one is beyond 2^53. */
function int64Numbers(v: BigInt64Array): Float64Array | undefined {
  const halves = new Int32Array(v.buffer, v.byteOffset, v.length * 2)
  const out = new Float64Array(v.length)
  for (let i = 0; i < v.length; i++) {
    const hi = halves[2 * i + 1]!
    if (hi >= 0x200000 || hi < -0x200000) return undefined
    out[i] = hi * TWO32 + (halves[2 * i]! >>> 0)
  }
  return out
}

/**
 * Places one page's values at `row` of `dst` (nulls, where the definition level is 0, keep the
 * sentinel `allocate` filled in); values are dictionary indexes when `dictionary` is given.
 * Returns the next row, or -1 to give up (an INT64 beyond 2^53).
 */
function place(dst: Float64Array | Int32Array, row: number, rows: number, def: number[] | undefined, data: ArrayLike<unknown>, dictionary: Dictionary | undefined, int64: boolean): number {
  const n = def !== undefined && def.length > 0 ? def.length : data.length
  if (row + n > rows) throw pageError(`page of ${n} values past the row group's ${rows} rows`)
  let values: ArrayLike<number>
  if (dictionary !== undefined) {
    const idx = data as ArrayLike<number>
    const d = dictionary
    const mapped = new (d.constructor as new (n: number) => Float64Array | Int32Array)(idx.length)
    for (let i = 0; i < idx.length; i++) { const k = idx[i]!; if (k >= d.length) throw pageError(`dictionary index ${k} out of range`); mapped[i] = d[k]! }
    values = mapped
  } else if (int64) {
    if (!(data instanceof BigInt64Array)) return -1
    const nums = int64Numbers(data)
    if (nums === undefined) return -1
    values = nums
  } else {
    if (!(data instanceof Float64Array)) return -1
    values = data
  }
  if (values.length === n) {
    dst.set(values as Float64Array, row)
    return row + n
  }
  let v = 0
  for (let i = 0; i < n; i++) if (def![i] !== 0) dst[row + i] = values[v++]!
  if (v !== values.length) throw pageError('definition levels do not match the page\'s values')
  return row + n
}

/** A page that contradicts its metadata (the caller adds the file's name: {@link corrupt}). */
function pageError(why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, why, -1)
}

function corrupt(label: string, why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${label}: ${why}`, -1)
}
