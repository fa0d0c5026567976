/**
 * Access-control statements: CREATE/ALTER/DROP USER, GROUP, SERVICE ACCOUNT, ADD/REMOVE USER,
 * GRANT, REVOKE, ASSUME/EXIT SERVICE ACCOUNT, SHOW USERS/GROUPS/PERMISSIONS/... (issue #13 §2).
 *
 * One statement kind, `acl`, told apart by `action` (snake_case; those returning rows start with
 * `show`). Names keep their spelling and position (`AclName`); bare, quoted (`"x"`) and string
 * (`'x'`) names are the same.
 */

/** A principal, alias or table name with the position of its token. */
export interface AclName {
  readonly name: string
  readonly pos: number
}

/** What `ALTER USER` / `ALTER SERVICE ACCOUNT` changes. */
export type AlterAccountChange =
  | { readonly change: 'enable' }
  | { readonly change: 'disable' }
  | { readonly change: 'password'; readonly password: string; readonly passwordPos: number }
  | { readonly change: 'no_password' }
  | { readonly change: 'create_token'; readonly tokenType: 'REST' | 'JWK'; readonly ttl: string; readonly ttlPos: number; readonly refresh: boolean }
  | { readonly change: 'drop_token'; readonly tokenType: 'REST' | 'JWK'; readonly token?: string }

/** A table of a GRANT/REVOKE target, with the columns when column-level. */
export interface AclTableTarget {
  readonly table: AclName
  readonly columns?: readonly AclName[]
  /** `t(*)` or `t(* EXCLUDE (c, ...))`: every column the table has now, but the excluded ones */
  readonly wildcard?: { readonly pos: number; readonly exclude: readonly AclName[] }
}

/** `ON ALL TABLES`, `ON t[(c, ...)], ...`, or nothing (database scope). */
export type AclOn =
  | { readonly kind: 'database' }
  | { readonly kind: 'all_tables' }
  | { readonly kind: 'tables'; readonly tables: readonly AclTableTarget[] }

/** A permission as written, with its canonical name. */
export interface AclPermission {
  readonly name: string
  readonly pos: number
}

interface Base { readonly kind: 'acl'; readonly pos: number }

/** An access-control statement, by `action`. */
export type AclStatement = Base & (
  | { readonly action: 'create_user'; readonly name: AclName; readonly ifNotExists: boolean; readonly password?: string; readonly passwordPos?: number }
  | { readonly action: 'alter_user' | 'alter_service_account'; readonly name: AclName; readonly alter: AlterAccountChange }
  | { readonly action: 'drop_user' | 'drop_group' | 'drop_service_account'; readonly name: AclName; readonly ifExists: boolean }
  | { readonly action: 'create_group'; readonly name: AclName; readonly ifNotExists: boolean; readonly alias?: AclName }
  | { readonly action: 'alter_group'; readonly name: AclName; readonly alter: 'add_alias' | 'drop_alias'; readonly alias: AclName }
  | { readonly action: 'add_user' | 'remove_user'; readonly user: AclName; readonly groups: readonly AclName[] }
  | { readonly action: 'create_service_account'; readonly name: AclName; readonly ifNotExists: boolean; readonly owner?: AclName }
  | { readonly action: 'assume_service_account'; readonly name: AclName }
  | { readonly action: 'exit_service_account'; readonly name?: AclName }
  | { readonly action: 'grant'; readonly permissions: readonly AclPermission[]; readonly on: AclOn; readonly to: AclName; readonly grantOption: boolean; readonly verification: boolean }
  | { readonly action: 'revoke'; readonly permissions: readonly AclPermission[]; readonly on: AclOn; readonly from: AclName }
  | { readonly action: 'grant_assume'; readonly account: AclName; readonly to: AclName; readonly grantOption: boolean }
  | { readonly action: 'revoke_assume'; readonly account: AclName; readonly from: AclName }
  | { readonly action: 'show_users' }
  | { readonly action: 'show_user' | 'show_groups' | 'show_service_accounts' | 'show_service_account' | 'show_permissions'; readonly name?: AclName }
)

/** The `action`s of access-control statements. */
export type AclAction = AclStatement['action']

/** True when the statement answers with rows: the SHOW statements, and CREATE TOKEN (the token). */
export function aclReturnsRows(stmt: AclStatement): boolean {
  if (stmt.action.startsWith('show')) return true
  return (stmt.action === 'alter_user' || stmt.action === 'alter_service_account') && stmt.alter.change === 'create_token'
}

/** True when the statement changes the access-control catalog (SHOW, ASSUME and EXIT do not). */
export function aclWrites(stmt: AclStatement): boolean {
  return !stmt.action.startsWith('show') && stmt.action !== 'assume_service_account' && stmt.action !== 'exit_service_account'
}
