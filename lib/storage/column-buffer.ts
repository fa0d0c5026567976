/**
 * A growable column of one type: the in-memory home of a table column's values.
 *
 * Appends write past the current length (readers hold a row count and never look there), and a
 * buffer that must grow is reallocated, leaving the old array intact for readers that still hold
 * it. So a reader's snapshot (`view(0, rowCount)` taken at query start) never sees a torn row.
 * Operations that rewrite existing rows (out-of-order merge, UPDATE, DROP PARTITION) build a new
 * buffer instead of editing this one (copy-on-write).
 */
import { type ColumnType, physicalOf, INT_NULL, LONG_NULL, SYMBOL_NULL } from '../types/column-type.js'
import {
  type Vector, type I64Vector, SymbolTable, allocate, getScalar, materialize, vectorOf,
} from '../types/vector.js'
import { type ArrVector, ArrBuilder, arrSlice } from '../types/array-vector.js'
import { HAS_SAB, sharedBuffer } from './shared-memory.js'
import { nullsOf } from '../types/null-count.js'
import { isGeohash } from '../types/geohash.js'

/** Rows [lo, hi) of `v` (see {@link ColumnBuffer.appendMerged}). */
export interface RowPiece {
  readonly v: Vector
  readonly lo: number
  readonly hi: number
}

type Fixed = Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Float32Array | Float64Array | BigInt64Array

/**
 * Column memory lives in SharedArrayBuffers where the platform has them, so worker threads can
 * scan a table's columns without copying (see exec/parallel); they come from shared-memory.ts,
 * which also sees that dropped ones are collected.
 */

/** A typed array of `ctor` with `n` elements, on shared memory when available. */
function sharedOf<T extends Float64ArrayConstructor>(ctor: T, n: number): InstanceType<T> {
  if (!HAS_SAB) return new ctor(n) as InstanceType<T>
  return new ctor(sharedBuffer(n * ctor.BYTES_PER_ELEMENT)) as InstanceType<T>
}

/** A copy of `a` on shared memory (a no-op where shared memory is unavailable). */
function shared<T extends Fixed>(a: T): T {
  if (!HAS_SAB) return a
  const out = sharedOf(a.constructor as Float64ArrayConstructor, a.length) as unknown as T
  ;(out as unknown as Float64Array).set(a as unknown as Float64Array)
  return out
}

/** One column's values. */
export class ColumnBuffer {
  private fixed: Fixed | null
  private list: unknown[] | null
  /** DOUBLE array columns: flat elements + offsets + shapes (array-vector.ts) */
  private arr: ArrBuilder | null = null
  private len = 0
  /** the symbol dictionary (SYMBOL columns) */
  readonly dict: SymbolTable | undefined
  /** rows [0, counted) hold {@link countedNonNull} non-null values ({@link countNonNull}) */
  private counted = 0
  private countedNonNull = 0

  constructor(readonly type: ColumnType, capacity = 1024, dict?: SymbolTable) {
    const kind = physicalOf(type)
    this.dict = kind === 'sym' ? (dict ?? new SymbolTable()) : undefined
    if (kind === 'arr') {
      this.arr = new ArrBuilder(type, capacity)
      this.fixed = null
      this.list = null
    } else if (kind === 'str' || kind === 'bin' || kind === 'null') {
      this.fixed = null
      this.list = []
    } else {
      // allocated straight on shared memory, untouched: every append writes its rows, so the
      // slots past the length need no null fill (INT's are nulls, as `reserve` keeps them), and a
      // large capacity (a checkpoint's settle) costs no pass over its pages
      const n = Math.max(capacity, 16)
      this.fixed = sharedOf((allocate(type, 0).data as Fixed).constructor as Float64ArrayConstructor, n) as unknown as Fixed
      if (type === 'INT' || (isGeohash(type) && physicalOf(type) === 'i32')) (this.fixed as unknown as Int32Array).fill(INT_NULL)
      this.list = null
    }
  }

  /**
   * A buffer holding the rows of `v` without copying them when it can: a fixed-width vector whose
   * values sit in column memory (shared memory where available) in the array this type keeps
   * (i64 as safe integers, SYMBOL keys of `dict`) becomes the buffer's own array, its capacity
   * exactly its rows (an append to it reallocates; the array is never written again). Any other
   * vector is copied into a right-sized buffer. The caller gives up `v`'s array: nothing may write
   * to it afterwards (an ILP request's builders are not used after their vectors are taken).
   */
  static adopt(type: ColumnType, v: Vector, dict?: SymbolTable): ColumnBuffer {
    const out = new ColumnBuffer(type, 0, dict)
    const data = v.isConst ? null : v.data
    const own = out.fixed
    if (own !== null && data !== null && !Array.isArray(data) && data.constructor === own.constructor && data.length === v.length
      && (!HAS_SAB || data.buffer instanceof SharedArrayBuffer) && (v.kind !== 'sym' || v.dict === out.dict)) {
      out.fixed = data as Fixed
      out.len = v.length
      return out
    }
    const copy = new ColumnBuffer(type, v.length, dict)
    copy.append(v)
    return copy
  }

