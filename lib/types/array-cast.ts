/**
 * Casts to and from the DOUBLE array types: text parses (`'{1,2}'::double[]`, QuestDB's
 * `'[1,2]'`), arrays print as text, and a DOUBLE scalar or NULL goes anywhere an array does.
 * Arrays of different dimension counts never convert into each other (QuestDB refuses them).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from './column-type.js'
import { arrayDims } from './array-type.js'
import { DoubleArray, parseArrayText } from './array.js'
import type { Scalar } from './vector.js'
import { SqlError, SqlState } from '../errors.js'

function textLike(t: ColumnType): boolean {
  return t === 'STRING' || t === 'VARCHAR' || t === 'SYMBOL'
}

/** `CAST(<from> AS <to>)` where one side is an array type: text ↔ array, same dimensions only. */
export function canCastArray(from: ColumnType, to: ColumnType): boolean {
  const a = arrayDims(from)
  const b = arrayDims(to)
  if (a > 0 && b > 0) return a === b
  if (b > 0) return textLike(from) || from === 'NULL'
  return textLike(to)
}

/** Implicit conversion into an array type: NULL and text (INSERT of `'{1,2}'`). */
export function canImplicitlyCastArray(from: ColumnType, to: ColumnType): boolean {
  const b = arrayDims(to)
  if (b === 0) return false
  return from === to || from === 'NULL' || from === 'STRING' || from === 'VARCHAR'
}

/**
 * Casts a non-null value where `to` is an array type (text parses; the dimension count must
 * match). Returns undefined for a pair that does not convert; bad text throws 22P02 unless
 * `badTextNull`.
 */
export function castToArray(value: Scalar, from: ColumnType, to: ColumnType, badTextNull: boolean, position: number): Scalar | undefined {
  const dims = arrayDims(to)
  if (value instanceof DoubleArray) {
    if (value.dims !== dims) throw new SqlError(SqlState.DATATYPE_MISMATCH, `array dimension mismatch: ${from} -> ${to}`, position)
    return value
  }
  if (typeof value === 'string' && textLike(from)) {
    try {
      return parseArrayText(value, dims, position)
    } catch (err) {
      if (badTextNull) return null
      throw err
    }
  }
  return undefined
}
