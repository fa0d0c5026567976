/**
 * The text form of a key tuple, for operators that keep rows in a Map by key (DISTINCT, set
 * operations, hash joins, and {@link KeyIndex}'s composite keys): equal values give equal text
 * whatever vector carries them (a LONG as a number or a bigint, a SYMBOL or a STRING).
 */
import { type Scalar, type Vector, getScalar } from '../../types/vector.js'
import { objectKey } from '../../types/array.js'

/** The text of one key value; the parts of a tuple are concatenated. */
export function keyPart(s: Scalar): string {
  if (s === null) return '\u0001\u0003'
  if (typeof s === 'object') return `\u0002${objectKey(s)}\u0003`
  return `\u0000${typeof s === 'bigint' ? 'number' : typeof s}:${String(s)}\u0003`
}

/** The text key of row `i` across `vs`. */
export function rowKey(vs: readonly Vector[], i: number): string {
  let key = ''
  for (const v of vs) key += keyPart(getScalar(v, i))
  return key
}
