/**
 * UUID text codec. UUIDs travel through the engine as canonical lower-case strings
 * (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`); QuestDB's null UUID is the value whose two 64-bit
 * halves are both Long.MIN_VALUE, i.e. {@link UUID_NULL_TEXT}.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** The text of QuestDB's null UUID (both halves -2^63); it reads as null. */
export const UUID_NULL_TEXT = '80000000-0000-0000-8000-000000000000'

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
}

/**
 * Parses a UUID in its 36-character dashed form (upper or lower case) to the canonical lower-case
 * text. Returns null when `text` is not a UUID. The null sentinel {@link UUID_NULL_TEXT} parses
 * to itself; use {@link isUuidNull} to test for it.
 */
export function parseUuid(text: string): string | null {
  if (text.length !== 36) return null
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(i)
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return null
    } else if (!isHex(c)) return null
  }
  return text.toLowerCase()
}

/** True when canonical UUID text is QuestDB's null UUID. */
export function isUuidNull(canonical: string): boolean {
  return canonical === UUID_NULL_TEXT
}

/** The UUID text of two 64-bit halves (`hi` is the first 16 hex digits), as QuestDB prints it. */
export function uuidFromHalves(hi: bigint, lo: bigint): string {
  const h = BigInt.asUintN(64, hi).toString(16).padStart(16, '0')
  const l = BigInt.asUintN(64, lo).toString(16).padStart(16, '0')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12)}-${l.slice(0, 4)}-${l.slice(4)}`
}

/** The two signed 64-bit halves of canonical UUID text: [hi, lo]. */
export function uuidToHalves(canonical: string): [bigint, bigint] {
  const hex = canonical.replace(/-/g, '')
  return [BigInt.asIntN(64, BigInt('0x' + hex.slice(0, 16))), BigInt.asIntN(64, BigInt('0x' + hex.slice(16)))]
}
