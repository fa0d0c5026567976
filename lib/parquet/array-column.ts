/**
 * `DOUBLE[]..[]` from Parquet: a column of nested LISTs of DOUBLE (EpochDB's and QuestDB's export,
 * DuckDB's `DOUBLE[]`, Arrow's `list<double>`), decoded from its repetition and definition levels
 * straight into an array vector (flat elements, offsets, shapes), without hyparquet's nested
 * JavaScript arrays.
 *
 * EpochDB arrays are rectangular: a row whose lists are ragged (`[[1], [2, 3]]`) or have a null
 * inner list is refused with 22P02 naming the column. A null array (the top list null) is NULL, an
 * empty one (or one whose inner lists are all empty) is an empty array, a null element is NaN.
 */
import type { FileMetaData, SchemaElement } from 'hyparquet'
import { readCompressors as compressors } from './snappy-decode.js'
import { readChunkBytes } from './chunk-bytes.js'
import { SqlError, SqlState } from '../errors.js'
import type { ColumnType } from '../types/column-type.js'
import { ArrBuilder, type ArrVector } from '../types/array-vector.js'
import { chunkPages, dictionaryValues, pageLib } from './flat-chunk.js'

/** Definition-level thresholds of a nested DOUBLE list column. */
interface Levels {
  /** below this the array is null */
  readonly present: number
  /** `rep[k]`: at or above this level k+1's list has an item (k = 0..dims-1) */
  readonly item: readonly number[]
  /** the leaf's maximum definition level: a non-null element */
  readonly max: number
}

function levelsOf(path: readonly SchemaElement[]): Levels {
  let def = 0
  let present = 0
  const item: number[] = []
  for (let i = 1; i < path.length; i++) {
    const el = path[i]!
    if (el.repetition_type !== 'REQUIRED') def++
    if (i === 1) present = def
    if (el.repetition_type === 'REPEATED') item.push(def)
  }
  return { present, item, max: def }
}

