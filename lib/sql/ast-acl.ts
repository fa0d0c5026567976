/**
 * Access-control statements: CREATE/ALTER/DROP USER, GROUP, SERVICE ACCOUNT, ADD/REMOVE USER,
 * GRANT, REVOKE, ASSUME/EXIT SERVICE ACCOUNT, SHOW USERS/GROUPS/PERMISSIONS/... (issue #13 §2).
 *
 * CONTRACT (lead, 2026-11-23): one statement kind, `acl`, whose `action` tells them apart. The
 * access-control engineer refines this into a discriminated union on `action`.
 */

/** An access-control statement. */
export interface AclStatement {
  readonly kind: 'acl'
  readonly pos: number
  /** e.g. 'create_user', 'grant', 'show_permissions' */
  readonly action: string
}
