/**
 * `json_extract(doc, path)` (QuestDB's json.md): the value at a JSONPath subset — `$` (optional),
 * `.field`, `[n]` — of a JSON document held as text, as VARCHAR: a string's text, or the raw JSON
 * text of a number, boolean, array or object as written (`1.0` stays `1.0`). A JSON `null`, a
 * missing field or index, a malformed document or path, and NULL arguments give NULL. A cast of
 * the call to BOOLEAN, SHORT, INT, LONG, FLOAT, DOUBLE, DATE, TIMESTAMP or IPV4 extracts that type
 * directly, with QuestDB's conversion table (json-extract-typed.ts); other casts go through VARCHAR.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ScalarFunctionDef } from '../registry-types.js'

/** One step of a path: a field name or an array index. */
type Step = string | number

/** The steps of a JSONPath subset (`$.a.b[0]`, `a[2].c`), or undefined when it is not one. */
export function parseJsonPath(path: string): Step[] | undefined {
  const steps: Step[] = []
  let i = path.startsWith('$') ? 1 : 0
  while (i < path.length) {
    const c = path[i]
    if (c === '.') {
      const m = /^[^.[\]]+/.exec(path.slice(i + 1))
      if (m === null) return undefined
      steps.push(m[0])
      i += 1 + m[0].length
    } else if (c === '[') {
      const m = /^\[(\d+)\]/.exec(path.slice(i))
      if (m === null) return undefined
      steps.push(Number(m[1]))
      i += m[0].length
    } else if (i === 0) {
      // a leading bare field: `name` as `$.name`
      const m = /^[^.[\]]+/.exec(path)!
      steps.push(m[0])
      i = m[0].length
    } else return undefined
  }
  return steps
}

/** The VARCHAR json_extract gives for `doc` at `path`, or null. */
export function jsonExtract(doc: string, path: string): string | null {
  const raw = jsonLocate(doc, path)
  if (raw === null || raw === 'null') return null
  return raw.startsWith('"') ? JSON.parse(raw) as string : raw
}

/**
 * The JSON text of the value at `path` in `doc` as written (a string keeps its quotes, `null`
 * stays `null`), or null when the document or path is malformed or the value is missing.
 */
export function jsonLocate(doc: string, path: string): string | null {
  const steps = parseJsonPath(path)
  if (steps === undefined) return null
  try { JSON.parse(doc) } catch { return null }
  // the document is valid JSON: walk its text, so a value comes back as written (`1.0` stays `1.0`)
  let at = skipSpace(doc, 0)
  for (const s of steps) {
    const next = typeof s === 'number' ? arrayItem(doc, at, s) : objectField(doc, at, s)
    if (next === undefined) return null
    at = next
  }
  return doc.slice(at, valueEnd(doc, at))
}

function skipSpace(t: string, i: number): number {
  while (i < t.length && (t[i] === ' ' || t[i] === '\n' || t[i] === '\r' || t[i] === '\t')) i++
  return i
}

/** The index just past the (valid) JSON value starting at `i`. */
function valueEnd(t: string, i: number): number {
  const c = t[i]
  if (c === '"') {
    for (let j = i + 1; ; j++) { if (t[j] === '\\') j++; else if (t[j] === '"') return j + 1 }
  }
  if (c === '{' || c === '[') {
    let depth = 0
    for (let j = i; j < t.length; j++) {
      const d = t[j]
      if (d === '"') j = valueEnd(t, j) - 1
      else if (d === '{' || d === '[') depth++
      else if ((d === '}' || d === ']') && --depth === 0) return j + 1
    }
    return t.length
  }
  let j = i
  while (j < t.length && !/[\s,\]}]/.test(t[j]!)) j++
  return j
}

/** The start of item `n` (0-based) of the array at `i`, or undefined. */
function arrayItem(t: string, i: number, n: number): number | undefined {
  if (t[i] !== '[') return undefined
  let j = skipSpace(t, i + 1)
  if (t[j] === ']') return undefined
  for (let k = 0; ; k++) {
    if (k === n) return j
    j = skipSpace(t, valueEnd(t, j))
    if (t[j] !== ',') return undefined
    j = skipSpace(t, j + 1)
  }
}

/** The start of field `name`'s value in the object at `i`, or undefined. */
function objectField(t: string, i: number, name: string): number | undefined {
  if (t[i] !== '{') return undefined
  let j = skipSpace(t, i + 1)
  if (t[j] === '}') return undefined
  for (;;) {
    const keyEnd = valueEnd(t, j)
    const key = JSON.parse(t.slice(j, keyEnd)) as string
    j = skipSpace(t, skipSpace(t, keyEnd) + 1)
    if (key === name) return j
    j = skipSpace(t, valueEnd(t, j))
    if (t[j] !== ',') return undefined
    j = skipSpace(t, j + 1)
  }
}

/** The JSON functions. */
export const JSON_FUNCTIONS: readonly ScalarFunctionDef[] = [{
  kind: 'scalar', name: 'json_extract', family: 'string',
  description: "The value at a JSON path ($, .field, [n]) of a JSON document as VARCHAR: a string's text or the raw JSON of anything else; NULL when missing, null or malformed. A cast right after it (::long, ::double, ::timestamp, ::boolean, ...) converts by QuestDB's JSON table: numbers truncate for integers ('1.75' is 1), booleans are 0/1, errors NULL (0/false for SHORT/BOOLEAN).",
  example: "SELECT json_extract(trade_details, '$.price')::double FROM trades",
  signatures: [{ args: ['TEXT', 'TEXT'], returns: 'VARCHAR' }],
  row: (a) => jsonExtract(String(a[0]), String(a[1])),
}]
