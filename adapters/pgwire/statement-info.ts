/**
 * The facts about a parsed statement the protocol needs before running it — how many `$n`
 * parameters it has, whether it returns rows, its CommandComplete tag (reference §4.7) — read
 * from the engine's {@link StatementInfo} (`Database.statementInfo`), worked out there once per
 * statement and schema version.
 */
import type { Database, StatementInfo } from '../../lib/index.js'

/** The `n` of every `$n` that is the whole list of an IN (`x IN ($n)`): the engine's answer. */
export { inListParams } from '../../lib/internal.js'

/** A parsed statement, as `Database.parse` returns it. */
export type Statement = ReturnType<Database['parse']>[number]

/** The CommandComplete tag of a finished statement; `rows` is rows sent or affected. */
export function commandTag(info: StatementInfo, rows: number): string {
  switch (info.commandTag) {
    case 'SELECT': return `SELECT ${rows}`
    case 'INSERT': return `INSERT 0 ${rows}`
    case 'UPDATE': return `UPDATE ${rows}`
    default: return info.commandTag
  }
}
