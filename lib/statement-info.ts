/**
 * What the engine knows about a statement before it runs: its parameters, its result, its
 * command tag, whether it writes, and the permissions it needs. One home for these facts, so
 * that adapters read them instead of walking the AST (issue #13 §1).
 *
 * CONTRACT (lead, 2026-11-23): the types below are shared by the engineers working on
 * StatementInfo, the access-control model and the adapters; change them only by agreement.
 */
import type { ColumnType } from './types/column-type.js'

/** A result column: its name and QuestDB type name (`LONG`, `TIMESTAMP`, `IPv4`, ...). */
export interface ColumnInfo {
  readonly name: string
  readonly type: string
}

/**
 * One permission a statement needs, with QuestDB Enterprise's names (`SELECT`, `INSERT`,
 * `UPDATE`, `CREATE TABLE`, `DROP TABLE`, `ADD COLUMN`, `CREATE USER`, `DATABASE ADMIN`, ...).
 * `table` is absent for database-level permissions; `columns` lists the columns read or written
 * when the permission is column-level (SELECT, UPDATE), absent when the whole table is meant.
 *
 * As `requiredPermissions` fills it (lib/exec/statements/permissions.ts): an empty `columns`
 * list (`select count(*) from t`, `CREATE TABLE ... (LIKE t)`) means SELECT on any one column of
 * the table will do (QuestDB's `authorizeSelectOnAnyColumn`); INSERT, granted per table, lists
 * none; DROP COLUMN, RENAME COLUMN, ALTER COLUMN TYPE / CACHE,
 * ADD / DROP INDEX list the columns they change.
 */
export interface RequiredPermission {
  readonly permission: string
  readonly table?: string
  readonly columns?: readonly string[]
}

/** The facts of one statement, worked out once per prepared statement and schema version. */
export interface StatementInfo {
  /** the engine type each `$n` takes (index 0 for `$1`) */
  readonly params: readonly ColumnType[]
  /** the result columns, for statements that return rows; undefined otherwise */
  readonly columns: readonly ColumnInfo[] | undefined
  /** true when the statement returns rows (queries, SHOW, EXPLAIN, ...) */
  readonly returnsRows: boolean
  /** the PostgreSQL CommandComplete tag's command word(s): `SELECT`, `INSERT`, `CREATE TABLE`, ... */
  readonly commandTag: string
  /** true when it changes data or the catalog (read-only modes refuse it) */
  readonly writes: boolean
  /** what the session's principal must hold for the statement to run */
  readonly permissions: readonly RequiredPermission[]
}
