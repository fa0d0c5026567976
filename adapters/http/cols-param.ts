/**
 * The `cols` parameter of /exec: a comma-separated list of result columns to send, in order;
 * names may be double-quoted and use backslash escapes (`"b,c"`).
 */
import type { ColumnInfo } from '../../lib/index.js'
import { HttpError } from './http-error.js'

/** Parses `cols` into names. Throws 400 "empty column in query parameter" for an empty name. */
export function parseCols(text: string): string[] {
  const names: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\' && i + 1 < text.length) { cur += text[++i]; continue }
    if (c === '"') { quoted = !quoted; continue }
    if (c === ',' && !quoted) {
      push()
      continue
    }
    cur += c
  }
  push()
  return names

  function push(): void {
    if (cur.length === 0) throw new HttpError(400, 'empty column in query parameter', null)
    names.push(cur)
    cur = ''
  }
}

/** The indices of `names` in `columns` (case-insensitive); 400 "column not found: 'z'" otherwise. */
export function selectColumns(columns: readonly ColumnInfo[], names: readonly string[] | undefined): number[] {
  if (names === undefined) return columns.map((_, i) => i)
  return names.map((n) => {
    const lower = n.toLowerCase()
    const i = columns.findIndex((c) => c.name.toLowerCase() === lower)
    if (i < 0) throw new HttpError(400, `column not found: '${n}'`, null)
    return i
  })
}
