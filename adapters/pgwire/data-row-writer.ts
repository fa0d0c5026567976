/**
 * DataRows straight from column vectors: each column gets a writer chosen once per portal from
 * its type and format, bound to each batch's vector, that writes a cell (int32 length + bytes,
 * or -1 for null) into the connection's {@link BufferWriter} without a JS value or string per
 * cell where the format allows — digits written from the integer, timestamps from their fields,
 * a symbol's bytes encoded once per dictionary key, doubles' IEEE bytes copied.
 *
 * One dispatch per format ({@link textColumn}, {@link binaryColumn}) by column type: a type
 * without a case of its own is written by the per-value encoders of `value-encoders.ts`, which
 * stay the reference the fast writers must match byte for byte
 * (test/unit/adapters/pgwire/data-row-writer.test.ts compares them over random values).
 */
import type { ColumnType, Vector } from '../../lib/index.js'
import { SymbolCells, TimestampText, writeDouble, writeFloat64BE, writeInt, writeInt64BE } from '../../lib/internal.js'
import type { BufferWriter } from './buffer-writer.js'
import type { FormatCode } from './messages.js'
import { pgTypeOf } from './pg-types.js'
import { type CellEncoder, PG_EPOCH_MICROS, cellEncoder } from './value-encoders.js'

/** Writes the cell of row `i` of the vector it was bound to. */
export type CellWriter = (i: number) => void

/** A column's writer: bound to one batch's vector, it gives that batch's {@link CellWriter}. */
export type ColumnWriter = (v: Vector) => CellWriter

const LONG_NULL = -9223372036854775808
const INT_NULL = -2147483648

/** Below this magnitude a timestamp minus PostgreSQL's epoch is still an exact double. */
const EXACT = 2 ** 52

/** A fast writer for vectors of physical `kind`; its binder may decline a vector (undefined). */
interface Fast { readonly kind: Vector['kind']; readonly bind: (v: Vector) => CellWriter | undefined }

const on = (kind: Vector['kind'], bind: (v: Vector) => CellWriter | undefined): Fast => ({ kind, bind })

/** A number's text cell: reserve the length, write the digits, patch the length. */
function numberCell(w: BufferWriter, write: (w: BufferWriter, x: number) => void, x: number): void {
  const at = w.reserveInt32()
  write(w, x)
  w.patchInt32(at, w.pos - at - 4)
}

/** Text-format writers of the types with a fast path. */
function textColumn(type: ColumnType, w: BufferWriter): Fast | undefined {
  switch (type) {
    case 'BOOLEAN': return on('bool', (v) => { const d = v.data as Uint8Array; return (i) => { w.int32(1); w.byte(d[i] !== 0 ? 116 : 102) } })
    case 'BYTE': return on('i8', (v) => { const d = v.data as Int8Array; return (i) => numberCell(w, writeInt, d[i]!) })
    case 'SHORT': return on('i16', (v) => { const d = v.data as Int16Array; return (i) => numberCell(w, writeInt, d[i]!) })
    case 'INT': return on('i32', (v) => {
      const d = v.data as Int32Array
      return (i) => { const x = d[i]!; if (x === INT_NULL) w.int32(-1); else numberCell(w, writeInt, x) }
    })
    case 'LONG': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      return (i) => { const x = d[i]!; if (x === LONG_NULL) w.int32(-1); else numberCell(w, writeInt, x) }
    })
    case 'DOUBLE': return on('f64', (v) => {
      const d = v.data as Float64Array
      return (i) => { const x = d[i]!; if (x - x !== 0) w.int32(-1); else numberCell(w, writeDouble, x) } // NaN and ±Infinity are null
    })
    case 'TIMESTAMP': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      const ts = new TimestampText(32, false)
      return (i) => {
        const x = d[i]!
        if (x === LONG_NULL) { w.int32(-1); return }
        const at = w.reserveInt32()
        ts.write(w, x)
        w.patchInt32(at, w.pos - at - 4)
      }
    })
    case 'SYMBOL': return symbolColumn(w)
    case 'STRING': case 'VARCHAR': return on('str', (v) => {
      const d = v.data as (string | null)[]
      return (i) => {
        const s = d[i]
        if (s === null || s === undefined) { w.int32(-1); return }
        const at = w.reserveInt32()
        w.text(s)
        w.patchInt32(at, w.pos - at - 4)
      }
    })
    default: return undefined
  }
}

