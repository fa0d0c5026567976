/**
 * Owner grants: whoever creates a table gets every table permission on it, with the grant
 * option (QuestDB's rule; they stay until revoked).
 */
import type { AccessControl } from './access-control.js'
import { addGrant } from './grants.js'
import { expandAll } from './permission-names.js'
import { type Account, keyOf } from './principals.js'

/** Grants `a` every table permission on `table` with the grant option, and saves the catalog. */
export function ownerGrants(acl: AccessControl, a: Account, table: string): void {
  acl.mutate(() => {
    const key = keyOf(a.name)
    let list = [...acl.catalog.grantsOf(key)]
    for (const p of expandAll('table')) list = addGrant(list, p, table, undefined, true)
    acl.catalog.setGrants(key, list)
  })
}
