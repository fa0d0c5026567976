/**
 * Column vectors of DOUBLE arrays: every row's elements in one flat `Float64Array`, found by
 * `offsets` (row i is `data[offsets[i] .. offsets[i + 1])`), and each row's shape in `shapes`
 * (`dims` entries per row; a null array has `-1` as its first extent). No JS object per row:
 * kernels loop over `data` between offsets, and a slice of rows is a view of `offsets` and
 * `shapes` over the same `data`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from './column-type.js'
import { arrayDims } from './array-type.js'
import { DoubleArray } from './array.js'

/** DOUBLE[]..[] values: flat elements, per-row offsets into them, per-row shapes. */
export interface ArrVector {
  readonly kind: 'arr'
  readonly type: ColumnType
  readonly length: number
  readonly isConst?: boolean
  /** the elements of every row, row-major within a row */
  readonly data: Float64Array
  /** `length + 1` positions into `data` (absolute: a view's first offset need not be 0) */
  readonly offsets: Int32Array
  /** `length * dims` extents; a null row has -1 as its first */
  readonly shapes: Int32Array
  /** dimension count of the type */
  readonly dims: number
}

/** A vector of `length` null arrays of `type`. */
export function allocateArr(type: ColumnType, length: number): ArrVector {
  const dims = arrayDims(type)
  return { kind: 'arr', type, length, data: new Float64Array(0), offsets: new Int32Array(length + 1), shapes: new Int32Array(length * dims).fill(-1), dims }
}

/** True when row `i` is a null array. */
export function arrIsNull(v: ArrVector, i: number): boolean {
  return v.shapes[(v.isConst ? 0 : i) * v.dims]! < 0
}

/** Row `i` as a {@link DoubleArray} (its values a view of the vector's data), or null. */
export function arrGet(v: ArrVector, i: number): DoubleArray | null {
  const j = v.isConst ? 0 : i
  const d = v.dims
  if (v.shapes[j * d]! < 0) return null
  const shape: number[] = new Array(d)
  for (let k = 0; k < d; k++) shape[k] = v.shapes[j * d + k]!
  return new DoubleArray(shape, v.data.subarray(v.offsets[j]!, v.offsets[j + 1]!))
}

/** Rows [start, end) as a view (no element is copied). */
export function arrSlice(v: ArrVector, start: number, end: number): ArrVector {
  if (v.isConst) return { ...v, length: end - start }
  return { ...v, length: end - start, offsets: v.offsets.subarray(start, end + 1), shapes: v.shapes.subarray(start * v.dims, end * v.dims) }
}

/** Builds an array vector row by row, growing its buffers geometrically. */
export class ArrBuilder {
  private data: Float64Array
  private offsets: Int32Array
  private shapes: Int32Array
  private rows = 0
  private used = 0
  readonly dims: number

  constructor(readonly type: ColumnType, rows = 16, elements = 64) {
    this.dims = arrayDims(type)
    this.data = new Float64Array(Math.max(elements, 16))
    this.offsets = new Int32Array(Math.max(rows, 16) + 1)
    this.shapes = new Int32Array(Math.max(rows, 16) * this.dims)
  }

  /** Rows added so far. */
  get length(): number {
    return this.rows
  }

  private room(rows: number, elements: number): void {
    if (this.rows + rows + 1 > this.offsets.length) {
      let cap = this.offsets.length * 2
      while (cap < this.rows + rows + 1) cap *= 2
      const o = new Int32Array(cap); o.set(this.offsets.subarray(0, this.rows + 1)); this.offsets = o
      const s = new Int32Array(cap * this.dims); s.set(this.shapes.subarray(0, this.rows * this.dims)); this.shapes = s
    }
    if (this.used + elements > this.data.length) {
      let cap = this.data.length * 2
      while (cap < this.used + elements) cap *= 2
      const d = new Float64Array(cap); d.set(this.data.subarray(0, this.used)); this.data = d
    }
  }

  /** Appends a null array. */
  pushNull(): void {
    this.room(1, 0)
    this.shapes.fill(-1, this.rows * this.dims, (this.rows + 1) * this.dims)
    this.rows++
    this.offsets[this.rows] = this.used
  }

