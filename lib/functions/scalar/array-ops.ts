/**
 * Element-wise operators on DOUBLE arrays: `+ - * /` between an array and a scalar (the scalar
 * applies to every element) or two arrays, broadcast as QuestDB 9 (and NumPy) do: shapes aligned
 * at their last dimension, a missing or length-1 dimension stretched to the other's length, the
 * result having the larger dimension count; any other difference fails with 42804 "arrays have
 * incompatible shapes [leftShape=[1,2], rightShape=[3]]" at the left argument. `=` / `<>`: same
 * shape and elements (arrays of different shapes are simply unequal).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import { type ArrVector, ArrBuilder } from '../../types/array-vector.js'
import { toF64 } from '../kernel-helpers.js'

/** The arithmetic operators arrays take. */
export type ArrayArith = '+' | '-' | '*' | '/'

const OPS: Record<ArrayArith, (x: number, y: number) => number> = {
  '+': (x, y) => x + y,
  '-': (x, y) => x - y,
  '*': (x, y) => x * y,
  '/': (x, y) => x / y,
}

function sameShape(a: ArrVector, i: number, b: ArrVector, j: number): boolean {
  const d = a.dims
  if (b.dims !== d) return false
  for (let k = 0; k < d; k++) if (a.shapes[i * d + k] !== b.shapes[j * d + k]) return false
  return true
}

/** QuestDB's cap on an array's element count (`Integer.MAX_VALUE >> 3`), checked before a broadcast result is allocated. */
export const ARRAY_MAX_ELEMENTS = 268_435_455

function shapeText(v: ArrVector, i: number): string {
  return `[${Array.from(v.shapes.subarray(i * v.dims, (i + 1) * v.dims)).join(',')}]`
}

/** The broadcast shape of row `i` of `a` and row `j` of `b` (right-aligned), or undefined when incompatible. */
function broadcastShape(a: ArrVector, i: number, b: ArrVector, j: number): Int32Array | undefined {
  const d = Math.max(a.dims, b.dims)
  const out = new Int32Array(d)
  for (let k = 1; k <= d; k++) {
    const x = k <= a.dims ? a.shapes[i * a.dims + a.dims - k]! : 1
    const y = k <= b.dims ? b.shapes[j * b.dims + b.dims - k]! : 1
    if (x !== y && x !== 1 && y !== 1) return undefined
    out[d - k] = x === 1 ? y : x
  }
  return out
}

/** Element strides of row `i` of `v` over the broadcast `shape`: 0 along stretched or prepended dimensions. */
function broadcastStrides(v: ArrVector, i: number, shape: Int32Array): Int32Array {
  const d = shape.length
  const st = new Int32Array(d)
  let stride = 1
  for (let k = 1; k <= v.dims; k++) {
    const len = v.shapes[i * v.dims + v.dims - k]!
    st[d - k] = len === 1 && shape[d - k] !== 1 ? 0 : stride
    stride *= len
  }
  return st
}

/** `f` over two arrays of different shapes, broadcast to `shape`, into `buf` (row-major). */
function applyBroadcast(f: (x: number, y: number) => number, a: ArrVector, ai: number, b: ArrVector, bi: number, shape: Int32Array, buf: Float64Array, n: number): void {
  const d = shape.length
  const sa = broadcastStrides(a, ai, shape), sb = broadcastStrides(b, bi, shape)
  const idx = new Int32Array(d)
  let pa = a.offsets[ai]!, pb = b.offsets[bi]!
  for (let e = 0; e < n; e++) {
    buf[e] = f(a.data[pa]!, b.data[pb]!)
    // advance the multi-index, innermost dimension first
    for (let k = d - 1; k >= 0; k--) {
      idx[k]!++
      pa += sa[k]!; pb += sb[k]!
      if (idx[k]! < shape[k]!) break
      pa -= sa[k]! * shape[k]!; pb -= sb[k]! * shape[k]!
      idx[k] = 0
    }
  }
}

