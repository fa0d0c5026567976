/**
 * One statement per request, as QuestDB's REST endpoints take it: parsed through the
 * database's statement cache, a trailing `;` allowed, anything after it refused.
 */
import type { Database, ExecOptions } from '../../lib/index.js'
import { SqlError, SqlState } from '../../lib/index.js'

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

/** True for statements that return rows (SELECT, WITH, set operations, SHOW, EXPLAIN): the engine's `StatementInfo.returnsRows`. */
export function returnsRows(db: Database, s: Statement): boolean {
  return db.statementInfo(s).returnsRows
}

/** True for statements that change data or schema (refused when the server is read-only): the engine's `StatementInfo.writes`. */
export function isWrite(db: Database, s: Statement): boolean {
  return db.statementInfo(s).writes
}

/**
 * QuestDB's REST names where they differ from the command tag (PostgreSQL's words): DROP,
 * TRUNCATE, RENAME TABLE, and CREATE TABLE for CREATE TABLE AS (whose tag is SELECT).
 */
const REST_QUERY_TYPES: Partial<Record<Statement['kind'], string>> = {
  drop_table: 'DROP', truncate_table: 'TRUNCATE', rename_table: 'RENAME TABLE', create_table_as: 'CREATE TABLE',
}

/** QuestDB's `queryType` name of a statement that does not return rows (/api/v1/sql/validate). */
export function queryType(db: Database, s: Statement): string {
  return REST_QUERY_TYPES[s.kind] ?? db.statementInfo(s).commandTag
}
