/**
 * Access-control statements as engine executions: runs them through the database's
 * {@link AccessControl} and turns their rows (SHOW ..., CREATE TOKEN) into a result batch.
 */
import type { AclStatement } from '../../sql/ast-acl.js'
import type { Session } from '../../session.js'
import type { AccessControl } from '../../security/acl/access-control.js'
import { executeAcl } from '../../security/acl/execute.js'
import type { Catalog } from '../../storage/catalog.js'
import type { TableLookup } from '../../security/acl/grants.js'
import type { Scalar } from '../../types/vector.js'
import { rowsOf, type Rows } from './meta.js'

/** Runs `stmt`: its rows, or undefined for a statement without rows. */
export async function runAcl(acl: AccessControl, stmt: AclStatement, session: Session): Promise<Rows | undefined> {
  const r = await executeAcl(acl, stmt, session)
  if (r.columns === undefined) return undefined
  const rows = (r.rows ?? []).map((row) => row.map((v) => v as Scalar))
  return rowsOf(r.columns.map((c) => ({ name: c.name, type: c.type })), rows)
}

/** What access control reads of the catalog: table (and view) names, columns, designated timestamps. */
export function tableLookup(catalog: Catalog): TableLookup {
  return {
    find: (name) => {
      const t = catalog.find(name)
      if (t === undefined) {
        // a view: granted as a whole (QuestDB Enterprise has no column grants on views)
        const v = catalog.findView(name)
        return v === undefined ? undefined : { name: v.name, columns: [], timestamp: undefined }
      }
      const m = t.meta
      return { name: m.name, columns: m.columns.map((c) => c.name), timestamp: m.timestampIndex >= 0 ? m.columns[m.timestampIndex]!.name : undefined }
    },
    names: () => [...catalog.names(), ...catalog.allViews().map((v) => v.name)],
  }
}
