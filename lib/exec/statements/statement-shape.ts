/**
 * The facts of a statement its kind alone decides, without binding: whether it returns rows and
 * its command tag (PostgreSQL's CommandComplete words; pgwire adds the row count).
 */
import type { Statement } from '../../sql/ast.js'
import { aclReturnsRows } from '../../sql/ast-acl.js'

/** True when the statement answers with a row set (queries, SHOW, EXPLAIN, access-control SHOW ... and CREATE TOKEN). */
export function returnsRows(stmt: Statement): boolean {
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': case 'show': case 'explain': case 'copy_to': return true
    case 'create_table': case 'create_table_as': case 'create_table_like': case 'drop_table': case 'truncate_table':
    case 'rename_table': case 'alter_table': case 'insert': case 'update': case 'transaction': case 'set': case 'unsupported':
    case 'cancel_query': case 'create_view': case 'drop_view': case 'compile_view': case 'mat_view':
      return false
    case 'acl': return aclReturnsRows(stmt)
  }
}

/**
 * The command tag's words: `SELECT` (also for CREATE TABLE AS, as PostgreSQL), `INSERT`,
 * `UPDATE`, `CREATE TABLE`, `DROP TABLE`, `TRUNCATE TABLE`, `ALTER TABLE` (also RENAME TABLE),
 * `EXPLAIN`, `BEGIN`/`COMMIT`/`ROLLBACK`, `SET`, an unsupported statement's feature, an
 * access-control action (`CREATE USER`, ...).
 */
export function commandTag(stmt: Statement): string {
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': case 'show': case 'create_table_as': case 'copy_to': return 'SELECT'
    case 'explain': return 'EXPLAIN'
    case 'insert': return 'INSERT'
    case 'update': return 'UPDATE'
    case 'create_table': case 'create_table_like': return 'CREATE TABLE'
    case 'drop_table': return 'DROP TABLE'
    case 'create_view': return stmt.alter ? 'ALTER VIEW' : 'CREATE VIEW'
    case 'drop_view': return 'DROP VIEW'
    case 'compile_view': return 'COMPILE VIEW'
    case 'mat_view': return `${stmt.op.toUpperCase()} MATERIALIZED VIEW`
    case 'truncate_table': return 'TRUNCATE TABLE'
    case 'rename_table': case 'alter_table': return 'ALTER TABLE'
    case 'transaction': return stmt.action.toUpperCase()
    case 'set': return 'SET'
    case 'cancel_query': return 'CANCEL QUERY'
    case 'unsupported': return stmt.feature.toUpperCase()
    case 'acl': return aclReturnsRows(stmt) ? 'SELECT' : stmt.action.replace(/_/g, ' ').toUpperCase()
  }
}
