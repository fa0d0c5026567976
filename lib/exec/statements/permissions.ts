/**
 * The permissions a statement needs, derived from the statement and its bound plan: every table
 * read (SELECT with the columns read), every table written (INSERT, UPDATE with the columns
 * set), every DDL and access-control action.
 *
 * CONTRACT (lead, 2026-11-23): placeholder returning no permissions; the StatementInfo engineer
 * fills it in (and may move it, keeping the call in the facade).
 */
import type { Statement } from '../../sql/ast.js'
import type { Catalog } from '../../storage/catalog.js'
import type { RequiredPermission } from '../../statement-info.js'
import { aclStatementPermissions } from '../../security/acl/statement-permissions.js'

/** What `stmt` requires of the principal that runs it. */
export function requiredPermissions(stmt: Statement, _catalog: Catalog): RequiredPermission[] {
  return stmt.kind === 'acl' ? aclStatementPermissions(stmt) : []
}
