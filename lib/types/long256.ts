/**
 * LONG256 text codec: a 256-bit unsigned integer written `0x` + hex. QuestDB prints the minimal
 * number of whole bytes (an even number of hex digits, at least two) in lower case, e.g. `0x01`,
 * `0x9f9b21...`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/**
 * Parses `0x` followed by 1–64 hex digits (either case) to the normalised text QuestDB prints.
 * Returns null for anything else.
 */
export function parseLong256(text: string): string | null {
  const len = text.length
  if (len < 3 || len > 66 || text.charCodeAt(0) !== 48 || (text.charCodeAt(1) | 32) !== 120 /* x */) return null
  let start = 2
  for (let i = 2; i < len; i++) {
    const c = text.charCodeAt(i)
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return null
  }
  while (start < len - 1 && text.charCodeAt(start) === 48) start++
  let hex = text.slice(start).toLowerCase()
  if (hex.length % 2 === 1) hex = '0' + hex
  return '0x' + hex
}

/** Normalised LONG256 text of a non-negative bigint below 2^256 (bits above are dropped). */
export function long256FromBigInt(v: bigint): string {
  let hex = BigInt.asUintN(256, v).toString(16)
  if (hex.length % 2 === 1) hex = '0' + hex
  return '0x' + hex
}

/** The unsigned value of normalised (or any valid) LONG256 text. */
export function long256ToBigInt(text: string): bigint {
  return BigInt(text)
}
