/**
 * The export's fast path: column chunks of DOUBLE, FLOAT, INT, LONG, DATE, TIMESTAMP and
 * TIMESTAMP_NS written as PLAIN data pages v2 straight from the vectors' typed arrays, and SYMBOL
 * chunks as a dictionary page (the row group's distinct symbols) plus RLE_DICTIONARY pages of
 * bit-packed keys. hyparquet-writer, given the same columns, makes a JavaScript array of values,
 * one of definition levels, checks every INT64 against its range and writes each value through
 * a DataView; here a page is its definition levels (one RLE run when nothing is null, else one bit
 * per row), then the values' bytes as they lie in memory, and the min / max / null count come from
 * the same loop.
 *
 * Anything else (nullable REQUIRED columns, bloom filters, other types) answers undefined and goes
 * through hyparquet-writer.
 */
import type { ColumnChunk } from 'hyparquet'
import { INT_NULL, LONG_NULL } from '../types/column-type.js'
import { materialize, type Vector } from '../types/vector.js'
import { type ChunkColumn, type ChunkPlan, type ChunkSink, type PagePlan, compressPages, emitChunk } from './chunk-plan.js'
import { ENCODING } from './page-header.js'

export type { ChunkColumn, ChunkSink } from './chunk-plan.js'

type Physical = 'DOUBLE' | 'FLOAT' | 'INT32' | 'INT64'

/** The physical type the fast path writes for a vector, or undefined when it does not apply. */
function physicalOf(v: Vector): Physical | undefined {
  switch (v.kind) {
    case 'f64': return 'DOUBLE'
    case 'f32': return 'FLOAT'
    case 'i32': return v.type === 'INT' ? 'INT32' : undefined
    case 'i64': return v.type === 'LONG' || v.type === 'DATE' || v.type === 'TIMESTAMP' || v.type === 'TIMESTAMP_NS' ? 'INT64' : undefined
    default: return undefined
  }
}

const TWO32 = 4294967296

/**
 * `parts` as vectors another thread can encode with {@link planPlainChunk}: materialized, each
 * with an array of its own holding just its rows (free to move: a vector's array may be a view
 * of a much larger column), or undefined when the fast path does not take them.
 */
export function portableParts(parts: readonly Vector[]): Vector[] | undefined {
  const vs = parts.map(materialize)
  const phys = vs.length === 0 ? undefined : physicalOf(vs[0]!)
  if (phys === undefined || vs.some((v) => physicalOf(v) !== phys)) return undefined
  return vs.map((v) => ({ kind: v.kind, type: v.type, length: v.length, data: (v.data as Float64Array).slice(0, v.length) }) as Vector)
}

/** Symbol tables up to this many entries go to another thread with a SYMBOL chunk's keys. */
const PORTABLE_SYMBOLS = 1 << 16

/**
 * SYMBOL `parts` as vectors another thread can encode with {@link planSymbolChunk}: their keys
 * copied out, each symbol table as its values only (one object per table, so vectors sharing a
 * table still share it there); undefined when they are not all dictionary-keyed or a table is
 * too large to copy for every row group.
 */
export function portableSymbols(parts: readonly Vector[]): Vector[] | undefined {
  const vs = parts.map(materialize)
  if (vs.length === 0 || vs.some((v) => v.kind !== 'sym' || v.dict.values.length > PORTABLE_SYMBOLS)) return undefined
  const tables = new Map<object, { values: readonly string[] }>()
  return vs.map((v) => {
    const s = v as Extract<Vector, { kind: 'sym' }>
    let table = tables.get(s.dict)
    if (table === undefined) { table = { values: s.dict.values }; tables.set(s.dict, table) }
    return { kind: 'sym', type: s.type, length: s.length, data: s.data.slice(0, s.length), dict: table } as unknown as Vector
  })
}

/** One column of a row group as little-endian fixed-width bytes plus a defined-flag per row. */
interface Flat {
  /** 8 or 4 bytes per row (nulls included, their bytes ignored) */
  readonly bytes: Uint8Array
  readonly width: number
  /** 1 where the row has a value; undefined when none is null */
  readonly defined: Uint8Array | undefined
  readonly nulls: number
  readonly min: number | bigint | undefined
  readonly max: number | bigint | undefined
}

