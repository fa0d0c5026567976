/**
 * The database a `.test` file runs in, with access control when the file asks for it:
 *
 * - `control acl on` anywhere in the file: the database opens with `acl: { enabled: true }`;
 * - `control user <name>`: the records after it run as the stored user (or service account)
 *   `<name>`; `control user admin` goes back to the built-in admin;
 * - `control external <subject>:<alias>,<alias>`: as an external (OIDC) user with those groups;
 * - `control column_alias_expression on` anywhere in the file: result columns without an alias
 *   are named after their expression text (`columnAliasExpression`, QuestDB 9's server default).
 *
 * (The runner lower-cases control values: use lower-case names in such files.)
 */
import { Database, type QueryResult } from '../../../lib/index.js'
import type { Session } from '../../../lib/session.js'
import type { SltDatabase } from './slt-types.js'

/** Opens the database for a file whose text is `text`. */
export async function openSltDatabase(text: string): Promise<SltDatabase> {
  const acl = /^control acl on\s*$/m.test(text)
  const columnAliasExpression = /^control column_alias_expression on\s*$/m.test(text)
  const db = await Database.open({ ...(acl ? { acl: { enabled: true, passwordHashIterations: 1 } } : {}), ...(columnAliasExpression ? { columnAliasExpression } : {}) })
  let session: Session | undefined
  return {
    query: (sql: string, params?: unknown[]): Promise<QueryResult> => db.query(sql, params ?? [], session === undefined ? {} : { session }),
    close: () => db.close(),
    control: async (name: string, value: string): Promise<void> => {
      if (name === 'user') session = value === 'admin' ? undefined : db.session({ name: value, groups: [], admin: false, kind: 'user' })
      else if (name === 'service_account') session = db.session({ name: value, groups: [], admin: false, kind: 'service-account' })
      else if (name === 'external') {
        const [subject, groups] = value.split(':')
        session = db.session(db.externalPrincipal(subject!, groups === undefined || groups === '' ? [] : groups.split(',')))
      }
    },
  }
}
