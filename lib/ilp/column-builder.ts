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
import { HAS_SAB, sharedBuffer } from '../storage/shared-memory.js'

const INITIAL = 1024

/**
 * A grown builder array of `n` elements, in column memory (shared where available): a large
 * request's vectors are then adopted by the table as they are, not copied (`ColumnBuffer.adopt`).
 */
function columnArray<T extends Float64Array | Int32Array>(ctor: { new (b: ArrayBufferLike): T; new (n: number): T; readonly BYTES_PER_ELEMENT: number }, n: number): T {
  return HAS_SAB ? new ctor(sharedBuffer(n * ctor.BYTES_PER_ELEMENT)) : new ctor(n)
}

/** FNV-1a's offset basis: the start of a SYMBOL value's hash ({@link SymBuilder.setHashed}); each byte `b` then folds in as `h = Math.imul(h ^ b, 16777619)`. */
export const SYM_HASH_SEED = 0x811c9dc5

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
    const next = columnArray(Float64Array, Math.max(row + 1, this.data.length * 2))
    next.set(this.data)
    next.fill(NaN, this.data.length)
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
    const next = columnArray(Float64Array, Math.max(row + 1, this.data.length * 2))
    next.set(this.data)
    next.fill(LONG_NULL, this.data.length)
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
 * their bytes, without making a string for a value seen before: an open-addressing hash table of
 * keys over one pool of the values' bytes (no object per value).
 */
export class SymBuilder extends ColumnBuilder {
  data = new Int32Array(INITIAL).fill(SYMBOL_NULL)
  readonly values: string[] = []
  private readonly byText = new Map<string, number>()
  /** key + 1 per slot, 0 = empty; only keys whose bytes are known */
  private slots = new Int32Array(64)
  private hashed = 0
  /** per key: hash, start in {@link pool}, length (-1: bytes not known, the key came from {@link setText}) */
  private hashes = new Int32Array(16)
  private starts = new Int32Array(16)
  private lens = new Int32Array(16).fill(-1)
  private pool = new Uint8Array(1024)
  private poolLength = 0
  reserve(row: number): void {
    if (row < this.data.length) return
    const next = columnArray(Int32Array, Math.max(row + 1, this.data.length * 2))
    next.set(this.data)
    next.fill(SYMBOL_NULL, this.data.length)
    this.data = next
  }
  /** Sets row `row` to the UTF-8 value `buf[s, e)`. */
  setBytes(row: number, buf: Uint8Array, s: number, e: number): void {
    let h = SYM_HASH_SEED
    for (let i = s; i < e; i++) h = Math.imul(h ^ buf[i]!, 16777619)
    this.setHashed(row, buf, s, e, h)
  }
  /** {@link setBytes} with the value's hash already computed (FNV-1a, {@link SYM_HASH_SEED}, as a caller scanning the bytes folds it). */
  setHashed(row: number, buf: Uint8Array, s: number, e: number, h: number): void {
    const slots = this.slots
    const mask = slots.length - 1
    const len = e - s
    let i = h & mask
    for (let k1 = slots[i]!; k1 !== 0; i = (i + 1) & mask, k1 = slots[i]!) {
      const k = k1 - 1
      if (this.hashes[k] !== h || this.lens[k] !== len) continue
      const pool = this.pool
      let j = 0
      for (let o = this.starts[k]!; j < len && pool[o + j] === buf[s + j]; j++);
      if (j === len) { this.data[row] = k; return }
    }
    const k = this.key(Buffer.from(buf.buffer, buf.byteOffset + s, len).toString('utf8'))
    this.data[row] = k
    if (this.lens[k]! >= 0) return
    // remember its bytes
    if (this.poolLength + len > this.pool.length) this.pool = grown(this.pool, this.poolLength + len)
    this.pool.set(buf.subarray(s, e), this.poolLength)
    this.hashes[k] = h
    this.starts[k] = this.poolLength
    this.lens[k] = len
    this.poolLength += len
    slots[i] = k + 1
    if (++this.hashed * 2 > slots.length) this.rehash()
  }
  /** Sets row `row` to `text`. */
  setText(row: number, text: string): void { this.data[row] = this.key(text) }
  private key(text: string): number {
    let k = this.byText.get(text)
    if (k === undefined) {
      k = this.values.length
      this.values.push(text)
      this.byText.set(text, k)
      if (k >= this.lens.length) {
        this.hashes = grown(this.hashes, k + 1)
        this.starts = grown(this.starts, k + 1)
        const lens = new Int32Array(this.lens.length * 2).fill(-1)
        lens.set(this.lens)
        this.lens = lens
      }
    }
    return k
  }
  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2)
    const mask = slots.length - 1
    for (let k = 0; k < this.values.length; k++) {
      if (this.lens[k]! < 0) continue
      let i = this.hashes[k]! & mask
      while (slots[i] !== 0) i = (i + 1) & mask
      slots[i] = k + 1
    }
    this.slots = slots
  }
  clear(row: number): void { this.data[row] = SYMBOL_NULL }
  /** The table's keys, mapped in place (no array per request): the builder is not used after this. */
  finish(length: number, dict: SymbolTable | undefined): Vector {
    const map = Int32Array.from(this.values, (v) => dict!.intern(v))
    const keys = this.data
    for (let i = 0; i < length; i++) { const k = keys[i]!; keys[i] = k < 0 ? SYMBOL_NULL : map[k]! }
    return vectorOf('SYMBOL', keys.subarray(0, length), length, dict)
  }
}

/** A copy of `a` with room for at least `n` elements (twice as long at least). */
function grown<T extends Int32Array | Uint8Array>(a: T, n: number): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(n, a.length * 2))
  next.set(a)
  return next
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
 * reads timestamps as microseconds plus the nanoseconds past them (`n` values), gathered side by
 * side and joined to nanoseconds when the vector is made (no BigInt per row).
 */
export class NsFromMicrosBuilder extends I64Builder {
  sub = new Uint16Array(INITIAL)
  override reserve(row: number): void {
    super.reserve(row)
    if (row < this.sub.length) return
    const next = new Uint16Array(this.data.length)
    next.set(this.sub)
    this.sub = next
  }
  override clear(row: number): void { super.clear(row); this.sub[row] = 0 }
  override finish(length: number): Vector {
    const v = super.finish(length)
    return v.kind === 'i64' && v.data instanceof Float64Array ? joinNs(v.data, this.sub.subarray(0, length), length) : v
  }
}