/** DOUBLE / FLOAT / INT32 parts: copied into one array, nulls (NaN, ±Inf, INT_NULL) flagged, min/max. */
function flatNumbers(parts: readonly Vector[], rows: number, phys: Physical): Flat {
  const out = phys === 'DOUBLE' ? new Float64Array(rows) : phys === 'FLOAT' ? new Float32Array(rows) : new Int32Array(rows)
  let defined: Uint8Array | undefined
  let nulls = 0
  let min = Infinity
  let max = -Infinity
  let o = 0
  const int = phys === 'INT32'
  for (const v of parts) {
    // a vector's array may be longer than the vector (a builder's capacity): only its rows count
    const d = (v.data as Float64Array | Float32Array | Int32Array).subarray(0, v.length)
    out.set(d, o)
    for (let i = 0; i < d.length; i++, o++) {
      const x = d[i]!
      if (int ? x === INT_NULL : x - x !== 0) {
        if (defined === undefined) { defined = new Uint8Array(rows); defined.fill(1, 0, o) }
        nulls++
        continue
      }
      if (defined !== undefined) defined[o] = 1
      if (x < min) min = x
      if (x > max) max = x
    }
  }
  const any = min <= max
  // Parquet's rule for floating zeros in statistics: min -0, max +0
  return {
    bytes: new Uint8Array(out.buffer), width: out.BYTES_PER_ELEMENT, defined, nulls,
    min: any ? (min === 0 && !int ? -0 : min) : undefined, max: any ? (max === 0 && !int ? 0 : max) : undefined,
  }
}

/** INT64 parts (safe integers as doubles, or BigInt64Array): little-endian halves, nulls (-2^63) flagged. */
function flatInt64(parts: readonly Vector[], rows: number): Flat {
  const halves = new Int32Array(rows * 2)
  let defined: Uint8Array | undefined
  let nulls = 0
  // min / max as (hi signed, lo unsigned) pairs: no BigInt per row
  let minHi = 0x7fffffff, minLo = 0xffffffff, maxHi = -0x80000000, maxLo = 0
  let any = false
  let o = 0
  const flag = (): void => {
    if (defined === undefined) { defined = new Uint8Array(rows); defined.fill(1, 0, o) }
    nulls++
  }
  for (const v of parts) {
    const d = (v.data as Float64Array | BigInt64Array).subarray(0, v.length)
    if (d instanceof BigInt64Array) halves.set(new Int32Array(d.buffer, d.byteOffset, d.length * 2), o * 2)
    for (let i = 0; i < d.length; i++, o++) {
      let hi: number
      let lo: number
      if (d instanceof BigInt64Array) {
        hi = halves[2 * o + 1]!
        lo = halves[2 * o]! >>> 0
        if (hi === -0x80000000 && lo === 0) { flag(); continue }
      } else {
        const x = d[i]!
        if (x === LONG_NULL) { flag(); continue }
        hi = Math.floor(x / TWO32)
        lo = x - hi * TWO32
        halves[2 * o] = lo
        halves[2 * o + 1] = hi
      }
      if (defined !== undefined) defined[o] = 1
      if (hi < minHi || (hi === minHi && lo < minLo)) { minHi = hi; minLo = lo }
      if (hi > maxHi || (hi === maxHi && lo > maxLo)) { maxHi = hi; maxLo = lo }
      any = true
    }
  }
  const big = (hi: number, lo: number): bigint => (BigInt(hi) << 32n) | BigInt(lo)
  return { bytes: new Uint8Array(halves.buffer), width: 8, defined, nulls, min: any ? big(minHi, minLo) : undefined, max: any ? big(maxHi, maxLo) : undefined }
}

/** The RLE / bit-packed hybrid encoding of 1-bit definition levels for rows [from, to). */
function defLevels(defined: Uint8Array | undefined, from: number, to: number): Uint8Array {
  const n = to - from
  if (defined === undefined) return Uint8Array.from([...uleb(n << 1 >>> 0), 1]) // one run of 1s
  const groups = Math.ceil(n / 8)
  const head = uleb(((groups << 1) | 1) >>> 0)
  const out = new Uint8Array(head.length + groups)
  out.set(head)
  for (let i = 0; i < n; i++) if (defined[from + i] !== 0) out[head.length + (i >> 3)]! |= 1 << (i & 7)
  return out
}

