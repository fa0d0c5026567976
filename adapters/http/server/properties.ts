/**
 * Reads a Java-style properties file (QuestDB's `server.conf`): `key=value` lines, `#`/`!`
 * comments, blank lines ignored, whitespace around key and value trimmed.
 */

/** One entry with the line it came from. */
export interface Property {
  readonly key: string
  readonly value: string
  readonly line: number
}

/** Parses properties text. Lines without `=` (or `:`) are reported as errors. */
export function parseProperties(text: string): { entries: Property[]; errors: string[] } {
  const entries: Property[] = []
  const errors: string[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line.length === 0 || line.startsWith('#') || line.startsWith('!')) continue
    const m = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line)
    if (m === null) { errors.push(`line ${i + 1}: expected key=value, found '${line}'`); continue }
    entries.push({ key: m[1]!, value: m[2]!.trim(), line: i + 1 })
  }
  return { entries, errors }
}

/** The environment variable that overrides `key`: `QDB_` + upper-case, `.` and `-` → `_`. */
export function envName(key: string): string {
  return 'QDB_' + key.toUpperCase().replace(/[.-]/g, '_')
}
