/**
 * REST encoding of TIMESTAMP_NS columns, shared by JSON (`/exec`) and CSV (`/exp`): QuestDB 9
 * prints them as quoted ISO text with nine fraction digits (`"2024-01-01T00:00:00.123456789Z"`).
 * The vector is split into microseconds and remainders once per batch, so no BigInt is made per row.
 */
import { formatNsParts, splitNs } from '../../../lib/internal.js'
import type { Vector } from '../../../lib/index.js'

const NULL_MICROS = -9223372036854775808

/** Row `i` of `v` (a TIMESTAMP_NS vector) as `"<iso>"`, or `nullText` for null. */
export function nsTextEncoder(v: Vector, nullText: string): (i: number) => string {
  if (v.kind !== 'i64') return () => nullText
  const { micros, sub } = splitNs(v, v.length)
  const s = v.isConst === true ? 0 : 1
  return (i) => { const m = micros[i * s]!; return m === NULL_MICROS ? nullText : '"' + formatNsParts(m, sub[i * s]!) + '"' }
}
