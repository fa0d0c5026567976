/**
 * A hash join's table for one numeric key (INT, IPv4, LONG, DATE, TIMESTAMP, TIMESTAMP_NS or
 * SYMBOL): open addressing over typed arrays, no Map and no per-key array. Each slot holds the
 * first and last build row of one key; the rows of a key are chained through `next` (one Int32
 * per build row) in build order, so a probe walks them in the order the Map of row lists gave.
 *
 * Keys are compared as stored: INT / IPv4 / SYMBOL codes as Int32, LONG-like values as the
 * doubles of a Float64Array vector (every value a safe integer, or the LONG null), hashed from
 * their two 32-bit halves. A probe side's SYMBOL codes are translated into the build side's
 * dictionary once per distinct code; a probe side carrying bigints is converted per batch.
 */
import { type SymbolTable, type Vector } from '../../types/vector.js'
import { INT_NULL, IPV4_NULL, LONG_NULL, SYMBOL_NULL } from '../../types/column-type.js'
import type { ExecContext } from '../context.js'

/** A probe code that no build row carries (a symbol missing from the build side's dictionary). */
const ABSENT = -2

/** Build rows hashed between two checks for a due yield ({@link TypedJoinTable.fill}). */
export const FILL_CHUNK_ROWS = 65536

/** Where a long loop may give the event loop a turn: {@link ExecContext.yieldIfDue}. */
export type YieldPoint = Pick<ExecContext, 'yieldIfDue'>

/**
 * The typed table for the build side's key vector `keys` (already materialized), or undefined
 * when the key's layout has no typed table (a LONG vector of bigints, other types): the caller
 * keeps its Map then. Rows with a null key are left out unless `nullsEqual`. The table is empty:
 * {@link TypedJoinTable.fill} (or `insert`) adds the rows.
 */
export function buildTypedJoinTable(keys: Vector, nullsEqual: boolean): TypedJoinTable | undefined {
  if (keys.kind === 'i32' || keys.kind === 'sym') {
    const nullValue = keys.kind === 'sym' ? SYMBOL_NULL : keys.type === 'IPV4' ? IPV4_NULL : INT_NULL
    return new TypedJoinTable(keys.data, undefined, keys.kind === 'sym' ? keys.dict : undefined, nullsEqual ? undefined : nullValue, keys.length)
  }
  if (keys.kind === 'i64' && keys.data instanceof Float64Array) {
    return new TypedJoinTable(undefined, keys.data, undefined, nullsEqual ? undefined : LONG_NULL, keys.length)
  }
  return undefined
}

/** The types whose single join key may use a {@link TypedJoinTable} (same type on both sides). */
export const TYPED_JOIN_KEY_TYPES: ReadonlySet<string> = new Set(['INT', 'IPV4', 'LONG', 'DATE', 'TIMESTAMP', 'TIMESTAMP_NS', 'SYMBOL'])

/** Build rows by key, see the file comment. Probe with {@link TypedJoinTable.probe} then {@link TypedJoinTable.first}. */
export class TypedJoinTable {
  /** per slot: the first build row of its key, -1 for an empty slot */
  private readonly heads: Int32Array
  /** per slot: the last build row of its key so far (where the next row of that key chains on) */
  private readonly tails: Int32Array
  /** the key value left out (a null the join does not match), or undefined */
  private readonly skip: number | undefined
  /** build rows */
  private readonly rows: number
  /** per build row: the next row of the same key, -1 after the last */
  readonly next: Int32Array
  private readonly shift: number
  private readonly mask: number
  /** the build side's keys: Int32 codes or doubles (with their 32-bit halves) */
  private readonly keys32: Int32Array | undefined
  private readonly keys64: Float64Array | undefined
  private readonly bits64: Uint32Array | undefined
  private readonly dict: SymbolTable | undefined
  /** the current probe batch's keys */
  private probe32: Int32Array | undefined
  private probe64: Float64Array | undefined
  private probeBits: Uint32Array | undefined
  /** per probe dictionary: its codes in the build side's dictionary (-3: not yet looked up) */
  private readonly translations = new Map<SymbolTable, Int32Array>()
  /** bytes of the table's arrays, for the memory reservation */
  readonly bytes: number

  constructor(keys32: Int32Array | undefined, keys64: Float64Array | undefined, dict: SymbolTable | undefined, skip: number | undefined, rows: number) {
    this.keys32 = keys32
    this.keys64 = keys64
    this.bits64 = keys64 === undefined ? undefined : new Uint32Array(keys64.buffer, keys64.byteOffset, 2 * rows)
    this.dict = dict
    this.skip = skip
    this.rows = rows
    let bits = 4
    while ((1 << bits) < 2 * rows && bits < 30) bits++
    this.shift = 32 - bits
    this.mask = (1 << bits) - 1
    this.heads = new Int32Array(1 << bits).fill(-1)
    this.tails = new Int32Array(1 << bits)
    this.next = new Int32Array(rows).fill(-1)
    this.bytes = 8 * (1 << bits) + 4 * rows
  }

