/**
 * ORDER BY on a wide DECIMAL (p > 18, held as exact text): rows compare by value, not by text.
 * Narrow decimals sort as their scaled 64-bit integers, with the other i64 types.
 */
import { type DecimalType, decimalScale, parseUnscaled } from '../../types/decimal.js'
import type { StrVector } from '../../types/vector.js'

/** A comparator of rows a and b (both non-null) of a wide DECIMAL vector; values parse once. */
export function wideDecimalCompare(v: StrVector): (a: number, b: number) => number {
  const s = decimalScale(v.type as DecimalType)
  const u = v.data.map((x) => (x === null ? 0n : parseUnscaled(x, s) ?? 0n))
  return (a, b) => { const x = u[a]!, y = u[b]!; return x < y ? -1 : x > y ? 1 : 0 }
}
