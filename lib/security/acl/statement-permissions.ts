/**
 * The permissions an access-control statement needs (CREATE USER, DATABASE ADMIN, ...).
 *
 * CONTRACT (lead, 2026-11-23): called by the engine's statement-permission derivation for
 * statements of kind `acl`; the access-control engineer fills it in.
 */
import type { AclStatement } from '../../sql/ast-acl.js'
import type { RequiredPermission } from '../../statement-info.js'

/** What `stmt` requires of the principal that runs it. */
export function aclStatementPermissions(_stmt: AclStatement): RequiredPermission[] {
  return []
}