  /** Number of rows. */
  get length(): number {
    return this.len
  }

  /** True when i64 values are held exactly as BigInt64Array (some value is not a safe integer). */
  get isBig(): boolean {
    return this.fixed instanceof BigInt64Array
  }

  /** Rows [start, end) as a vector; fixed-width columns are views, not copies. */
  view(start: number, end: number): Vector {
    const n = end - start
    if (this.arr !== null) return arrSlice(this.arr.finish(), start, end)
    if (this.list !== null) return vectorOf(this.type, this.list.slice(start, end) as Vector['data'], n)
    const data = this.fixed!.subarray(start, end) as Vector['data']
    return vectorOf(this.type, data, n, this.dict)
  }

  /**
   * Makes room for `rows` more rows now (at most one reallocation), so that appending them later
   * in slices copies none of the rows held (a large commit applies its rows a slice per turn of the
   * event loop, see `Table.applyAppendSteps`).
   */
  makeRoom(rows: number): void {
    if (this.fixed !== null) this.reserve(this.len + rows)
  }

  /**
   * The non-null values among rows [0, rows), counting at most `limit` rows not counted before
   * (undefined when more are left: call again). Rows are only ever appended to a buffer
   * ({@link setFrom}, the one change in place, starts the count over), so a count taken once
   * stays true for its rows and a later call counts only the rows appended since: unkeyed
   * `count(x)` over a table's in-memory rows (exec/operators/count-from-stats.ts). Asked for
   * fewer rows than were counted (an older snapshot), it counts from the start again.
   */
  countNonNull(rows: number, limit: number): number | undefined {
    if (rows < this.counted) { this.counted = 0; this.countedNonNull = 0 }
    const to = Math.min(rows, this.counted + Math.max(0, limit))
    if (to > this.counted) {
      this.countedNonNull += to - this.counted - nullsOf(this.view(this.counted, to), to - this.counted)
      this.counted = to
    }
    return to === rows ? this.countedNonNull : undefined
  }

  /** Appends every row of `v` (which must already have this column's type). */
  append(v: Vector): void {
    this.appendRange(v, 0, v.length)
  }

  /** Appends rows [from, to) of `v`. */
  appendRange(v: Vector, from: number, to: number): void {
    const n = to - from
    if (n <= 0) return
    if (this.arr !== null) { this.arr.pushRange(v as ArrVector, from, to); this.len += n; return }
    const src = materialize(v)
    if (this.list !== null) {
      const data = src.data as unknown[] | null
      for (let i = from; i < to; i++) this.list.push(data === null ? null : data[i])
      this.len += n
      return
    }
    this.reserve(this.len + n)
    if (src.kind === 'sym' && this.dict !== undefined && src.dict !== this.dict) {
      const dst = this.fixed as Int32Array
      for (let i = from; i < to; i++) {
        const k = src.data[i]!
        dst[this.len + i - from] = k < 0 ? SYMBOL_NULL : this.dict.intern(src.dict.values[k]!)
      }
    } else if (src.kind === 'i64') {
      this.appendI64(src, from, to)
    } else {
      ;(this.fixed as Float64Array).set((src.data as Float64Array).subarray(from, to), this.len)
    }
    this.len += n
  }

  private appendI64(src: I64Vector, from: number, to: number): void {
    const s = src.data
    if (s instanceof Float64Array && this.fixed instanceof Float64Array) {
      this.fixed.set(s.subarray(from, to), this.len)
      return
    }
    if (!(this.fixed instanceof BigInt64Array)) this.promote()
    const dst = this.fixed as BigInt64Array
    for (let i = from; i < to; i++) {
      const x = s[i]!
      dst[this.len + i - from] = typeof x === 'bigint' ? x : x === LONG_NULL ? -9223372036854775808n : BigInt(x)
    }
  }

  private promote(): void {
    const src = this.fixed as Float64Array
    const out = shared(new BigInt64Array(src.length))
    for (let i = 0; i < this.len; i++) {
      const x = src[i]!
      out[i] = x === LONG_NULL ? -9223372036854775808n : BigInt(x)
    }
    this.fixed = out
  }