  /**
   * Adds build rows [from, to) (after every row before `from`, so that a key's rows chain in
   * build order). The table answers probes once every row is in: {@link fill} does that a chunk
   * at a time.
   */
  insert(from: number, to: number): void {
    const heads = this.heads, tails = this.tails, next = this.next, mask = this.mask, skip = this.skip
    const keys32 = this.keys32, keys64 = this.keys64
    for (let j = from; j < to; j++) {
      let slot: number
      if (keys32 !== undefined) {
        const v = keys32[j]!
        if (v === skip) continue
        slot = Math.imul(v, 0x9e3779b1) >>> this.shift
        for (;;) {
          const h = heads[slot]!
          if (h < 0 || keys32[h] === v) break
          slot = (slot + 1) & mask
        }
      } else {
        const v = keys64![j]!
        if (v === skip) continue
        slot = this.hash64(this.bits64!, j, v)
        for (;;) {
          const h = heads[slot]!
          if (h < 0 || keys64![h] === v) break
          slot = (slot + 1) & mask
        }
      }
      if (heads[slot]! < 0) heads[slot] = j
      else next[tails[slot]!] = j
      tails[slot] = j
    }
  }

  /**
   * Adds every build row, {@link FILL_CHUNK_ROWS} at a time, awaiting `turns.yieldIfDue()`
   * between chunks: a build side of tens of millions of rows lets other statements run (and a
   * cancel or timeout land) while it is hashed, as every other operator does.
   */
  async fill(turns: YieldPoint): Promise<void> {
    for (let from = 0; from < this.rows; from += FILL_CHUNK_ROWS) {
      this.insert(from, Math.min(this.rows, from + FILL_CHUNK_ROWS))
      const due = turns.yieldIfDue()
      if (due !== undefined) await due
    }
  }

  /** The slot of value `v`, row `i` of `bits`' vector (-0 hashes as 0, which it equals). */
  private hash64(bits: Uint32Array, i: number, v: number): number {
    if (v === 0) return 0
    let h = bits[2 * i]! ^ Math.imul(bits[2 * i + 1]!, 0x85ebca6b)
    h ^= h >>> 15
    return Math.imul(h, 0x9e3779b1) >>> this.shift
  }

  /** Makes the probe side's key vector `keys` (materialized, same type as the build key) current. */
  probe(keys: Vector): void {
    if (this.keys32 !== undefined) {
      if (keys.kind === 'sym' && this.dict !== undefined && keys.dict !== this.dict) this.probe32 = this.translate(keys.data, keys.dict, keys.length)
      else this.probe32 = keys.data as Int32Array
      return
    }
    let data = keys.data as Float64Array | BigInt64Array
    if (data instanceof BigInt64Array) {
      // a probe batch with a value past 2^53: such a value is in no Float64 build vector
      const out = new Float64Array(keys.length)
      for (let i = 0; i < keys.length; i++) {
        const v = Number(data[i]!)
        out[i] = Number.isSafeInteger(v) || v === LONG_NULL ? v : NaN
      }
      data = out
    }
    this.probe64 = data
    this.probeBits = new Uint32Array(data.buffer, data.byteOffset, 2 * keys.length)
  }

  /** Probe codes in the build side's dictionary. */
  private translate(codes: Int32Array, dict: SymbolTable, n: number): Int32Array {
    let map = this.translations.get(dict)
    if (map === undefined || map.length < dict.size) {
      const grown = new Int32Array(Math.max(dict.size, 16)).fill(-3)
      if (map !== undefined) grown.set(map)
      map = grown
      this.translations.set(dict, map)
    }
    const out = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      const c = codes[i]!
      if (c < 0) { out[i] = c; continue }
      let t = map[c]!
      if (t === -3) {
        t = this.dict!.lookup(dict.values[c]!)
        if (t < 0) t = ABSENT
        map[c] = t
      }
      out[i] = t
    }
    return out
  }

  /** The first build row whose key equals row `i` of the current probe batch, or -1; the rest follow through {@link next}. */
  first(i: number): number {
    const heads = this.heads, mask = this.mask
    if (this.keys32 !== undefined) {
      const keys = this.keys32
      const v = this.probe32![i]!
      let slot = Math.imul(v, 0x9e3779b1) >>> this.shift
      for (;;) {
        const h = heads[slot]!
        if (h < 0 || keys[h] === v) return h
        slot = (slot + 1) & mask
      }
    }
    const keys = this.keys64!
    const v = this.probe64![i]!
    if (v !== v) return -1
    let slot = this.hash64(this.probeBits!, i, v)
    for (;;) {
      const h = heads[slot]!
      if (h < 0 || keys[h] === v) return h
      slot = (slot + 1) & mask
    }
  }
}
