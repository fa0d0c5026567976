/**
 * `all_permissions()`: every permission of access control and the level it can be granted at
 * (QuestDB Enterprise's names; see lib/security/acl/permission-names.ts). Needs no permission.
 */
import type { ColumnType } from '../../types/column-type.js'
import { VectorWriter } from '../../types/vector.js'
import type { FunctionDef } from '../registry-types.js'
import { allPermissionRows } from '../../security/acl/permission-names.js'

const COLUMNS: readonly { name: string; type: ColumnType }[] = [
  { name: 'permission', type: 'STRING' },
  { name: 'level', type: 'STRING' },
]

/** The `all_permissions()` table function. */
export const ALL_PERMISSIONS: FunctionDef = {
  kind: 'table',
  name: 'all_permissions',
  family: 'meta',
  signatures: [{ args: [], returns: 'STRING' }],
  description: 'Every access-control permission and the levels it can be granted at (Database, Database|Table or Database|Table|Column), as QuestDB Enterprise lists them.',
  example: "SELECT permission FROM all_permissions() WHERE level = 'Database|Table|Column'",
  columns: () => COLUMNS,
  timestampIndex: () => -1,
  open: () => {
    const rows = allPermissionRows()
    const w = COLUMNS.map((c) => new VectorWriter(c.type, rows.length))
    rows.forEach((r, i) => { w[0]!.set(i, r.permission); w[1]!.set(i, r.level) })
    return [{ length: rows.length, vectors: w.map((x) => x.finish()) }]
  },
}
