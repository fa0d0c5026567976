/**
 * Whether a statement changes data or the catalog: the one classification the adapters'
 * read-only modes (`http.security.readonly`, `pg.security.readonly`) refuse by.
 */
import type { Statement } from './ast.js'
import { aclWrites } from './ast-acl.js'

/** Recognised-but-unsupported statements that only read (cursors); every other one would write. */
const UNSUPPORTED_READS: ReadonlySet<string> = new Set(['DECLARE', 'DECLARE CURSOR', 'FETCH', 'MOVE', 'CLOSE'])

/**
 * True for statements that change data or the catalog: INSERT, UPDATE, CREATE / DROP / ALTER /
 * TRUNCATE / RENAME TABLE, and the unsupported DELETE, COPY, CREATE INDEX / VIEW. Queries, SHOW,
 * EXPLAIN (which does not run its statement), SET and BEGIN / COMMIT / ROLLBACK only read.
 *
 * @example
 * ```ts
 * isWriteStatement(db.parse('insert into t values (1)')[0]!)  // true
 * isWriteStatement(db.parse('select * from t')[0]!)           // false
 * ```
 */
export function isWriteStatement(s: Statement): boolean {
  switch (s.kind) {
    case 'select': case 'setop': case 'with': case 'show': case 'explain': case 'transaction': case 'set': case 'cancel_query':
    case 'compile_view': // re-checks a view's query; its status is worked out again, never stored
      return false
    case 'unsupported':
      return !UNSUPPORTED_READS.has(s.feature)
    case 'acl':
      return aclWrites(s)
    case 'create_table': case 'create_table_as': case 'create_table_like': case 'drop_table': case 'truncate_table':
    case 'rename_table': case 'alter_table': case 'insert': case 'update': case 'copy_to': case 'create_view': case 'drop_view': case 'mat_view':
      return true
  }
}