  /** Ensures room for `n` rows, reallocating (never editing in place) when it grows. */
  private reserve(n: number): void {
    const cur = this.fixed!
    if (cur.length >= n) return
    let cap = cur.length * 2
    while (cap < n) cap *= 2
    const next = sharedOf(cur.constructor as Float64ArrayConstructor, cap)
    next.set(cur.subarray(0, this.len) as Float64Array)
    if (this.type === 'INT' || (isGeohash(this.type) && physicalOf(this.type) === 'i32')) (next as unknown as Int32Array).fill(INT_NULL, this.len)
    this.fixed = next as unknown as Fixed
  }

  /**
   * Appends `count` rows picked by `order` from two sources: `order[i] < split` is row `order[i]`
   * of `a`, otherwise row `order[i] - split` of `b` (an out-of-order merge gathers the overlapped
   * rows and the new ones without staging both in a buffer first: every fresh page costs). Returns
   * false, appending nothing, when the rows need converting (not fixed-width, another symbol
   * dictionary, 64-bit values held another way); the caller then stages them.
   */
  appendGathered(a: Vector, b: Vector, order: Int32Array, count: number, split: number): boolean {
    if (this.fixed === null) return false
    const x = materialize(a)
    const y = materialize(b)
    if ((x.kind === 'sym' && x.dict !== this.dict) || (y.kind === 'sym' && y.dict !== this.dict)) return false
    const ctor = this.fixed.constructor
    if (x.data === null || y.data === null || x.data.constructor !== ctor || y.data.constructor !== ctor) return false
    this.reserve(this.len + count)
    const dst = this.fixed as Float64Array
    const xd = x.data as Float64Array
    const yd = y.data as Float64Array
    const at = this.len
    for (let i = 0; i < count; i++) {
      const k = order[i]!
      dst[at + i] = k < split ? xd[k]! : yd[k - split]!
    }
    this.len += count
    return true
  }

  /**
   * Appends `count` rows picked by `order` from the rows of `pieces` (taken one after another) and
   * of `b`: `order[i] < split` is row `order[i]` of the pieces' rows, which `order` takes in
   * ascending order (an out-of-order merge's existing rows), otherwise row `order[i] - split` of
   * `b` (the new rows). {@link appendGathered} over existing rows not in one vector: fixed-width
   * values of one representation are gathered in one loop, anything else (var-size, arrays,
   * another symbol dictionary, 64-bit values held another way) a run of consecutive rows at a time.
   */
  appendMerged(pieces: readonly RowPiece[], b: Vector, order: Int32Array, count: number, split: number): void {
    const y = materialize(b)
    const xs = pieces.map((p) => materialize(p.v))
    if (this.fixed !== null && this.gatherFixed(pieces, xs, y, order, count, split)) return
    // runs: existing rows continue one piece at a time, new rows while consecutive
    let p = 0, local = pieces.length > 0 ? pieces[0]!.lo : 0
    let i = 0
    while (i < count) {
      const k = order[i]!
      if (k >= split) {
        let e = i + 1
        while (e < count && order[e] === order[e - 1]! + 1) e++
        this.appendRange(y, k - split, k - split + e - i)
        i = e
        continue
      }
      while (local >= pieces[p]!.hi) { p++; local = pieces[p]!.lo }
      const piece = pieces[p]!
      let e = i + 1
      while (e < count && order[e]! < split && local + e - i < piece.hi) e++
      this.appendRange(xs[p]!, local, local + e - i)
      local += e - i
      i = e
    }
  }

  /** {@link appendMerged}'s loop for fixed-width values of this buffer's representation; false (nothing appended) otherwise. */
  private gatherFixed(pieces: readonly RowPiece[], xs: readonly Vector[], y: Vector, order: Int32Array, count: number, split: number): boolean {
    const ctor = this.fixed!.constructor
    const same = (v: Vector): boolean => !(v.kind === 'sym' && v.dict !== this.dict) && v.data !== null && v.data.constructor === ctor
    if (!same(y) || !xs.every(same)) return false
    this.reserve(this.len + count)
    const dst = this.fixed as Float64Array
    const yd = y.data as Float64Array
    const at = this.len
    let p = 0
    let xd = (xs[0]?.data ?? yd) as Float64Array
    let local = pieces.length > 0 ? pieces[0]!.lo : 0
    let hi = pieces.length > 0 ? pieces[0]!.hi : 0
    for (let i = 0; i < count; i++) {
      const k = order[i]!
      if (k >= split) { dst[at + i] = yd[k - split]!; continue }
      while (local >= hi) { p++; xd = xs[p]!.data as Float64Array; local = pieces[p]!.lo; hi = pieces[p]!.hi }
      dst[at + i] = xd[local++]!
    }
    this.len += count
    return true
  }

