/**
 * Element-wise operators on DOUBLE arrays: `+ - * /` between an array and a scalar (the scalar
 * applies to every element) or two arrays of the same shape, and `=` / `<>` (same shape and
 * elements). Arrays of different shapes fail with 42804 at the operator.
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

/** `left op right` where at least one side is an array (the other may be a DOUBLE vector). */
export function arrayArith(op: ArrayArith, type: ColumnType, left: Vector, right: Vector, length: number, pos: number): ArrVector {
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
    if (la && ra && !sameShape(la, li, ra, ri)) throw new SqlError(SqlState.DATATYPE_MISMATCH, 'arrays have different shapes', pos)
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
