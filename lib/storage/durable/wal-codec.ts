/**
 * WAL record payloads (msgpack, plain maps — no msgpackr extensions, so any msgpack reader can
 * decode them):
 *
 * `{ s: seq, t: tableId, n: rowCount, c: [column, ...] }` with one entry per table column, in
 * table order: fixed-width columns as `bin` (the column-file encoding), var-size columns as `bin`
 * (the data-part encoding), SYMBOL columns as `{ k: bin int32 keys, g: bin int32 keys, d: [string] }`:
 * `k` holds the table's keys as they were when written (-1 = null), and the record's dictionary
 * says which string each of them stands for: key `g[i]` is `d[i]` (the keys are the table's own,
 * but a replay rebuilds the dictionary and may number strings differently, so each record names
 * its strings). Records written before `g` existed have keys indexing `d` directly.
 *
 * An append is encoded as one or more such records of at most about {@link PART_BYTES} each,
 * consecutive rows in order, all with the append's sequence number (the WAL frames them as one
 * group, see wal.ts). Each record is built as a list of pieces: a few header bytes, then the
 * column bytes themselves — views of the appended vectors where their layout is already the file
 * layout (DOUBLE, INT, ...) — so a large append is not copied into one buffer before it is written.
 */
import { Packr } from 'msgpackr'
import type { ColumnType } from '../../types/column-type.js'
import { type Vector, type SymVector, SymbolTable, materialize, sliceVector, vectorOf } from '../../types/vector.js'
import { decodeFixed, decodeVar, encodeFixed, encodeVar, fixedWidth, isVarSize } from './column-codec.js'

/** The msgpack codec for WAL records and metadata: plain msgpack, maps as objects. */
export const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true })

/** Bytes of column data per WAL record, about: a larger append is split into several records. */
export const PART_BYTES = 16 << 20
/** What a var-size value is assumed to weigh when sizing records. */
const VAR_ESTIMATE = 64

/** A decoded append record. */
export interface AppendRecord {
  readonly seq: number
  readonly tableId: number
  readonly length: number
  readonly vectors: Vector[]
}

type SymPayload = { k: Uint8Array; g?: Uint8Array; d: string[] }

const NIL = Uint8Array.of(0xc0)

/** A msgpack bin header for `n` bytes (always bin 32: any reader takes it). */
function binHeader(n: number): Uint8Array {
  const h = new Uint8Array(5)
  h[0] = 0xc6
  new DataView(h.buffer).setUint32(1, n)
  return h
}

/** A msgpack array header for `n` items. */
function arrayHeader(n: number): Uint8Array {
  if (n < 16) return Uint8Array.of(0x90 | n)
  const h = new Uint8Array(5)
  h[0] = 0xdd
  new DataView(h.buffer).setUint32(1, n)
  return h
}

/** Rows per record (of about `bytes`, {@link PART_BYTES} unless given) for a table with these column types. */
export function rowsPerRecord(types: readonly ColumnType[], bytes = PART_BYTES): number {
  let width = 0
  for (const t of types) width += isVarSize(t) ? VAR_ESTIMATE : fixedWidth(t)
  return Math.max(1, Math.floor(bytes / Math.max(width, 1)))
}

/**
 * Encodes an append of `length` rows as WAL records: one list of pieces per record (their
 * concatenation is the record's payload). Records hold rows in order, `rowsPerRecord` at most.
 */
export function encodeAppend(seq: number, tableId: number, types: readonly ColumnType[], vectors: readonly Vector[], length: number, perRecord = rowsPerRecord(types)): Uint8Array[][] {
  return [...encodeAppendRecords(seq, tableId, types, vectors, length, perRecord)]
}

/** How many records {@link encodeAppend} makes of `length` rows (at least one). */
export function recordCount(length: number, perRecord: number): number {
  return Math.max(1, Math.ceil(length / perRecord))
}

/**
 * {@link encodeAppend} one record at a time, each encoded when it is asked for: a large append is
 * encoded and written record by record, with the event loop free in between (see
 * `DurableStore.commit`). Yields {@link recordCount} records.
 */
export function* encodeAppendRecords(seq: number, tableId: number, types: readonly ColumnType[], vectors: readonly Vector[], length: number, perRecord = rowsPerRecord(types), scratch?: WalScratch): Generator<Uint8Array[], void, void> {
  const words = scratch === undefined ? undefined : (n: number): Int32Array => scratch.take(n)
  // per SYMBOL column: the record number that last named each table key (so each is named once per record)
  const seen: (Int32Array | undefined)[] = vectors.map((v) => (v.kind === 'sym' ? new Int32Array(v.dict.size).fill(-1) : undefined))
  for (let from = 0, part = 0; from < length || (from === 0 && length === 0); from += perRecord, part++) {
    const to = Math.min(length, from + perRecord)
    const n = to - from
    // the map's first three entries, then the fourth, `c`, by hand (fixmap header 0x83 -> 0x84)
    const head = new Uint8Array(packr.pack({ s: seq, t: tableId, n }))
    head[0] = 0x84
    const pieces: Uint8Array[] = [head, Uint8Array.of(0xa1, 0x63), arrayHeader(vectors.length)]
    vectors.forEach((v, i) => {
      const m = materialize(sliceVector(v, from, to))
      if (m.kind === 'sym') { seen[i] = encodeSymbols(m, n, seen[i]!, part, pieces); return }
      if (isVarSize(types[i]!)) { const d = encodeVar(m)[0]; pieces.push(binHeader(d.length), d); return }
      if (m.kind === 'null') { pieces.push(NIL); return }
      const d = encodeFixed(m, words)
      pieces.push(binHeader(d.length), d)
    })
    yield pieces
    if (length === 0) break
  }
}

