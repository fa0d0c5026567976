/**
 * Dense ids for one 64-bit integer key (TIMESTAMP_NS, or LONG values past 2^53), without a
 * BigInt per row: an open-addressing hash table over each value's two 32-bit halves, read
 * straight from the vector's memory (a BigInt64Array through a Uint32Array view; a Float64Array
 * of safe integers split arithmetically, so both representations of a value get the same id).
 * The values are kept as halves too, and come back as one BigInt64Array ({@link I64Ids.vector}).
 * Null (−2^63) is a key like any other.
 */
import type { ColumnType } from '../../types/column-type.js'
import type { I64Vector } from '../../types/vector.js'

const TWO32 = 4294967296

function hash(lo: number, hi: number): number {
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b)
  h ^= h >>> 15
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 13)
}

/** Dense ids (0, 1, 2, ... in order of first sight) for 64-bit integer values. */
export class I64Ids {
  /** the halves of each id's value: lo at 2*id, hi at 2*id+1 */
  private halves = new Int32Array(2048)
  /** id + 1 per slot, 0 for empty; the capacity is a power of two, at most half full */
  private slots = new Int32Array(2048)
  private mask = 2047
  /** ids handed out */
  count = 0

  /** Writes the id of each of the first `length` values of `v` (not a constant vector) to `out`. */
  assign(v: I64Vector, length: number, out: Int32Array): void {
    const d = v.data
    if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, length * 2)
      for (let i = 0; i < length; i++) out[i] = this.idOf(w[2 * i]!, w[2 * i + 1]!)
      return
    }
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x !== x) { out[i] = this.idOf(0, -2147483648); continue }
      const hi = Math.floor(x / TWO32)
      out[i] = this.idOf((x - hi * TWO32) | 0, hi | 0)
    }
  }

  /** The id of the value with 32-bit halves `lo`, `hi` (as signed ints), assigned on first sight. */
  idOf(lo: number, hi: number): number {
    const slots = this.slots, halves = this.halves
    let h = hash(lo, hi) & this.mask
    for (;;) {
      const s = slots[h]!
      if (s === 0) break
      const id = s - 1
      if (halves[2 * id] === lo && halves[2 * id + 1] === hi) return id
      h = (h + 1) & this.mask
    }
    const id = this.count++
    if (2 * id + 2 > halves.length) { const next = new Int32Array(halves.length * 2); next.set(halves); this.halves = next }
    this.halves[2 * id] = lo
    this.halves[2 * id + 1] = hi
    slots[h] = id + 1
    if (this.count * 2 > slots.length) this.grow()
    return id
  }

  private grow(): void {
    const size = this.slots.length * 2
    const slots = new Int32Array(size)
    const mask = size - 1
    const halves = this.halves
    for (let id = 0; id < this.count; id++) {
      let h = hash(halves[2 * id]!, halves[2 * id + 1]!) & mask
      while (slots[h] !== 0) h = (h + 1) & mask
      slots[h] = id + 1
    }
    this.slots = slots
    this.mask = mask
  }

  /** The values by id, as a vector of `type`. */
  vector(type: ColumnType): I64Vector {
    const data = new BigInt64Array(this.count)
    new Int32Array(data.buffer).set(this.halves.subarray(0, this.count * 2))
    return { kind: 'i64', type, length: this.count, data, isConst: false }
  }

  /** Bytes held: the slots and the values. */
  get bytes(): number {
    return this.slots.byteLength + this.halves.byteLength
  }
}