/**
 * `left op right` where at least one side is an array (the other may be a DOUBLE vector); two
 * arrays broadcast (see above), `leftPos` placing the error of incompatible shapes.
 */
export function arrayArith(op: ArrayArith, type: ColumnType, left: Vector, right: Vector, length: number, pos: number, leftPos = pos): ArrVector {
  const f = OPS[op]
  const b = new ArrBuilder(type, length)
  const la = left.kind === 'arr' ? left : undefined
  const ra = right.kind === 'arr' ? right : undefined
  const ls = la === undefined ? toF64(left) : undefined
  const rs = ra === undefined ? toF64(right) : undefined
  let buf = new Float64Array(64)
  for (let i = 0; i < length; i++) {
    const li = la?.isConst ? 0 : i
    const ri = ra?.isConst ? 0 : i
    if ((la && la.shapes[li * la.dims]! < 0) || (ra && ra.shapes[ri * ra.dims]! < 0)) { b.pushNull(); continue }
    if (la && ra && !sameShape(la, li, ra, ri)) {
      const shape = broadcastShape(la, li, ra, ri)
      if (shape === undefined) {
        throw new SqlError(SqlState.DATATYPE_MISMATCH, `arrays have incompatible shapes [leftShape=${shapeText(la, li)}, rightShape=${shapeText(ra, ri)}]`, leftPos)
      }
      let n = 1
      for (const len of shape) n *= len
      if (n > ARRAY_MAX_ELEMENTS) {
        throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `array element count exceeds max [max=${ARRAY_MAX_ELEMENTS}, shape=[${shape.join(',')}]]`, leftPos)
      }
      if (buf.length < n) buf = new Float64Array(n * 2)
      applyBroadcast(f, la, li, ra, ri, shape, buf, n)
      b.pushRaw(shape, buf, 0, n)
      continue
    }
    const shapeSrc = (la ?? ra)!
    const si = la ? li : ri
    const n = shapeSrc.offsets[si + 1]! - shapeSrc.offsets[si]!
    if (buf.length < n) buf = new Float64Array(n * 2)
    const lo = la ? la.offsets[li]! : 0
    const ro = ra ? ra.offsets[ri]! : 0
    const lx = ls ? ls.data[i * ls.s]! : 0
    const rx = rs ? rs.data[i * rs.s]! : 0
    for (let e = 0; e < n; e++) buf[e] = f(la ? la.data[lo + e]! : lx, ra ? ra.data[ro + e]! : rx)
    const shape = shapeSrc.shapes.subarray(si * shapeSrc.dims, (si + 1) * shapeSrc.dims)
    b.pushRaw(shape, buf, 0, n)
  }
  return b.finish()
}

/** `a = b` (or `a <> b` with `not`) of two arrays: same shape and equal elements; nulls equal each other. */
export function arrayEquals(a: ArrVector, b: ArrVector, length: number, not: boolean): Vector {
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) {
    const ai = a.isConst ? 0 : i
    const bi = b.isConst ? 0 : i
    const an = a.shapes[ai * a.dims]! < 0
    const bn = b.shapes[bi * b.dims]! < 0
    let eq: boolean
    if (an || bn) eq = an && bn
    else if (!sameShape(a, ai, b, bi)) eq = false
    else {
      eq = true
      const n = a.offsets[ai + 1]! - a.offsets[ai]!
      const ao = a.offsets[ai]!
      const bo = b.offsets[bi]!
      for (let e = 0; e < n && eq; e++) {
        const x = a.data[ao + e]!
        const y = b.data[bo + e]!
        if (x !== y && (Number.isFinite(x) || Number.isFinite(y))) eq = false
      }
    }
    out[i] = eq !== not ? 1 : 0
  }
  return { kind: 'bool', type: 'BOOLEAN', length, data: out }
}