function uleb(v: number): number[] {
  const out: number[] = []
  let x = v >>> 0
  while (x > 0x7f) { out.push((x & 0x7f) | 0x80); x >>>= 7 }
  out.push(x)
  return out
}

/** The non-null rows' bytes of [from, to). */
function pageValues(f: Flat, from: number, to: number): Uint8Array {
  const w = f.width
  if (f.defined === undefined) return f.bytes.subarray(from * w, to * w)
  let n = 0
  for (let i = from; i < to; i++) n += f.defined[i]!
  const out = new Uint8Array(n * w)
  let o = 0
  // runs of defined rows are copied at once
  for (let i = from; i < to;) {
    if (f.defined[i] === 0) { i++; continue }
    let j = i + 1
    while (j < to && f.defined[j] !== 0) j++
    out.set(f.bytes.subarray(i * w, j * w), o)
    o += (j - i) * w
    i = j
  }
  return out
}

/**
 * Writes the row group's chunk of a fixed-width column (`parts`: its vectors, `rows` in all) to
 * `sink`, compressing in place; undefined (nothing written) when the fast path does not apply.
 */
export function writePlainChunk(sink: ChunkSink, col: ChunkColumn, parts: readonly Vector[], rows: number): ColumnChunk | undefined {
  const plan = planPlainChunk(col, parts, rows)
  return plan === undefined ? undefined : emitChunk(sink, col, plan, compressPages(plan, col.compress))
}

/**
 * The pages of the row group's chunk of a fixed-width column, not yet compressed (their values
 * are this chunk's own buffers, free to move to another thread); undefined when the fast path
 * does not apply.
 */
export function planPlainChunk(col: ChunkColumn, parts: readonly Vector[], rows: number): ChunkPlan | undefined {
  const vs = parts.map(materialize)
  const phys = vs.length === 0 ? undefined : physicalOf(vs[0]!)
  if (phys === undefined || rows === 0 || vs.some((v) => physicalOf(v) !== phys)) return undefined
  const f = phys === 'INT64' ? flatInt64(vs, rows) : flatNumbers(vs, rows, phys)
  if (col.required && f.nulls > 0) return undefined
  const pages: PagePlan[] = []
  const per = Math.max(1, Math.floor(col.pageSize / f.width))
  for (let from = 0; from < rows; from += per) {
    const to = Math.min(rows, from + per)
    let nulls = 0
    if (f.defined !== undefined) for (let i = from; i < to; i++) nulls += 1 - f.defined[i]!
    const levels = col.required ? EMPTY : defLevels(f.defined, from, to)
    pages.push({ dictionary: undefined, rows: to - from, nulls, encoding: ENCODING.PLAIN, levels, values: pageValues(f, from, to) })
  }
  return { type: phys, encodings: ['PLAIN', 'RLE'], rows, pages, stats: col.statistics ? { min: f.min, max: f.max, nulls: f.nulls } : undefined }
}

const EMPTY = new Uint8Array(0)
const utf8 = new TextEncoder()

/**
 * Writes the row group's chunk of a SYMBOL column to `sink`, compressing in place; undefined
 * (nothing written) when the vectors are not dictionary-keyed.
 */
export function writeSymbolChunk(sink: ChunkSink, col: ChunkColumn, parts: readonly Vector[], rows: number): ColumnChunk | undefined {
  const plan = planSymbolChunk(col, parts, rows)
  return plan === undefined ? undefined : emitChunk(sink, col, plan, compressPages(plan, col.compress))
}

/**
 * The pages of the row group's chunk of a SYMBOL column: a dictionary page of the symbols the
 * rows use (in first-use order) and RLE_DICTIONARY data pages of their keys, bit-packed, not yet
 * compressed. Undefined when the vectors are not dictionary-keyed.
 */
