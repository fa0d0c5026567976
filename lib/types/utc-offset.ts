/**
 * UTC offsets written as text, QuestDB's way (`Dates.parseOffset`): `+02:00`, `-0530`, `+5`,
 * `UTC+01`, `GMT-3:30`, `Z`. The one parser of offsets for time zones (`to_timezone(ts, '+02:00')`),
 * SAMPLE BY ... WITH OFFSET and `to_timestamp`'s zone field; the timestamp literal parser reads
 * the same shape inline, character by character.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

const MICROS_PER_MINUTE = 60_000_000

/** `[UTC|GMT]±H[H][[:]mm]`, or an unsigned `H[H][[:]mm]`; the prefix needs a sign. */
const OFFSET = /^(?:(?:UTC|GMT)([+-])|([+-]?))(\d{1,2})(?::?(\d{2}))?$/i

/** What {@link parseUtcOffset} accepts beyond the shape. */
export interface UtcOffsetRules {
  /** the sign may be left out (SAMPLE BY's `WITH OFFSET '00:45'`); default false */
  readonly unsigned?: boolean
  /** the largest hour; default 23 (QuestDB), 18 for time zones (Java's `ZoneOffset`) */
  readonly maxHours?: number
}

/**
 * The offset `text` names, in microseconds east of UTC, or null when it is not an offset or its
 * hours or minutes are out of range. `Z` alone is 0.
 */
export function parseUtcOffset(text: string, rules: UtcOffsetRules = {}): number | null {
  if (text === 'Z' || text === 'z') return 0
  const m = OFFSET.exec(text)
  if (m === null) return null
  const sign = m[1] ?? m[2] ?? ''
  if (sign === '' && rules.unsigned !== true) return null
  const h = Number(m[3])
  const min = m[4] === undefined ? 0 : Number(m[4])
  if (h > (rules.maxHours ?? 23) || min > 59) return null
  return (sign === '-' ? -1 : 1) * (h * 60 + min) * MICROS_PER_MINUTE
}
