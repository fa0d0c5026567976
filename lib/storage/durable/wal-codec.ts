/**
 * WAL record payloads (msgpack, plain maps — no msgpackr extensions, so any msgpack reader can
 * decode them):
 *
 * `{ s: seq, t: tableId, n: rowCount, c: [column, ...] }` with one entry per table column, in
 * table order: fixed-width columns as `bin` (the column-file encoding), var-size columns as `bin`
 * (the data-part encoding), SYMBOL columns as `{ k: bin int32 keys, d: [string] }` where keys
 * index the record's own dictionary `d` (-1 = null).
 */
import { Packr } from 'msgpackr'
import type { ColumnType } from '../../types/column-type.js'
import { type Vector, SymbolTable, materialize, vectorOf } from '../../types/vector.js'
import { decodeFixed, decodeVar, encodeFixed, encodeVar, isVarSize } from './column-codec.js'

/** The msgpack codec for WAL records and metadata: plain msgpack, maps as objects. */
export const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true })

/** A decoded append record. */
export interface AppendRecord {
  readonly seq: number
  readonly tableId: number
  readonly length: number
  readonly vectors: Vector[]
}

type SymPayload = { k: Uint8Array; d: string[] }

/** Encodes an append of `length` rows as a WAL payload. */
export function encodeAppend(seq: number, tableId: number, types: readonly ColumnType[], vectors: readonly Vector[], length: number): Uint8Array {
  const c = vectors.map((v, i) => {
    const m = materialize(v)
    if (m.kind === 'sym') {
      const local = new Map<number, number>()
      const d: string[] = []
      const keys = new Int32Array(length)
      for (let r = 0; r < length; r++) {
        const k = m.data[r]!
        if (k < 0) { keys[r] = -1; continue }
        let l = local.get(k)
        if (l === undefined) { l = d.length; local.set(k, l); d.push(m.dict.values[k]!) }
        keys[r] = l
      }
      return { k: new Uint8Array(keys.buffer), d }
    }
    if (isVarSize(types[i]!)) return encodeVar(m)[0]
    if (m.kind === 'null') return null
    return copy(encodeFixed(m))
  })
  return packr.pack({ s: seq, t: tableId, n: length, c })
}

/** Decodes a WAL payload against the table's column types. */
export function decodeAppend(payload: Uint8Array, types: readonly ColumnType[]): AppendRecord {
  const r = packr.unpack(payload) as { s: number; t: number; n: number; c: unknown[] }
  if (r.c.length !== types.length) throw new RangeError(`WAL record has ${r.c.length} columns, table has ${types.length}`)
  const vectors = types.map((type, i) => {
    const x = r.c[i]
    if (type === 'SYMBOL') {
      const p = x as SymPayload
      const dict = new SymbolTable()
      for (const s of p.d) dict.intern(s)
      return decodeFixed(type, p.k, r.n, dict)
    }
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

function copy(b: Uint8Array): Uint8Array {
  return b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b)
}
