/**
 * One column of the rows an ILP request gathers for one table: values by row number, rows a
 * line does not set left null. DOUBLE, the 64-bit integer types and SYMBOL fill typed arrays
 * directly (the hot path of ingestion); other types keep scalars and build their vector at the
 * end with {@link VectorWriter}.
 */
import type { ColumnType } from '../types/column-type.js'
import { LONG_NULL, SYMBOL_NULL } from '../types/column-type.js'
import { type Scalar, type SymbolTable, type Vector, VectorWriter, vectorOf } from '../types/vector.js'
import { joinNs } from '../types/timestamp-ns.js'

const INITIAL = 1024

/** Values of one column by row. */
export abstract class ColumnBuilder {
  /** the row the current line last set (a second value of the same column in a line is skipped) */
  lastRow = -1
  constructor(readonly type: ColumnType) {}
  /** Makes room for row `row`. */
  abstract reserve(row: number): void
  /** Sets row `row` back to null (a line that did not complete). */
  abstract clear(row: number): void
  /** The vector of the first `length` rows; SYMBOL keys are interned into `dict`. */
  abstract finish(length: number, dict: SymbolTable | undefined): Vector
}

/** DOUBLE values (NaN is null). */
export class F64Builder extends ColumnBuilder {
  data = new Float64Array(INITIAL).fill(NaN)
  reserve(row: number): void {
    if (row < this.data.length) return
    const next = new Float64Array(Math.max(row + 1, this.data.length * 2)).fill(NaN)
    next.set(this.data)
    this.data = next
  }
  clear(row: number): void { this.data[row] = NaN }
  finish(length: number): Vector { return vectorOf(this.type, this.data.subarray(0, length), length) }
}

/** LONG, TIMESTAMP or DATE values: safe integers in a Float64Array, the others aside as bigints. */
export class I64Builder extends ColumnBuilder {
  data = new Float64Array(INITIAL).fill(LONG_NULL)
  big: Map<number, bigint> | undefined
  reserve(row: number): void {
    if (row < this.data.length) return
    const next = new Float64Array(Math.max(row + 1, this.data.length * 2)).fill(LONG_NULL)
    next.set(this.data)
    this.data = next
  }
  set(row: number, v: number | bigint): void {
    if (typeof v === 'number') this.data[row] = v
    else (this.big ??= new Map()).set(row, v)
  }
  clear(row: number): void { this.data[row] = LONG_NULL; this.big?.delete(row) }
  finish(length: number): Vector {
    if (this.big === undefined || this.big.size === 0) return vectorOf(this.type, this.data.subarray(0, length), length)
    const out = new BigInt64Array(length)
    for (let i = 0; i < length; i++) out[i] = this.big.get(i) ?? BigInt(this.data[i]!)
    return vectorOf(this.type, out, length)
  }
}

/**
 * SYMBOL values as keys of a dictionary of the request's own (interned into the table's at the
 * end, so a failed request leaves the table's dictionary as it was). Values are recognised by
 * their bytes, without making a string for a value seen before.
 */
export class SymBuilder extends ColumnBuilder {
  data = new Int32Array(INITIAL).fill(SYMBOL_NULL)
  readonly values: string[] = []
  private readonly byText = new Map<string, number>()
  private readonly byHash = new Map<number, number[]>()
  private readonly bytes: Uint8Array[] = []
  reserve(row: number): void {
    if (row < this.data.length) return
    const next = new Int32Array(Math.max(row + 1, this.data.length * 2)).fill(SYMBOL_NULL)
    next.set(this.data)
    this.data = next
  }
  /** Sets row `row` to the UTF-8 value `buf[s, e)`. */
  setBytes(row: number, buf: Uint8Array, s: number, e: number): void {
    let h = 0x811c9dc5
    for (let i = s; i < e; i++) h = Math.imul(h ^ buf[i]!, 16777619)
    const keys = this.byHash.get(h)
    if (keys !== undefined) {
      for (const k of keys) {
        const b = this.bytes[k]!
        if (b.length !== e - s) continue
        let i = 0
        while (i < b.length && b[i] === buf[s + i]) i++
        if (i === b.length) { this.data[row] = k; return }
      }
    }
    const k = this.key(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8'))
    this.bytes[k] ??= buf.slice(s, e)
    if (keys === undefined) this.byHash.set(h, [k])
    else if (!keys.includes(k)) keys.push(k)
    this.data[row] = k
  }
  /** Sets row `row` to `text`. */
  setText(row: number, text: string): void { this.data[row] = this.key(text) }
  private key(text: string): number {
    let k = this.byText.get(text)
    if (k === undefined) { k = this.values.length; this.values.push(text); this.byText.set(text, k) }
    return k
  }
  clear(row: number): void { this.data[row] = SYMBOL_NULL }
  finish(length: number, dict: SymbolTable | undefined): Vector {
    const map = this.values.map((v) => dict!.intern(v))
    const keys = new Int32Array(length)
    for (let i = 0; i < length; i++) { const k = this.data[i]!; keys[i] = k < 0 ? SYMBOL_NULL : map[k]! }
    return vectorOf('SYMBOL', keys, length, dict)
  }
}

/** Any other type: scalars already of the column's kind. */
export class ScalarBuilder extends ColumnBuilder {
  data: Scalar[] = []
  reserve(): void {}
  set(row: number, v: Scalar): void {
    while (this.data.length < row) this.data.push(null)
    this.data[row] = v
  }
  clear(row: number): void { if (row < this.data.length) this.data[row] = null }
  finish(length: number, dict: SymbolTable | undefined): Vector {
    const w = new VectorWriter(this.type, length, dict)
    for (let i = 0; i < length && i < this.data.length; i++) { const v = this.data[i]; if (v !== null && v !== undefined) w.set(i, v) }
    return w.finish()
  }
}

/** The builder for a column of `type`. */
export function builderFor(type: ColumnType): ColumnBuilder {
  switch (type) {
    case 'DOUBLE': return new F64Builder(type)
    case 'LONG': case 'TIMESTAMP': case 'DATE': return new I64Builder(type)
    case 'TIMESTAMP_NS': return new NsFromMicrosBuilder(type)
    case 'SYMBOL': return new SymBuilder(type)
    default: return new ScalarBuilder(type)
  }
}

/**
 * A TIMESTAMP_NS column (an existing table's column or designated timestamp): the line parser
 * reads timestamps as microseconds, so they are gathered as microseconds and widened to
 * nanoseconds (× 1000, no BigInt per row) when the vector is made; digits past the microsecond of
 * an `n`-suffixed value are not kept yet.
 */
export class NsFromMicrosBuilder extends I64Builder {
  override finish(length: number): Vector {
    const v = super.finish(length)
    return v.kind === 'i64' && v.data instanceof Float64Array ? joinNs(v.data, undefined, length) : v
  }
}
