/**
 * QuestDB Enterprise's permission names and the levels each can be granted at (reference
 * questdb-oidc-rbac.md §4.3): database (D), table (T) or column (C). A permission granted at a
 * level covers every object below it.
 */

/** Where a permission can be granted: database only, database or table, or down to columns. */
export type Granularity = 'database' | 'table' | 'column'

/** Endpoint permissions (database level). */
export const ENDPOINT_PERMISSIONS: readonly string[] = ['HTTP', 'PGWIRE', 'ILP']

/** Every permission, with its finest level. */
export const PERMISSIONS: ReadonlyMap<string, Granularity> = new Map<string, Granularity>([
  ['ADD COLUMN', 'table'], ['ADD INDEX', 'column'], ['ALTER COLUMN CACHE', 'column'], ['ALTER COLUMN TYPE', 'column'],
  ['ATTACH PARTITION', 'table'], ['BACKUP DATABASE', 'database'], ['BACKUP TABLE', 'table'], ['CANCEL ANY COPY', 'database'],
  ['CREATE TABLE', 'database'], ['CREATE VIEW', 'database'], ['ALTER VIEW', 'table'], ['DROP VIEW', 'table'], ['COMPILE VIEW', 'table'], ['CREATE MATERIALIZED VIEW', 'database'], ['CREATE LIVE VIEW', 'database'],
  ['DEDUP ENABLE', 'table'], ['DEDUP DISABLE', 'table'], ['DETACH PARTITION', 'table'], ['DISABLE STORAGE POLICY', 'table'],
  ['DROP COLUMN', 'column'], ['DROP INDEX', 'column'], ['DROP PARTITION', 'table'], ['DROP TABLE', 'table'],
  ['DROP MATERIALIZED VIEW', 'table'], ['DROP LIVE VIEW', 'table'], ['ENABLE STORAGE POLICY', 'table'], ['INSERT', 'table'],
  ['REFRESH MATERIALIZED VIEW', 'table'], ['REINDEX', 'column'], ['REMOVE STORAGE POLICY', 'table'], ['RENAME COLUMN', 'column'],
  ['RENAME TABLE', 'table'], ['RESUME WAL', 'table'], ['SELECT', 'column'], ['SET STORAGE POLICY', 'table'],
  ['SET TABLE PARAM', 'table'], ['SET TABLE TYPE', 'table'], ['SETTINGS', 'database'], ['SNAPSHOT', 'database'],
  ['SQL ENGINE ADMIN', 'database'], ['SYSTEM ADMIN', 'database'], ['TRUNCATE TABLE', 'table'], ['UPDATE', 'column'],
  ['VACUUM TABLE', 'table'],
  // user management
  ['ADD EXTERNAL ALIAS', 'database'], ['REMOVE EXTERNAL ALIAS', 'database'], ['ADD PASSWORD', 'database'], ['REMOVE PASSWORD', 'database'],
  ['ADD USER', 'database'], ['REMOVE USER', 'database'], ['CREATE GROUP', 'database'], ['DROP GROUP', 'database'],
  ['CREATE USER', 'database'], ['DROP USER', 'database'], ['ENABLE USER', 'database'], ['DISABLE USER', 'database'],
  ['CREATE SERVICE ACCOUNT', 'database'], ['DROP SERVICE ACCOUNT', 'database'], ['CREATE JWK', 'database'], ['DROP JWK', 'database'],
  ['CREATE REST TOKEN', 'database'], ['DROP REST TOKEN', 'database'], ['LIST USERS', 'database'], ['USER DETAILS', 'database'],
  // endpoints
  ['HTTP', 'database'], ['PGWIRE', 'database'], ['ILP', 'database'],
  // special
  ['DATABASE ADMIN', 'database'],
])

/** `ALL`: every permission at the level it is granted (expanded when granted). */
export const ALL = 'ALL'
/** Every permission, including future ones, and assuming any service account. */
export const DATABASE_ADMIN = 'DATABASE ADMIN'
/** Granted per service account with `GRANT ASSUME SERVICE ACCOUNT sa TO ...`. */
export const ASSUME_SERVICE_ACCOUNT = 'ASSUME SERVICE ACCOUNT'

/** Permissions whose use on any column extends to the designated timestamp (origin `I`). */
export const IMPLYING_TIMESTAMP: ReadonlySet<string> = new Set(['SELECT', 'UPDATE'])

/** The canonical spelling of a permission name (upper case, single spaces), or undefined when unknown. */
export function permissionName(words: string): string | undefined {
  const name = words.trim().split(/\s+/).join(' ').toUpperCase()
  if (name === ALL || PERMISSIONS.has(name)) return name
  return undefined
}

/** True for permissions that can be granted on tables (`ON ALL TABLES` or `ON t`). */
export function isTablePermission(name: string): boolean {
  const g = PERMISSIONS.get(name)
  return g === 'table' || g === 'column'
}

/** True for permissions that can be granted on columns (`ON t(c)`). */
export function isColumnPermission(name: string): boolean {
  return PERMISSIONS.get(name) === 'column'
}

/**
 * What `ALL` stands for at a level: every database permission but DATABASE ADMIN (no target),
 * every table permission (`ON ALL TABLES` / `ON t`), every column permission (`ON t(c)`).
 */
export function expandAll(level: Granularity): string[] {
  const out: string[] = []
  for (const [name, g] of PERMISSIONS) {
    if (name === DATABASE_ADMIN) continue
    if (level === 'database' ? true : level === 'table' ? g !== 'database' : g === 'column') out.push(name)
  }
  return out
}

/**
 * Rows of `all_permissions()`: each permission with every level it can be granted at, as
 * Enterprise lists them (`Database`, `Database|Table`, `Database|Table|Column`).
 */
export function allPermissionRows(): { permission: string; level: string }[] {
  const rows: { permission: string; level: string }[] = []
  for (const [name, g] of PERMISSIONS) rows.push({ permission: name, level: g === 'database' ? 'Database' : g === 'table' ? 'Database|Table' : 'Database|Table|Column' })
  rows.push({ permission: ASSUME_SERVICE_ACCOUNT, level: 'Database' })
  return rows
}