/**
 * Reused memory for the int64 words of WAL records (LONG / TIMESTAMP columns held as safe
 * integers are converted to words; a fresh array per record and column was 6% of the ILP
 * server's profile). Regions are handed out one after another and never overlap until
 * {@link WalScratch.release}, which the owner calls only once every record encoded since the last
 * release has been written out (the WAL holds pieces by reference until then). When the arena
 * is full a request gets a fresh array, as without scratch; the arena grows to the largest
 * amount asked for between releases, at most `cap` words.
 */
export class WalScratch {
  private words: Int32Array
  private used = 0
  /** Words asked for since the last release (the arena's next size, capped). */
  private asked = 0

  /** An arena of `initial` words at first, growing to at most `cap` words. */
  constructor(initial = 1 << 16, private readonly cap = 2 << 20) {
    this.words = new Int32Array(Math.min(initial, cap))
  }

  /** `n` words no other region handed out since the last release overlaps (contents undefined). */
  take(n: number): Int32Array {
    this.asked += n
    if (this.used + n > this.words.length) return new Int32Array(n)
    const out = this.words.subarray(this.used, this.used + n)
    this.used += n
    return out
  }

  /** Every region handed out so far is dead (its bytes were written): the arena is free again. */
  release(): void {
    if (this.asked > this.words.length && this.words.length < this.cap) this.words = new Int32Array(Math.min(this.cap, this.asked))
    this.used = 0
    this.asked = 0
  }

  /** The arena's size in words (for tests). */
  get capacity(): number {
    return this.words.length
  }
}

/**
 * A symbol column's record entry `{ k, g, d }`: the keys as they are (no copy), and the string of
 * each distinct key. `seen[k] === part` marks key `k` as named in this record; returns `seen`
 * (grown when a key was interned after it was sized).
 */
function encodeSymbols(m: SymVector, n: number, seen: Int32Array, part: number, pieces: Uint8Array[]): Int32Array {
  const values = m.dict.values
  const d: string[] = []
  const g: number[] = []
  const src = m.data
  for (let r = 0; r < n; r++) {
    const k = src[r]!
    if (k < 0 || seen[k] === part) continue
    if (k >= seen.length) { const grown = new Int32Array(Math.max(values.length, k + 1)).fill(-1); grown.set(seen); seen = grown }
    seen[k] = part
    g.push(k)
    d.push(values[k]!)
  }
  const kb = new Uint8Array(src.buffer, src.byteOffset, n * 4)
  const gb = new Uint8Array(Int32Array.from(g).buffer)
  pieces.push(Uint8Array.of(0x83, 0xa1, 0x6b), binHeader(kb.length), kb, Uint8Array.of(0xa1, 0x67), binHeader(gb.length), gb, Uint8Array.of(0xa1, 0x64), new Uint8Array(packr.pack(d)))
  return seen
}

/** A record's SYMBOL column as a vector over its own dictionary. */
function decodeSymbols(p: SymPayload, n: number): Vector {
  const dict = new SymbolTable()
  if (p.g === undefined) {
    for (const s of p.d) dict.intern(s)
    return decodeFixed('SYMBOL', p.k, n, dict)
  }
  const v = decodeFixed('SYMBOL', p.k, n, dict)
  const g = decodeFixed('INT', p.g, p.g.length >> 2).data as Int32Array
  if (g.length !== p.d.length) throw new RangeError('WAL symbol keys and strings differ in number')
  let max = -1
  for (let i = 0; i < g.length; i++) if (g[i]! > max) max = g[i]!
  const remap = new Int32Array(max + 1).fill(-1)
  for (let i = 0; i < g.length; i++) remap[g[i]!] = dict.intern(p.d[i]!)
  const keys = v.data as Int32Array
  for (let r = 0; r < n; r++) {
    const k = keys[r]!
    if (k < 0) { keys[r] = -1; continue }
    const l = k <= max ? remap[k]! : -1
    if (l < 0) throw new RangeError(`WAL symbol key ${k} is not in the record's dictionary`)
    keys[r] = l
  }
  return v
}

/** Decodes a WAL payload against the table's column types. */
export function decodeAppend(payload: Uint8Array, types: readonly ColumnType[]): AppendRecord {
  const r = packr.unpack(payload) as { s: number; t: number; n: number; c: unknown[] }
  if (r.c.length !== types.length) throw new RangeError(`WAL record has ${r.c.length} columns, table has ${types.length}`)
  const vectors = types.map((type, i) => {
    const x = r.c[i]
    if (type === 'SYMBOL') return decodeSymbols(x as SymPayload, r.n)
    if (isVarSize(type)) return decodeVar(type, x as Uint8Array, r.n)
    if (x === null) return vectorOf(type, null as unknown as Vector['data'], r.n)
    return decodeFixed(type, x as Uint8Array, r.n)
  })
  return { seq: r.s, tableId: r.t, length: r.n, vectors }
}

/** Just the header fields of a payload (sequence and table), without decoding columns. */
export function peekAppend(payload: Uint8Array): { seq: number; tableId: number } {
  const r = packr.unpack(payload) as { s: number; t: number }
  return { seq: r.s, tableId: r.t }
}
