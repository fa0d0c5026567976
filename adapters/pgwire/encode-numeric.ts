/**
 * DECIMAL on the wire as PostgreSQL's `numeric` (OID 1700): the RowDescription entry (type
 * modifier `((p << 16) | s) + 4`, as PostgreSQL sends it), and the binary form both ways —
 * int16 ndigits, int16 weight, int16 sign (0x0000 +, 0x4000 -, 0xC000 NaN), int16 dscale, then
 * ndigits base-10000 digits, most significant first. The text form is the exact decimal text.
 */
import type { ColumnType, DecimalType } from '../../lib/index.js'
import { decimalPrecision, decimalScale, formatDecimal } from '../../lib/internal.js'
import { Oid, type PgType } from './pg-types.js'

/** The RowDescription type of a DECIMAL(p,s) column. */
export function numericPgType(t: DecimalType): PgType {
  return { oid: Oid.NUMERIC, size: -1, modifier: ((decimalPrecision(t) << 16) | decimalScale(t)) + 4, binary: true }
}

/** The text of a DECIMAL value (its Scalar form) as sent in text format. */
export function numericText(t: ColumnType, x: NonNullable<unknown>): string {
  return formatDecimal(t as DecimalType, x as number | bigint | string)
}

/** PostgreSQL's binary `numeric` of decimal text (`-12.3400`): the bytes after the length. */
export function numericBinary(text: string): Buffer {
  const neg = text.startsWith('-')
  const body = neg ? text.slice(1) : text
  const dot = body.indexOf('.')
  const intPart = (dot < 0 ? body : body.slice(0, dot)).replace(/^0+/, '')
  const frac = dot < 0 ? '' : body.slice(dot + 1)
  const dscale = frac.length
  // group into base-10000 digits aligned at the decimal point
  const intPadded = intPart.padStart(Math.ceil(intPart.length / 4) * 4, '0')
  const fracPadded = frac.padEnd(Math.ceil(frac.length / 4) * 4, '0')
  let groups: number[] = []
  for (let i = 0; i < intPadded.length; i += 4) groups.push(Number(intPadded.slice(i, i + 4)))
  let weight = groups.length - 1
  for (let i = 0; i < fracPadded.length; i += 4) groups.push(Number(fracPadded.slice(i, i + 4)))
  // strip leading zero groups (adjusting weight) and trailing zero groups
  while (groups.length > 0 && groups[0] === 0) { groups.shift(); weight-- }
  while (groups.length > 0 && groups[groups.length - 1] === 0) groups.pop()
  if (groups.length === 0) weight = 0
  const out = Buffer.alloc(8 + groups.length * 2)
  out.writeInt16BE(groups.length, 0)
  out.writeInt16BE(weight, 2)
  out.writeUInt16BE(neg && groups.length > 0 ? 0x4000 : 0, 4)
  out.writeInt16BE(dscale, 6)
  groups.forEach((g, i) => out.writeInt16BE(g, 8 + i * 2))
  groups = []
  return out
}

/** Decodes PostgreSQL's binary `numeric` into its exact decimal text; undefined for NaN/Infinity or a bad length. */
export function numericFromBinary(b: Uint8Array): string | undefined {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length)
  if (buf.length < 8) return undefined
  const n = buf.readInt16BE(0), weight = buf.readInt16BE(2), sign = buf.readUInt16BE(4), dscale = buf.readInt16BE(6)
  if (sign !== 0 && sign !== 0x4000) return undefined
  if (buf.length < 8 + n * 2) return undefined
  let digits = ''
  for (let i = 0; i < n; i++) digits += String(buf.readInt16BE(8 + i * 2)).padStart(4, '0')
  // digits represent groups weight, weight-1, ...; the decimal point sits after group `weight`
  const intGroups = weight + 1
  let intPart: string, fracPart: string
  if (intGroups <= 0) { intPart = '0'; fracPart = '0'.repeat(-intGroups * 4) + digits }
  else if (intGroups >= n) { intPart = digits + '0'.repeat((intGroups - n) * 4); fracPart = '' }
  else { intPart = digits.slice(0, intGroups * 4); fracPart = digits.slice(intGroups * 4) }
  intPart = intPart.replace(/^0+(?=\d)/, '')
  fracPart = fracPart.padEnd(dscale, '0').slice(0, Math.max(dscale, 0))
  const text = fracPart.length > 0 ? `${intPart}.${fracPart}` : intPart
  return (sign === 0x4000 ? '-' : '') + text
}

/**
 * The parameter value of a binary `numeric`: a number while it has at most 15 significant digits
 * (a double holds it exactly), else its exact text, which a DECIMAL parameter parses without loss.
 */
export function numericParamValue(text: string): number | string {
  return text.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15 ? Number(text) : text
}