  /** A new buffer holding this buffer's rows in the order `order[0..count)` (copy-on-write rewrite). */
  permuted(order: Int32Array, count: number): ColumnBuffer {
    const out = new ColumnBuffer(this.type, count, this.dict)
    if (this.arr !== null) {
      const src = this.arr.finish()
      for (let i = 0; i < count; i++) out.arr!.pushRange(src, order[i]!, order[i]! + 1)
    } else if (this.list !== null) {
      const src = this.list
      const dst = out.list!
      for (let i = 0; i < count; i++) dst.push(src[order[i]!])
    } else {
      const src = this.fixed!
      if (src instanceof BigInt64Array) out.fixed = shared(new BigInt64Array(Math.max(count, 16)))
      const dst = out.fixed as Float64Array
      for (let i = 0; i < count; i++) dst[i] = (src as Float64Array)[order[i]!]!
    }
    out.len = count
    return out
  }

  /**
   * A copy of this buffer (for copy-on-write updates): one typed-array copy for fixed-width
   * columns, one slice for lists, one range push for arrays; the symbol dictionary is shared.
   */
  clone(): ColumnBuffer {
    const n = this.len
    const out = new ColumnBuffer(this.type, n, this.dict)
    if (this.arr !== null) {
      out.arr!.pushRange(this.arr.finish(), 0, n)
    } else if (this.list !== null) {
      out.list = this.list.slice(0, n)
    } else {
      const src = this.fixed!
      // slots past the length keep the constructor's fill (INT's nulls)
      if (src instanceof BigInt64Array) out.fixed = shared(new BigInt64Array(Math.max(n, 16)))
      ;(out.fixed as Float64Array).set((src as Float64Array).subarray(0, n))
    }
    out.len = n
    return out
  }

  /**
   * Overwrites row `i` with the value at row `j` of `v` (which must have this column's type; used
   * on clones only). Fixed-width columns copy the one value in place: no per-call allocation.
   */
  setFrom(i: number, v: Vector, j: number): void {
    if (i < this.counted) { this.counted = 0; this.countedNonNull = 0 }
    if (this.arr !== null) {
      // rebuilt around the new row: O(rows) per call (UPDATE of array columns is rare)
      const src = this.arr.finish()
      const next = new ArrBuilder(this.type, this.len)
      next.pushRange(src, 0, i)
      next.pushRange(v as ArrVector, j, j + 1)
      next.pushRange(src, i + 1, this.len)
      this.arr = next
      return
    }
    if (this.list !== null) {
      this.list[i] = getScalar(v, j)
      return
    }
    const at = v.isConst ? 0 : j
    if (v.kind === 'sym') {
      const k = v.data[at]!
      ;(this.fixed as Int32Array)[i] = k < 0 ? SYMBOL_NULL : v.dict === this.dict ? k : this.dict!.intern(v.dict.values[k]!)
    } else if (v.kind === 'i64') {
      const s = v.data
      // a source holding exact 64-bit values makes this column hold them too (as appends do)
      if (s instanceof BigInt64Array && !(this.fixed instanceof BigInt64Array)) this.promote()
      const dst = this.fixed
      if (dst instanceof BigInt64Array) {
        const x = s[at]!
        dst[i] = typeof x === 'bigint' ? x : x === LONG_NULL ? -9223372036854775808n : BigInt(x)
      } else {
        ;(dst as Float64Array)[i] = (s as Float64Array)[at]!
      }
    } else if (v.kind === 'null') {
      ;(this.fixed as Float64Array)[i] = (allocate(this.type, 1, this.dict).data as Float64Array)[0]!
    } else {
      ;(this.fixed as Float64Array)[i] = (v.data as Float64Array)[at]!
    }
  }

  /** A buffer of `length` nulls of `type` (for ADD COLUMN on a table with rows). */
  static nulls(type: ColumnType, length: number): ColumnBuffer {
    const b = new ColumnBuffer(type, length)
    b.append(allocate(type, length, b.dict))
    return b
  }
}

/**
 * Rows gathered from appends (one vector per column each) into one growable buffer per column,
 * sharing the columns' symbol dictionaries: a transaction's buffered INSERTs, an in-memory
 * table's late rows.
 */
export class RowBuffer {
  readonly columns: ColumnBuffer[]
  /** rows held */
  length = 0

  /** `like` gives each column's type and dictionary. */
  constructor(like: readonly { readonly type: ColumnType; readonly dict: SymbolTable | undefined }[], capacity: number) {
    this.columns = like.map((c) => new ColumnBuffer(c.type, capacity, c.dict))
  }

  /** Appends `length` rows given as one vector per column. */
  append(vectors: readonly Vector[], length: number): void {
    for (let c = 0; c < this.columns.length; c++) this.columns[c]!.append(vectors[c]!)
    this.length += length
  }

  /** The rows as one vector per column (fixed-width columns are views). */
  vectors(): Vector[] {
    return this.columns.map((b) => b.view(0, this.length))
  }
}
