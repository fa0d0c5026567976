/**
 * `/exec` dataset rows straight from column vectors into the response's {@link ByteWriter}:
 * each column gets a writer chosen once per request from its type, bound to each batch's
 * vector, writing the JSON value without a string per value where it can (digits, timestamps
 * from their fields, a symbol's JSON text encoded once per dictionary key). A type without a case
 * of its own is written by the per-value encoders of `json-values.ts`, which stay the reference
 * these writers must match byte for byte (test/adapters/http/json-rows.test.ts).
 */
import type { ColumnType, Vector } from '../../../lib/index.js'
import { ByteWriter, SymbolCells, TimestampText, writeDouble, writeInt } from '../../../lib/internal.js'
import { jsonEncoder } from './json-values.js'

/** Writes the value of row `i` of the vector it was bound to. */
export type JsonCell = (i: number) => void

/** A column's writer: bound to one batch's vector, it gives that batch's {@link JsonCell}. */
export type JsonColumn = (v: Vector) => JsonCell

const LONG_NULL = -9223372036854775808
const INT_NULL = -2147483648
const NULL = Uint8Array.from('null', (c) => c.charCodeAt(0))

/** True when `s` needs JSON escaping (quote, backslash, control character, a surrogate). */
function needsEscape(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k)
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return true
  }
  return false
}

/** A JSON string literal, as `JSON.stringify` writes it. */
function writeJsonString(w: ByteWriter, s: string): void {
  if (needsEscape(s)) { w.text(JSON.stringify(s)); return }
  w.byte(34)
  w.text(s)
  w.byte(34)
}

/** A fast writer for vectors of physical `kind`; its binder may decline a vector (undefined). */
interface Fast { readonly kind: Vector['kind']; readonly bind: (v: Vector) => JsonCell | undefined }

const on = (kind: Vector['kind'], bind: (v: Vector) => JsonCell | undefined): Fast => ({ kind, bind })

function fast(type: ColumnType, w: ByteWriter, quoteLargeNum: boolean): Fast | undefined {
  switch (type) {
    case 'BOOLEAN': return on('bool', (v) => { const d = v.data as Uint8Array; return (i) => w.ascii(d[i] !== 0 ? 'true' : 'false') })
    case 'BYTE': return on('i8', (v) => { const d = v.data as Int8Array; return (i) => writeInt(w, d[i]!) })
    case 'SHORT': return on('i16', (v) => { const d = v.data as Int16Array; return (i) => writeInt(w, d[i]!) })
    case 'INT': return on('i32', (v) => { const d = v.data as Int32Array; return (i) => { const x = d[i]!; if (x === INT_NULL) w.bytes(NULL); else writeInt(w, x) } })
    case 'LONG': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      return (i) => {
        const x = d[i]!
        if (x === LONG_NULL) { w.bytes(NULL); return }
        if (quoteLargeNum) w.byte(34)
        writeInt(w, x)
        if (quoteLargeNum) w.byte(34)
      }
    })
    case 'DOUBLE': return on('f64', (v) => { const d = v.data as Float64Array; return (i) => { const x = d[i]!; if (x - x !== 0) w.bytes(NULL); else writeDouble(w, x) } })
    case 'TIMESTAMP': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      const ts = new TimestampText(84, true)
      return (i) => { const x = d[i]!; if (x === LONG_NULL) w.bytes(NULL); else { w.byte(34); ts.write(w, x); w.byte(34) } }
    })
    case 'SYMBOL': {
      const scratch = new ByteWriter(64)
      const cells = new SymbolCells((s) => { writeJsonString(scratch, s); return scratch.take() })
      return on('sym', (v) => {
        if (v.kind !== 'sym') return undefined
        const d = v.data
        cells.use(v.dict.values)
        return (i) => {
          const k = d[i]!
          w.bytes(k < 0 ? NULL : cells.cell(k))
        }
      })
    }
    case 'STRING': case 'VARCHAR': return on('str', (v) => {
      const d = v.data as (string | null)[]
      return (i) => { const s = d[i]; if (s === null || s === undefined) w.bytes(NULL); else writeJsonString(w, s) }
    })
    default: return undefined
  }
}

/**
 * The JSON writer of a result column of `type` into `w`. With `quoteLargeNum`, LONG values are
 * JSON strings (`"123"`).
 */
export function jsonColumn(type: ColumnType, w: ByteWriter, quoteLargeNum: boolean): JsonColumn {
  const f = fast(type, w, quoteLargeNum)
  const reference: JsonColumn = (v) => { const enc = jsonEncoder(type, v, quoteLargeNum); return (i) => w.text(enc(i)) }
  if (f === undefined) return reference
  return (v) => (v.isConst !== true && v.kind === f.kind ? f.bind(v) : undefined) ?? reference(v)
}
