/**
 * `/exp` CSV fields straight from column vectors into the response's {@link ByteWriter}, the
 * same way as `json/json-rows.ts` does for `/exec`: per column a writer chosen once from its
 * type, bound to each batch's vector; digits and timestamps written without strings, a symbol's
 * quoted text encoded once per dictionary key. A type without a case of its own is written by
 * the per-value encoders of `csv-values.ts`, the reference these writers must match byte for
 * byte (test/adapters/http/csv-rows.test.ts).
 */
import type { ColumnType, Vector } from '../../../lib/index.js'
import { ByteWriter, SymbolCells, TimestampText, writeDouble, writeInt } from '../../../lib/internal.js'
import { csvEncoder, csvQuote } from './csv-values.js'

/** Writes the field of row `i` of the vector it was bound to. */
export type CsvCell = (i: number) => void

/** A column's writer: bound to one batch's vector, it gives that batch's {@link CsvCell}. */
export type CsvColumn = (v: Vector) => CsvCell

const LONG_NULL = -9223372036854775808
const INT_NULL = -2147483648

/** True when `s` needs QuestDB's CSV escaping inside quotes. */
function needsEscape(s: string): boolean {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k)
    if (c < 32 || c === 34 || c === 92) return true
  }
  return false
}

/** A quoted field, as `csvQuote` writes it. */
function writeQuoted(w: ByteWriter, s: string): void {
  if (needsEscape(s)) { w.text(csvQuote(s)); return }
  w.byte(34)
  w.text(s)
  w.byte(34)
}

/** A fast writer for vectors of physical `kind`; its binder may decline a vector (undefined). */
interface Fast { readonly kind: Vector['kind']; readonly bind: (v: Vector) => CsvCell | undefined }

const on = (kind: Vector['kind'], bind: (v: Vector) => CsvCell | undefined): Fast => ({ kind, bind })

function fast(type: ColumnType, w: ByteWriter): Fast | undefined {
  switch (type) {
    case 'BOOLEAN': return on('bool', (v) => { const d = v.data as Uint8Array; return (i) => w.ascii(d[i] !== 0 ? 'true' : 'false') })
    case 'BYTE': return on('i8', (v) => { const d = v.data as Int8Array; return (i) => writeInt(w, d[i]!) })
    case 'SHORT': return on('i16', (v) => { const d = v.data as Int16Array; return (i) => writeInt(w, d[i]!) })
    case 'INT': return on('i32', (v) => { const d = v.data as Int32Array; return (i) => { const x = d[i]!; if (x !== INT_NULL) writeInt(w, x) } })
    case 'LONG': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      return (i) => { const x = d[i]!; if (x !== LONG_NULL) writeInt(w, x) }
    })
    case 'DOUBLE': return on('f64', (v) => { const d = v.data as Float64Array; return (i) => { const x = d[i]!; if (x - x === 0) writeDouble(w, x) } })
    case 'TIMESTAMP': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      const ts = new TimestampText(84, true)
      return (i) => { const x = d[i]!; if (x !== LONG_NULL) { w.byte(34); ts.write(w, x); w.byte(34) } }
    })
    case 'SYMBOL': {
      const scratch = new ByteWriter(64)
      const cells = new SymbolCells((s) => { writeQuoted(scratch, s); return scratch.take() })
      return on('sym', (v) => {
        if (v.kind !== 'sym') return undefined
        const d = v.data
        cells.use(v.dict.values)
        return (i) => { const k = d[i]!; if (k >= 0) w.bytes(cells.cell(k)) }
      })
    }
    case 'STRING': case 'VARCHAR': return on('str', (v) => {
      const d = v.data as (string | null)[]
      return (i) => { const s = d[i]; if (s !== null && s !== undefined) writeQuoted(w, s) }
    })
    default: return undefined
  }
}

/** The CSV writer of a result column of `type` into `w`. */
export function csvColumn(type: ColumnType, w: ByteWriter): CsvColumn {
  const f = fast(type, w)
  const reference: CsvColumn = (v) => { const enc = csvEncoder(type, v); return (i) => w.text(enc(i)) }
  if (f === undefined) return reference
  return (v) => (v.isConst !== true && v.kind === f.kind ? f.bind(v) : undefined) ?? reference(v)
}