  /** Appends one array (or null); its dimension count must be the type's. */
  push(a: DoubleArray | null): void {
    if (a === null) { this.pushNull(); return }
    this.pushRaw(a.shape, a.values, 0, a.values.length)
  }

  /** Appends an array given as a shape and `values[from, to)`. */
  pushRaw(shape: ArrayLike<number>, values: Float64Array, from: number, to: number): void {
    const n = to - from
    this.room(1, n)
    const base = this.rows * this.dims
    for (let k = 0; k < this.dims; k++) this.shapes[base + k] = n === 0 ? 0 : shape[k]!
    this.data.set(values.subarray(from, to), this.used)
    this.used += n
    this.rows++
    this.offsets[this.rows] = this.used
  }

  /** Appends rows [from, to) of `v` (same type). */
  pushRange(v: ArrVector, from: number, to: number): void {
    if (v.isConst) { for (let i = from; i < to; i++) this.push(arrGet(v, 0)); return }
    const n = v.offsets[to]! - v.offsets[from]!
    this.room(to - from, n)
    const d = this.dims
    this.shapes.set(v.shapes.subarray(from * d, to * d), this.rows * d)
    this.data.set(v.data.subarray(v.offsets[from]!, v.offsets[to]!), this.used)
    const shift = this.used - v.offsets[from]!
    for (let i = from; i < to; i++) this.offsets[this.rows + 1 + i - from] = v.offsets[i + 1]! + shift
    this.rows += to - from
    this.used += n
  }

  /** The vector built so far (views of the builder's buffers; keep building only by copying). */
  finish(): ArrVector {
    return {
      kind: 'arr', type: this.type, length: this.rows, dims: this.dims,
      data: this.data.subarray(0, this.used), offsets: this.offsets.subarray(0, this.rows + 1), shapes: this.shapes.subarray(0, this.rows * this.dims),
    }
  }
}

/** A vector of the given rows. */
export function arrOf(type: ColumnType, rows: readonly (DoubleArray | null)[]): ArrVector {
  let elements = 0
  for (const r of rows) if (r !== null) elements += r.values.length
  const b = new ArrBuilder(type, rows.length, elements)
  for (const r of rows) b.push(r)
  return b.finish()
}

/** Rows `sel[0..count)` of `v`, copied into a new vector. */
export function arrGather(v: ArrVector, sel: Int32Array, count: number): ArrVector {
  if (v.isConst) return { ...v, length: count }
  const b = new ArrBuilder(v.type, count, count === 0 ? 0 : Math.ceil((v.data.length / Math.max(v.length, 1)) * count))
  for (let i = 0; i < count; i++) b.pushRange(v, sel[i]!, sel[i]! + 1)
  return b.finish()
}

/** The vectors' rows one after another. */
export function arrConcat(type: ColumnType, parts: readonly ArrVector[]): ArrVector {
  let rows = 0
  let elements = 0
  for (const p of parts) { rows += p.length; elements += p.isConst ? 0 : p.offsets[p.length]! - p.offsets[0]! }
  const b = new ArrBuilder(type, rows, elements)
  for (const p of parts) b.pushRange(p, 0, p.length)
  return b.finish()
}

/** A fully materialized copy of a constant vector (or `v` itself). */
export function arrMaterialize(v: ArrVector): ArrVector {
  if (!v.isConst) return v
  const a = arrGet(v, 0)
  const b = new ArrBuilder(v.type, v.length, a === null ? 0 : a.values.length * v.length)
  for (let i = 0; i < v.length; i++) b.push(a)
  return b.finish()
}

/** A constant vector: `a` for each of `length` rows. */
export function arrConst(type: ColumnType, a: DoubleArray | null, length: number): ArrVector {
  return { ...arrOf(type, [a]), length, isConst: true }
}

/** Number of elements of row `i` (0 for null). */
export function arrCount(v: ArrVector, i: number): number {
  const j = v.isConst ? 0 : i
  return v.offsets[j + 1]! - v.offsets[j]!
}