function corrupt(label: string, why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${label}: ${why}`, -1)
}

/** Rebuilds rows from levels: one row is buffered (its levels' entries) until the next starts. */
class RowAssembler {
  private readonly b: ArrBuilder
  private readonly dims: number
  /** entries of the current row: repetition levels, and whether each is an element */
  private reps: number[] = []
  private vals: number[] = []
  private started = false
  private nullRow = false
  private empties = 0
  rows = 0

  constructor(type: ColumnType, private readonly lv: Levels, private readonly name: string, rows: number) {
    this.b = new ArrBuilder(type, rows, rows * 4)
    this.dims = lv.item.length
  }

  /** One (repetition, definition) entry with its element (NaN when null). */
  add(r: number, d: number, value: number): void {
    if (r === 0) { this.flush(); this.started = true; this.nullRow = d < this.lv.present; this.empties = 0 }
    if (this.nullRow) return
    if (d < this.lv.item[0]!) return // an empty top list: the row stays empty
    if (d < this.lv.item[this.dims - 1]!) { this.empties++; return } // an empty (or null) inner list
    this.reps.push(r)
    this.vals.push(value)
  }

  /** Ends the buffered row. */
  flush(): void {
    if (!this.started) return
    this.started = false
    this.rows++
    const n = this.vals.length
    if (this.nullRow) { this.b.pushNull(); return }
    if (n === 0) { this.b.pushRaw(EMPTY_SHAPE, EMPTY, 0, 0); return }
    if (this.empties > 0) throw ragged(this.name)
    // entries with repetition level <= k start a new list at level k+1: there are shape[0] * ..
    // * shape[k-1] of them (the row's first entry, level 0, counts), and n elements in all
    const dims = this.dims
    const shape = new Array<number>(dims)
    let prev = 1
    for (let k = 0; k < dims; k++) {
      let c = n
      if (k < dims - 1) { c = 0; for (let i = 0; i < n; i++) if (this.reps[i]! <= k + 1) c++ }
      if (c % prev !== 0) throw ragged(this.name)
      shape[k] = c / prev
      prev = c
    }
    // rectangular: an item starting a level-k list sits every stride(k) elements, and nowhere else
    let stride = n
    for (let k = 0; k < dims - 1; k++) {
      stride /= shape[k]!
      for (let i = 1; i < n; i++) if ((this.reps[i]! <= k + 1) !== (i % stride === 0)) throw ragged(this.name)
    }
    this.b.pushRaw(shape, Float64Array.from(this.vals), 0, n)
    this.reps = []
    this.vals = []
  }

  finish(): ArrVector {
    this.flush()
    return this.b.finish()
  }
}

const EMPTY = new Float64Array(0)
const EMPTY_SHAPE: number[] = []

function ragged(name: string): SqlError {
  return new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `column ${name}: a ragged or partly null list cannot be read as a DOUBLE array`, -1)
}

/**
 * Column `name` (a nested DOUBLE list) of row group `g` of the open file `fd` as a vector of the
 * array `type`; `tree` is the file's schema tree.
 */
export function readArrayVector(fd: number, md: FileMetaData, tree: unknown, g: number, name: string, label: string, type: ColumnType): ArrVector {
  const l = pageLib()
  if (l === undefined) throw new SqlError(SqlState.INTERNAL_ERROR, 'the Parquet page reader is not loaded', -1)
  const group = md.row_groups[g]!
  const chunk = group.columns.find((c) => c.meta_data?.path_in_schema[0] === name)?.meta_data
  if (chunk === undefined) throw corrupt(label, `no column ${name}`)
  const schemaPath = l.getTreePath(tree as never, chunk.path_in_schema)
  const path = schemaPath.map((n) => n.element)
  const element = path[path.length - 1]!
  const lv = levelsOf(path)
  const start = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset)
  const length = Number(chunk.total_compressed_size)
  const buf = readChunkBytes(fd, start, length, label)
  const rows = Number(group.num_rows)
  const out = new RowAssembler(type, lv, name, rows)
  const decoder = { pathInSchema: chunk.path_in_schema, type: chunk.type, element, schemaPath, codec: chunk.codec, compressors, parsers: {} as never, utf8: false }
  let dictionary: Float64Array | undefined
  try {
    for (const { header, bytes } of chunkPages(l, buf, length, label)) {
      if (header.type === 'DICTIONARY_PAGE') {
        const values = dictionaryValues(l, header, bytes, chunk, element)
        if (!(values instanceof Float64Array)) throw corrupt(label, `column ${name}: dictionary of ${chunk.type}`)
        dictionary = values
        continue
      }
      let page: { definitionLevels: number[] | undefined; repetitionLevels: number[]; dataPage: ArrayLike<unknown> }
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
      const data = page.dataPage
      if (!keyed && !(data instanceof Float64Array)) throw corrupt(label, `column ${name}: values are not doubles`)
      // hyparquet leaves the definition levels out when every one is the maximum
      const def = page.definitionLevels ?? []
      const rep = page.repetitionLevels
      if (def.length > 0 && rep.length !== def.length) throw corrupt(label, `column ${name}: ${rep.length} repetition levels for ${def.length} definition levels`)
      let v = 0
      for (let i = 0; i < rep.length; i++) {
        const d = def.length > 0 ? def[i]! : lv.max
        let x = NaN
        if (d === lv.max) {
          if (v >= data.length) throw corrupt(label, `column ${name}: fewer values than definition levels`)
          const raw = data[v++] as number
          if (keyed) { if (!(raw < dictionary!.length)) throw corrupt(label, `column ${name}: dictionary index ${raw} out of range`); x = dictionary![raw]! } else x = raw
        }
        out.add(rep[i]!, d, x)
        if (out.rows > rows) throw corrupt(label, `column ${name} has more rows than its row group's ${rows}`)
      }
    }
    const vec = out.finish()
    if (vec.length !== rows) throw corrupt(label, `column ${name} has ${vec.length} values in a row group of ${rows} rows`)
    return vec
  } catch (err) {
    if (err instanceof SqlError) throw err
    throw corrupt(label, (err as Error).message)
  }
}
