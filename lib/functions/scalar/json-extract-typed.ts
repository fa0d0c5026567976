/**
 * `json_extract(doc, path)::<type>`: the value at the path read straight into BOOLEAN, SHORT, INT,
 * LONG, FLOAT, DOUBLE, DATE, TIMESTAMP or IPV4, by QuestDB's table of conversions (json.md, "Table
 * of type conversions"):
 *
 * - BOOLEAN: JSON `true` is true; everything else (and any error) is false.
 * - SHORT / INT / LONG: a number, or a number held in a JSON string, truncated toward zero
 *   (`'1.75'` gives 1); `true`/`false` give 1/0; out of range, `null`, an array, an object, a
 *   missing value or a malformed document give NULL (0 for SHORT, which has no NULL).
 * - FLOAT / DOUBLE: a number or numeric string; booleans give 1.0/0.0; out of range gives NULL.
 * - DATE / TIMESTAMP: an ISO 8601 string, or a number of milliseconds (DATE) / microseconds
 *   (TIMESTAMP) since the epoch with its fraction dropped; anything else gives NULL.
 * - IPV4: a dotted string, or a number as the address's integer.
 *
 * The binder turns a cast of a json_extract call into this function (plan/bind-json-extract-cast.ts);
 * the target type is the call's result type. Any other target goes through VARCHAR, as QuestDB
 * documents ("`json_extract(..)::UUID` is effectively `json_extract(..)::VARCHAR::UUID`").
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from '../../types/column-type.js'
import { castScalar } from '../../types/cast-scalar.js'
import type { Scalar } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { jsonLocate } from './json-extract.js'

/** The targets json_extract converts to directly; other casts read the VARCHAR. */
export const JSON_TYPED_TARGETS: ReadonlySet<ColumnType> = new Set<ColumnType>(['BOOLEAN', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'IPV4'])

/** A JSON number, the grammar of RFC 8259. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** The numeric text of a JSON token (a number, or a number inside a string), or undefined. */
function numericText(raw: string): string | undefined {
  const text = raw.startsWith('"') ? JSON.parse(raw) as string : raw
  return JSON_NUMBER.test(text) ? text : undefined
}

/** `text` (a JSON number) truncated toward zero, as a bigint. */
function truncated(text: string): bigint | undefined {
  if (/^-?\d+$/.test(text)) return BigInt(text)
  const x = Number(text)
  return Number.isFinite(x) ? BigInt(Math.trunc(x)) : undefined
}

const RANGES: Readonly<Record<'SHORT' | 'INT' | 'LONG', readonly [bigint, bigint]>> = {
  SHORT: [-32768n, 32767n],
  // the lowest value of INT and LONG is their NULL
  INT: [-2147483647n, 2147483647n],
  LONG: [-9223372036854775807n, 9223372036854775807n],
}

function integerOf(raw: string, to: 'SHORT' | 'INT' | 'LONG'): Scalar {
  const none = to === 'SHORT' ? 0 : null
  if (raw === 'true' || raw === 'false') return raw === 'true' ? 1 : 0
  const text = numericText(raw)
  const n = text === undefined ? undefined : truncated(text)
  const [lo, hi] = RANGES[to]
  if (n === undefined || n < lo || n > hi) return none
  const x = Number(n)
  return Number.isSafeInteger(x) ? x : n
}

function floatOf(raw: string, to: 'FLOAT' | 'DOUBLE'): Scalar {
  if (raw === 'true' || raw === 'false') return raw === 'true' ? 1 : 0
  const text = numericText(raw)
  if (text === undefined) return null
  const x = to === 'FLOAT' ? Math.fround(Number(text)) : Number(text)
  return Number.isFinite(x) ? x : null
}

/** DATE / TIMESTAMP / IPV4: a string as that type's text, a number as its integer. */
function textOrNumberOf(raw: string, to: 'DATE' | 'TIMESTAMP' | 'IPV4'): Scalar {
  if (raw.startsWith('"')) return castScalar(JSON.parse(raw) as string, 'VARCHAR', to, 'null')
  const text = numericText(raw)
  const n = text === undefined ? undefined : truncated(text)
  if (n === undefined) return null
  return castScalar(n, 'LONG', to, 'null')
}

/**
 * The value of the JSON token `raw` (as {@link jsonLocate} gives it, or null when missing or
 * malformed) as `to`, one of {@link JSON_TYPED_TARGETS}.
 */
export function jsonValueAs(raw: string | null, to: ColumnType): Scalar {
  if (to === 'BOOLEAN') return raw === 'true'
  if (raw === null || raw === 'null' || raw.startsWith('[') || raw.startsWith('{')) return to === 'SHORT' ? 0 : null
  switch (to) {
    case 'SHORT': case 'INT': case 'LONG': return integerOf(raw, to)
    case 'FLOAT': case 'DOUBLE': return floatOf(raw, to)
    case 'DATE': case 'TIMESTAMP': case 'IPV4': return textOrNumberOf(raw, to)
    default: return null
  }
}

/**
 * `json_extract(doc, path)` cast to the call's result type. Not a built-in (not callable by name):
 * the binder makes it from `json_extract(...)::type`.
 */
export const JSON_EXTRACT_TYPED: ScalarFunctionDef = {
  kind: 'scalar', name: 'json_extract', family: 'string',
  description: 'json_extract(doc, path) converted to the cast type by QuestDB\'s table of JSON conversions.',
  example: "SELECT json_extract('1.75', '$')::long",
  signatures: [...JSON_TYPED_TARGETS].map((t) => ({ args: ['TEXT', 'TEXT'], returns: t })),
  nullStrict: false,
  init: (site) => site,
  row: ([doc, path], _ctx, site) => {
    const to = (site as CallSite).returns
    if (doc === null || doc === undefined || path === null || path === undefined) return jsonValueAs(null, to)
    return jsonValueAs(jsonLocate(String(doc), String(path)), to)
  },
}
