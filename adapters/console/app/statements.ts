/**
 * Splits editor text into statements with their offsets, using the engine's own lexer (so a
 * `;` inside a string or comment does not split), and picks what to run: the selection, the
 * statement at the cursor, or all.
 */
import { tokenize } from '../../../lib/sql/index.js'

/** One statement of the script: its text and where it starts and ends in the document. */
export interface StatementRange {
  readonly from: number
  readonly to: number
  readonly text: string
}

/** The statements of `doc` (empty ones dropped), trimmed, with document offsets. */
export function splitStatements(doc: string): StatementRange[] {
  const cuts: number[] = []
  try {
    for (const t of tokenize(doc)) if (t.type === 'op' && t.text === ';') cuts.push(t.offset)
  } catch {
    for (let i = doc.indexOf(';'); i >= 0; i = doc.indexOf(';', i + 1)) cuts.push(i)
  }
  const out: StatementRange[] = []
  let start = 0
  for (const end of [...cuts, doc.length]) {
    const raw = doc.slice(start, end)
    const lead = raw.length - raw.trimStart().length
    const text = raw.trim()
    if (text.length > 0) out.push({ from: start + lead, to: start + lead + text.length, text })
    start = end + 1
  }
  return out
}

/** The statement that contains `pos`, or the nearest one before it (after a trailing `;`). */
export function statementAt(doc: string, pos: number): StatementRange | undefined {
  const all = splitStatements(doc)
  let best: StatementRange | undefined
  for (const s of all) {
    if (s.from <= pos) best = s
    if (pos <= s.to) return s.from <= pos ? s : best ?? s
  }
  return best
}
