/**
 * Grid cell text by column type, where JSON alone loses what QuestDB's console shows: DOUBLE[]
 * values print their elements as doubles (`[[1.0,2.5],[null,4.0]]`, as QuestDB writes them; the
 * browser's JSON.parse turned `1.0` into `1`), and DECIMAL values (exact strings in /exec JSON) are
 * numbers, aligned as numbers.
 */
import { cellText } from './dom.js'

/** A double as QuestDB's JSON writes it: integral values keep `.0`, non-finite ones are null. */
function doubleText(x: number): string {
  if (!Number.isFinite(x)) return 'null'
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`
  return String(x)
}

function arrayText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(arrayText).join(',')}]`
  return typeof v === 'number' ? doubleText(v) : 'null'
}

/** The text of a cell of a column of `type`, cut at `max` characters. */
export function typedCellText(v: unknown, type: string, max = 1000): string {
  if (v !== null && v !== undefined && Array.isArray(v) && type.endsWith('[]')) {
    const s = arrayText(v)
    return s.length > max ? s.slice(0, max) + '…' : s
  }
  return cellText(v, max)
}

/** True when the column's values are numbers to align right (DECIMAL arrives as exact text). */
export function isNumericColumn(type: string): boolean {
  return type.startsWith('DECIMAL')
}
