/**
 * JSON UNNEST (QuestDB 9, query/sql/unnest.md): `UNNEST(varchar COLUMNS(name TYPE, ...))
 * [WITH ORDINALITY]` — one row per element of a JSON array held as text. The grammar turns it into
 * `unnest_json(json, 'name', 'TYPE', ...)`. An object element gives each column its field of the
 * same name; with one column, a scalar element is the value itself. Types: BOOLEAN, SHORT, INT,
 * LONG, DOUBLE, VARCHAR, TIMESTAMP (text in QuestDB's timestamp forms, or a number of
 * microseconds). A NULL or empty text, invalid JSON, a non-array or `[]` give no rows; a `null`
 * element, a missing field or a value of another kind give NULL (BOOLEAN: false); integer columns
 * take integral numbers only; DOUBLE also a number held in a string (the page's Coinbase example);
 * VARCHAR takes strings (other values as their JSON text).
 */
import { SqlError, SqlState } from '../../errors.js'
import { type ColumnType, parseTypeName } from '../../types/column-type.js'
import { parseTimestampText } from '../../types/text-parse.js'
import { type Batch, type Scalar, VectorWriter } from '../../types/vector.js'
import type { CallSite, TableFunctionDef } from '../registry-types.js'

const ALLOWED: readonly ColumnType[] = ['BOOLEAN', 'SHORT', 'INT', 'LONG', 'DOUBLE', 'VARCHAR', 'TIMESTAMP']
const RANGES: Partial<Record<ColumnType, [number, number]>> = { SHORT: [-32768, 32767], INT: [-2147483647, 2147483647], LONG: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] }

/** The declared columns: names and types from the constant arguments after the JSON text. */
function columnsOf(site: CallSite): { name: string; type: ColumnType }[] {
  const out: { name: string; type: ColumnType }[] = []
  for (let i = 1; i + 1 < site.argTypes.length; i += 2) {
    const name = String(site.constants[i] ?? '')
    const typeText = String(site.constants[i + 1] ?? '')
    const pos = site.argPositions[i + 1] ?? site.pos
    if (name.includes('.')) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `nested paths are not supported in COLUMNS(): ${name}; use json_extract() first`, site.argPositions[i] ?? site.pos)
    const type = parseTypeName(typeText, pos)
    if (type === undefined || !ALLOWED.includes(type)) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `unsupported JSON UNNEST column type: ${typeText} (BOOLEAN, SHORT, INT, LONG, DOUBLE, VARCHAR, TIMESTAMP)`, pos)
    out.push({ name, type })
  }
  return out
}

/** One JSON value as a column value of `type`. */
function valueOf(x: unknown, type: ColumnType): Scalar {
  if (type === 'BOOLEAN') return x === true
  if (x === null || x === undefined) return null
  switch (type) {
    // a number, or a number held in a string: QuestDB's page reads Coinbase's "price":"69839.36000000" as 69839.36
    case 'DOUBLE': return typeof x === 'number' ? x : typeof x === 'string' && JSON_NUMBER.test(x) ? Number(x) : null
    case 'VARCHAR': return typeof x === 'string' ? x : JSON.stringify(x)
    case 'TIMESTAMP':
      if (typeof x === 'number') return Number.isInteger(x) ? x : null
      if (typeof x === 'string') { const t = parseTimestampText(x); return t === undefined ? null : t }
      return null
    default: {
      const r = RANGES[type]!
      return typeof x === 'number' && Number.isInteger(x) && x >= r[0] && x <= r[1] ? x : null
    }
  }
}

/** A JSON number, the grammar of RFC 8259. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

function elements(text: Scalar): unknown[] {
  if (typeof text !== 'string' || text.trim() === '') return []
  try {
    const v: unknown = JSON.parse(text)
    return Array.isArray(v) ? v : []
  } catch {
    return [] // invalid JSON: no rows, no error (QuestDB)
  }
}

function definition(name: string, ordinality: boolean): TableFunctionDef {
  return {
    kind: 'table', name, family: 'json',
    description: `What \`UNNEST(json COLUMNS(name TYPE, ...))${ordinality ? ' WITH ORDINALITY' : ''}\` runs: one row per element of a JSON array.`,
    example: `SELECT * FROM UNNEST('[{"a":1},{"a":2}]'::VARCHAR COLUMNS(a INT))${ordinality ? ' WITH ORDINALITY' : ''}`,
    signatures: [{ args: ['TEXT'], variadic: 'STRING', returns: 'VARCHAR' }],
    columns: (site) => [...columnsOf(site), ...(ordinality ? [{ name: 'ordinality', type: 'LONG' as ColumnType }] : [])],
    timestampIndex: () => -1,
    runtimeArgs: true,
    open: (site): Batch[] => {
      const cols = columnsOf(site)
      const items = elements(site.constants[0] ?? null)
      const n = items.length
      const writers = cols.map((c) => new VectorWriter(c.type, n))
      items.forEach((item, r) => {
        const object = item !== null && typeof item === 'object' && !Array.isArray(item) ? item as Record<string, unknown> : undefined
        cols.forEach((c, k) => {
          const x = object !== undefined ? object[c.name] : cols.length === 1 ? item : undefined
          writers[k]!.set(r, valueOf(x, c.type))
        })
      })
      const vectors = writers.map((w) => w.finish())
      if (ordinality) vectors.push({ kind: 'i64', type: 'LONG', length: n, data: Float64Array.from({ length: n }, (_, i) => i + 1) })
      return [{ length: n, vectors }]
    },
  }
}

/** JSON UNNEST, plain and WITH ORDINALITY. */
export const UNNEST_JSON_FUNCTIONS: readonly TableFunctionDef[] = [definition('unnest_json', false), definition('unnest_json_with_ordinality', true)]