export function planSymbolChunk(col: ChunkColumn, parts: readonly Vector[], rows: number): ChunkPlan | undefined {
  const vs = parts.map(materialize)
  if (rows === 0 || vs.some((v) => v.kind !== 'sym')) return undefined
  // the row group's keys, renumbered densely per source dictionary
  const keys = new Int32Array(rows)
  const used: string[] = []
  let defined: Uint8Array | undefined
  let nulls = 0
  let o = 0
  const locals = new Map<object, Int32Array>()
  const byText = new Map<string, number>()
  for (const v of vs) {
    const table = (v as Extract<Vector, { kind: 'sym' }>).dict
    let local = locals.get(table)
    if (local === undefined || local.length < table.values.length) {
      const grown = new Int32Array(table.values.length).fill(-1)
      if (local !== undefined) grown.set(local)
      local = grown
      locals.set(table, local)
    }
    const d = (v.data as Int32Array).subarray(0, v.length)
    for (let i = 0; i < d.length; i++, o++) {
      const k = d[i]!
      if (k < 0) {
        if (defined === undefined) { defined = new Uint8Array(rows); defined.fill(1, 0, o) }
        nulls++
        keys[o] = -1
        continue
      }
      if (defined !== undefined) defined[o] = 1
      let m = local[k]!
      if (m < 0) {
        // a symbol met under another source dictionary keeps its one entry
        const s = table.values[k]!
        m = byText.get(s) ?? -1
        if (m < 0) { m = used.length; used.push(s); byText.set(s, m) }
        local[k] = m
      }
      keys[o] = m
    }
  }
  if (col.required && nulls > 0) return undefined
  // no symbol at all (every row null) or too many for the key packing: hyparquet-writer's path
  if (used.length === 0 || used.length > 1 << 24) return undefined
  const pages: PagePlan[] = []
  let min: string | undefined
  let max: string | undefined
  const encoded = used.map((s) => utf8.encode(s))
  let size = 0
  for (const e of encoded) size += 4 + e.length
  const page = new Uint8Array(size)
  const dv = new DataView(page.buffer)
  let p = 0
  for (const e of encoded) { dv.setUint32(p, e.length, true); page.set(e, p + 4); p += 4 + e.length }
  pages.push({ dictionary: used.length, rows: 0, nulls: 0, encoding: ENCODING.PLAIN, levels: EMPTY, values: page })
  if (col.statistics) for (const s of used) { if (min === undefined || codePointCompare(s, min) < 0) min = s; if (max === undefined || codePointCompare(s, max) > 0) max = s }
  const width = Math.max(1, Math.ceil(Math.log2(Math.max(used.length, 1))))
  const per = Math.max(8, Math.floor((col.pageSize * 8) / width) & ~7)
  for (let from = 0; from < rows; from += per) {
    const to = Math.min(rows, from + per)
    let pageNulls = 0
    if (defined !== undefined) for (let i = from; i < to; i++) pageNulls += 1 - defined[i]!
    const levels = col.required ? EMPTY : defLevels(defined, from, to)
    pages.push({ dictionary: undefined, rows: to - from, nulls: pageNulls, encoding: ENCODING.RLE_DICTIONARY, levels, values: bitPackedKeys(keys, from, to, to - from - pageNulls, width) })
  }
  return { type: 'BYTE_ARRAY', encodings: ['PLAIN', 'RLE_DICTIONARY', 'RLE'], rows, pages, stats: col.statistics ? { min, max, nulls } : undefined }
}

/** The bit width byte, then the non-null keys of [from, to) as one bit-packed run (LSB first). */
function bitPackedKeys(keys: Int32Array, from: number, to: number, count: number, width: number): Uint8Array {
  const groups = Math.ceil(count / 8)
  const head = uleb(((groups << 1) | 1) >>> 0)
  const out = new Uint8Array(1 + head.length + groups * width)
  out[0] = width
  out.set(head, 1)
  let o = 1 + head.length
  let acc = 0
  let bits = 0
  for (let i = from; i < to; i++) {
    const k = keys[i]!
    if (k < 0) continue
    acc |= k << bits
    bits += width
    while (bits >= 8) { out[o++] = acc & 0xff; acc >>>= 8; bits -= 8 }
  }
  if (bits > 0) out[o] = acc & 0xff
  return out
}

/** Compares strings by code point (UTF-8 byte order, as Parquet orders BYTE_ARRAY statistics). */
export function codePointCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const sx = x >= 0xd800 && x <= 0xdfff
    const sy = y >= 0xd800 && y <= 0xdfff
    if (sx !== sy) return sx ? 1 : -1
    return x - y
  }
  return a.length - b.length
}
