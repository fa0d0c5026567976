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
import type { ColumnChunk, FileMetaData, PageHeader, SchemaElement } from 'hyparquet'
import { readCompressors as compressors, snappyDecodeView } from './snappy-decode.js'
import { checkPage, readChunkBytes } from './chunk-bytes.js'
import { SqlError, SqlState } from '../errors.js'
import type { ColumnType } from '../types/column-type.js'
import { type SymbolTable, type Vector, allocate } from '../types/vector.js'
import { type FlatPage, decodeFlatPage } from './page-decode.js'

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
const NS_NULL = -9223372036854775808n

/** A dictionary page's values as the vector's own: numbers, interned SYMBOL keys, or strings. */
type Dictionary = Float64Array | Int32Array | readonly string[]

/** True when the fast path does not apply to the chunk. */
function unsupported(type: ColumnType, chunk: ColumnChunk['meta_data'], element: SchemaElement, depth: number): boolean {
  if (chunk === undefined || depth !== 2 || element.repetition_type === 'REPEATED') return true
  switch (type) {
    case 'DOUBLE': return chunk.type !== 'DOUBLE'
    case 'TIMESTAMP_NS': {
      const lt = element.logical_type
      return chunk.type !== 'INT64' || lt?.type !== 'TIMESTAMP' || lt.unit !== 'NANOS'
    }
    case 'LONG': case 'TIMESTAMP': {
      if (chunk.type !== 'INT64') return true
      const lt = element.logical_type
      if (lt === undefined) return element.converted_type !== undefined && element.converted_type !== 'TIMESTAMP_MICROS' && element.converted_type !== 'INT_64'
      if (lt.type === 'TIMESTAMP') return lt.unit !== 'MICROS'
      return lt.type !== 'INTEGER'
    }
    case 'SYMBOL': case 'VARCHAR': case 'STRING': return chunk.type !== 'BYTE_ARRAY'
    case 'INT': return chunk.type !== 'INT32' || (element.converted_type !== undefined && element.converted_type !== 'INT_32') || (element.logical_type !== undefined && element.logical_type.type !== 'INTEGER')
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
  const buf = readChunkBytes(fd, start, length, label)
  const rows = Number(group.num_rows)
  const out = unfilled(type, rows, dict)
  const maxDef = element.repetition_type === 'REQUIRED' ? 0 : 1
  const strings = type === 'VARCHAR' || type === 'STRING'
  let dictionary: Dictionary | undefined
  let row = 0
  try {
    for (const { header, bytes } of rows === 0 ? [] : chunkPages(l, buf, length, label)) {
      if (header.type === 'DICTIONARY_PAGE') {
        dictionary = dictionaryOf(type, dictionaryValues(l, header, bytes, chunk, element), out.vector)
        if (dictionary === undefined) return undefined
        continue
      }
      // a data page's values are placed into the vector before the next page is decompressed
      const page = decodeFlatPage(header, bytes, maxDef, chunk.codec === 'SNAPPY' ? snappyDecodeView : (b, size) => l.decompressPage(b, size, chunk.codec, compressors))
      if (page === undefined) return undefined
      if (page.keys !== undefined && dictionary === undefined) throw corrupt(label, `column ${name}: dictionary-encoded page without a dictionary`)
      if (page.keys === undefined && (type === 'SYMBOL' || strings)) return undefined
      const next = place(out.vector, out.nullValue, row, rows, page, dictionary, chunk.type)
      if (next < 0) return undefined
      row = next
      if (row >= rows) break
    }
  } catch (err) {
    if (err instanceof SqlError) throw err
    throw corrupt(label, (err as Error).message)
  }
  if (row !== rows) throw corrupt(label, `column ${name} has ${row} values in a row group of ${rows} rows`)
  return out.vector
}

/**
 * A vector of `rows` rows of `type` whose typed array is not filled with the null value (each
 * page's values and nulls are written by {@link place}: a page's values are most often copied
 * at once and a fill first would write every row twice), and that null value.
 */
function unfilled(type: ColumnType, rows: number, dict: SymbolTable | undefined): { vector: Vector; nullValue: unknown } {
  // TIMESTAMP_NS values are past 2^53: their vector is a BigInt64Array (the null sentinel -2^63)
  if (type === 'TIMESTAMP_NS') return { vector: { kind: 'i64', type, length: rows, data: new BigInt64Array(rows) }, nullValue: NS_NULL }
  const one = allocate(type, 1, dict)
  const d = one.data as unknown
  const nullValue = (d as ArrayLike<unknown>)[0]
  if (d instanceof Float64Array) return { vector: { ...one, length: rows, data: new Float64Array(rows) } as Vector, nullValue }
  if (d instanceof Int32Array) return { vector: { ...one, length: rows, data: new Int32Array(rows) } as Vector, nullValue }
  return { vector: allocate(type, rows, dict), nullValue }
}

/**
 * A column chunk's pages in file order, each header checked against the reader's limits
 * ({@link checkPage}) before its bytes are sliced; `bytes` is still compressed.
 */
export function* chunkPages(l: PageLib, buf: Uint8Array, length: number, label: string): Generator<{ header: PageHeader; bytes: Uint8Array }> {
  const reader = { view: new DataView(buf.buffer, buf.byteOffset, length), offset: 0 }
  while (reader.offset < length - 1) {
    const header = l.parquetHeader(reader)
    checkPage(header, label)
    const bytes = new Uint8Array(buf.buffer, buf.byteOffset + reader.offset, header.compressed_page_size)
    reader.offset += header.compressed_page_size
    yield { header, bytes }
  }
}

/** A dictionary page's values: decompressed and read as plain values of the chunk's physical type. */
export function dictionaryValues(l: PageLib, header: PageHeader, bytes: Uint8Array, chunk: ColumnChunk['meta_data'] & object, element: SchemaElement): ArrayLike<unknown> {
  const page = l.decompressPage(bytes, header.uncompressed_page_size, chunk.codec, compressors)
  return l.readPlain({ view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 }, chunk.type, header.dictionary_page_header!.num_values, element.type_length) as ArrayLike<unknown>
}

/** The dictionary's values for `type`: numbers, or keys of `out`'s symbol table; undefined to give up. */
function dictionaryOf(type: ColumnType, values: ArrayLike<unknown>, out: Vector): Dictionary | undefined {
  if (type === 'VARCHAR' || type === 'STRING') {
    const strs: string[] = new Array(values.length)
    for (let i = 0; i < values.length; i++) { const v = values[i]; strs[i] = v instanceof Uint8Array ? utf8.decode(v) : String(v) }
    return strs
  }
  if (type === 'SYMBOL') {
    const table = (out as { dict: SymbolTable }).dict
    const keys = new Int32Array(values.length)
    for (let i = 0; i < values.length; i++) { const v = values[i]; keys[i] = table.intern(v instanceof Uint8Array ? utf8.decode(v) : String(v)) }
    return keys
  }
  if (values instanceof Float64Array) return values
  if (values instanceof Int32Array) return values
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

/** `plain`'s bytes as an array of `T` (a view when aligned, else an aligned copy). */
function view<T>(plain: Uint8Array, width: number, count: number, make: (b: ArrayBuffer, off: number, n: number) => T): T {
  if (plain.length < count * width) throw pageError(`page holds ${plain.length} bytes for ${count} values of ${width}`)
  if (plain.byteOffset % width === 0) return make(plain.buffer as ArrayBuffer, plain.byteOffset, count)
  return make(plain.slice(0, count * width).buffer as ArrayBuffer, 0, count)
}

/**
 * Places one page's values at `row` of `out`, and `nullValue` at its null rows; dictionary keys
 * are looked up in `dictionary`. Returns the next row, or -1 to give up (an INT64 beyond 2^53,
 * a physical type the vector does not take).
 */
function place(out: Vector, nullValue: unknown, row: number, rows: number, page: FlatPage, dictionary: Dictionary | undefined, physical: string): number {
  const n = page.rows
  const k = page.count
  if (row + n > rows) throw pageError(`page of ${n} values past the row group's ${rows} rows`)
  const def = page.defined
  if (page.keys !== undefined) {
    const d = dictionary!
    const keys = page.keys
    const dst = out.data as unknown as { [i: number]: unknown }
    let v = 0
    for (let i = 0; i < n; i++) {
      if (def !== undefined && def[i] === 0) { dst[row + i] = nullValue; continue }
      const key = keys[v++]!
      if (!(key >= 0 && key < d.length)) throw pageError(`dictionary index ${key} out of range`)
      dst[row + i] = d[key]!
    }
    return row + n
  }
  const plain = page.plain!
  let values: Float64Array | Int32Array
  if (physical === 'DOUBLE' && out.data instanceof Float64Array) {
    if (def === undefined) {
      // no null: the page's bytes are the typed array's bytes
      if (plain.length < k * 8) throw pageError('page shorter than its values')
      new Uint8Array(out.data.buffer, out.data.byteOffset + row * 8, k * 8).set(plain.subarray(0, k * 8))
      return row + n
    }
    values = view(plain, 8, k, (b, o, c) => new Float64Array(b, o, c))
  } else if (physical === 'INT32' && out.data instanceof Int32Array) {
    values = view(plain, 4, k, (b, o, c) => new Int32Array(b, o, c))
  } else if (physical === 'INT64' && out.data instanceof BigInt64Array) {
    // 64-bit values kept as they are: bytes copied, nulls placed as 32-bit halves (no BigInt per row)
    if (plain.length < k * 8) throw pageError('page shorter than its values')
    if (def === undefined) {
      new Uint8Array(out.data.buffer, out.data.byteOffset + row * 8, k * 8).set(plain.subarray(0, k * 8))
      return row + n
    }
    const src = view(plain, 8, k, (b, o, c) => new Int32Array(b, o, c * 2))
    const dst = new Int32Array(out.data.buffer, out.data.byteOffset, out.data.length * 2)
    let v = 0
    for (let i = 0; i < n; i++) {
      if (def[i] === 0) { dst[2 * (row + i)] = 0; dst[2 * (row + i) + 1] = -0x80000000; continue }
      dst[2 * (row + i)] = src[2 * v]!
      dst[2 * (row + i) + 1] = src[2 * v + 1]!
      v++
    }
    return row + n
  } else if (physical === 'INT64' && out.data instanceof Float64Array) {
    const halves = view(plain, 8, k, (b, o, c) => new Int32Array(b, o, c * 2))
    const nums = new Float64Array(k)
    for (let i = 0; i < k; i++) {
      const hi = halves[2 * i + 1]!
      if (hi >= 0x200000 || hi < -0x200000) return -1
      nums[i] = hi * TWO32 + (halves[2 * i]! >>> 0)
    }
    values = nums
  } else return -1
  const dst = out.data as Float64Array | Int32Array
  if (def === undefined) { dst.set(values.subarray(0, n), row); return row + n }
  const none = nullValue as number
  let v = 0
  for (let i = 0; i < n; i++) dst[row + i] = def[i] !== 0 ? values[v++]! : none
  return row + n
}

/** A page that contradicts its metadata (the caller adds the file's name: {@link corrupt}). */
function pageError(why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, why, -1)
}

function corrupt(label: string, why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${label}: ${why}`, -1)
}