/** SYMBOL cells: each key's cell (length and UTF-8 bytes) encoded once per dictionary. */
function symbolColumn(w: BufferWriter): Fast {
  const cells = new SymbolCells((s) => {
    const body = Buffer.from(s, 'utf8')
    const c = Buffer.allocUnsafe(body.length + 4)
    c.writeInt32BE(body.length, 0)
    body.copy(c, 4)
    return c
  })
  return on('sym', (v) => {
    if (v.kind !== 'sym') return undefined
    const d = v.data
    cells.use(v.dict.values)
    return (i) => {
      const k = d[i]!
      if (k < 0) w.int32(-1)
      else w.bytes(cells.cell(k))
    }
  })
}

/** Binary-format writers of the types with a fast path. */
function binaryColumn(type: ColumnType, w: BufferWriter): Fast | undefined {
  switch (type) {
    case 'BOOLEAN': return on('bool', (v) => { const d = v.data as Uint8Array; return (i) => { w.int32(1); w.byte(d[i] !== 0 ? 1 : 0) } })
    case 'INT': return on('i32', (v) => {
      const d = v.data as Int32Array
      return (i) => { const x = d[i]!; if (x === INT_NULL) w.int32(-1); else { w.int32(4); w.int32(x) } }
    })
    case 'LONG': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      return (i) => { const x = d[i]!; if (x === LONG_NULL) w.int32(-1); else { w.int32(8); writeInt64BE(w, x) } }
    })
    case 'DOUBLE': return on('f64', (v) => {
      const d = v.data as Float64Array
      return (i) => { const x = d[i]!; if (x - x !== 0) w.int32(-1); else { w.int32(8); writeFloat64BE(w, x) } }
    })
    case 'TIMESTAMP': return on('i64', (v) => {
      const d = v.data
      if (!(d instanceof Float64Array)) return undefined
      const ref = cellEncoder('TIMESTAMP', 1)
      return (i) => {
        const x = d[i]!
        if (x === LONG_NULL) w.int32(-1)
        else if (x > -EXACT && x < EXACT) { w.int32(8); writeInt64BE(w, x - PG_EPOCH_MICROS) } else ref(w, v, i)
      }
    })
    default: return undefined
  }
}

/**
 * The writer of a result column of `type` sent in `format` (binary only where the type has a
 * binary form). Constant vectors, and vectors whose layout a fast writer does not take (64-bit
 * integers held as BigInt), go through the reference encoder.
 */
export function columnWriter(type: ColumnType, format: FormatCode, w: BufferWriter): ColumnWriter {
  const binary = format === 1 && pgTypeOf(type).binary
  const ref: CellEncoder = cellEncoder(type, binary ? 1 : 0)
  const reference: ColumnWriter = (v) => (i) => ref(w, v, i)
  const f = binary ? binaryColumn(type, w) : textColumn(type, w)
  if (f === undefined) return reference
  return (v) => (v.isConst !== true && v.kind === f.kind ? f.bind(v) : undefined) ?? reference(v)
}

/** Writes DataRows for rows [from, to) of a batch, one bound cell writer per column. */
export function writeRows(w: BufferWriter, cells: readonly CellWriter[], from: number, to: number): void {
  const n = cells.length
  for (let i = from; i < to; i++) {
    w.ensure(7)
    const b = w.buf
    const at = w.pos
    b[at] = 68 // 'D'
    b[at + 5] = n >>> 8
    b[at + 6] = n
    w.pos = at + 7
    for (let k = 0; k < n; k++) cells[k]!(i)
    w.patchInt32(at + 1, w.pos - at - 1)
  }
}
