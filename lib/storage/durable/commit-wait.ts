/**
 * Which group commit a statement waits for before it runs (see docs/storage.md, "What a
 * statement sees"). A write is acknowledged only once its commit is durable and applied, so a
 * reader that waits for nothing already sees every acknowledged write; what it must not miss is
 * its own session's writes that are not acknowledged yet (pgwire's pipelined, deferred writes):
 *
 * - INSERT ... VALUES reads nothing: it waits for nothing;
 * - a query waits for its session's own deferred writes only — not for other sessions' writes
 *   still committing, which are not committed yet (as in PostgreSQL, another transaction's
 *   changes are seen once its COMMIT returned), so a large commit does not hold up every reader;
 * - any other write (INSERT ... SELECT, UPDATE, DDL, COPY) waits for every write staged before it,
 *   as before: it may rewrite the tables they append to.
 */
import type { Statement } from '../../sql/ast.js'
import { isWriteStatement } from '../../sql/statement-writes.js'
import type { DurableStore } from './store.js'

/**
 * The commit statement `stmt` waits for before it runs, if any: `own` is the arrival number of
 * its session's last deferred write ({@link DurableStore.arrivals} after it), if it made one.
 * Rejects as the awaited commit does (a failed sync of the writes it covers).
 */
export function waitForWrites(store: DurableStore, stmt: Statement, own: number | undefined): Promise<void> | undefined {
  if (stmt.kind === 'insert' && stmt.source.kind === 'values') return undefined
  if (isWriteStatement(stmt)) return store.commit()
  return own === undefined ? undefined : store.commit(own)
}

/**
 * True for statements that may append rows to a table (and then wait for their commit unless
 * deferred): the write statements, and COMMIT of a transaction (its buffered INSERTs).
 */
export function mayAppend(stmt: Statement): boolean {
  return isWriteStatement(stmt) || stmt.kind === 'transaction'
}
