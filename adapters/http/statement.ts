/**
 * One statement per request, as QuestDB's REST endpoints take it: parsed through the
 * database's statement cache, a trailing `;` allowed, anything after it refused.
 */
import type { Database, ExecOptions } from '../../lib/index.js'
import { SqlError, SqlState, isWriteStatement } from '../../lib/index.js'

/** A parsed statement (the AST root `Database.parse` returns). */
export type Statement = ReturnType<Database['parse']>[number]

/**
 * Parses `sql` into one statement, or undefined when the text holds none (empty or comments).
 * A long text is parsed in slices (`Database.parseAsync`): other requests are served meanwhile,
 * and `options`' signal and timeout stop the parse.
 */
export async function parseOne(db: Database, sql: string, options: ExecOptions = {}): Promise<Statement | undefined> {
  const stmts = await db.parseAsync(sql, options)
  if (stmts.length <= 1) return stmts[0]
  const pos = 'pos' in stmts[1]! ? stmts[1].pos : 0
  const word = /^(?:[A-Za-z_][\w]*|\S)/.exec(sql.slice(pos))?.[0] ?? ''
  throw new SqlError(SqlState.SYNTAX_ERROR, `unexpected token [${word.toLowerCase()}]`, pos)
}

/** True for statements that return rows (SELECT, WITH, set operations, SHOW, EXPLAIN). */
export function returnsRows(s: Statement): boolean {
  switch (s.kind) {
    case 'select': case 'setop': case 'with': case 'show': case 'explain': return true
    default: return false
  }
}

/** True for statements that change data or schema (refused when the server is read-only): the engine's {@link isWriteStatement}. */
export function isWrite(s: Statement): boolean {
  return isWriteStatement(s)
}

/** QuestDB's `queryType` name of a statement that does not return rows (/api/v1/sql/validate). */
export function queryType(s: Statement): string {
  switch (s.kind) {
    case 'select': case 'setop': case 'with': case 'show': case 'explain': return 'SELECT'
    case 'create_table': case 'create_table_as': case 'create_table_like': return 'CREATE TABLE'
    case 'drop_table': return 'DROP'
    case 'truncate_table': return 'TRUNCATE'
    case 'rename_table': return 'RENAME TABLE'
    case 'alter_table': return 'ALTER TABLE'
    case 'insert': return 'INSERT'
    case 'update': return 'UPDATE'
    case 'transaction': return s.action.toUpperCase()
    case 'set': return 'SET'
    case 'unsupported': return s.feature.toUpperCase()
  }
}
