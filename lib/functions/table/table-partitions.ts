/**
 * `table_partitions('t')`: one row per partition of a table (index, partitionBy, name,
 * min/max timestamp, rows, size on disk, flags), as SHOW PARTITIONS FROM t.
 */
import { SqlError, SqlState } from '../../errors.js'
import { VectorWriter } from '../../types/vector.js'
import { PARTITION_COLUMNS } from '../../storage/partition-info.js'
import type { FunctionDef } from '../registry-types.js'

/** table_partitions('t') */
export const TABLE_PARTITIONS: FunctionDef = {
  kind: 'table',
  name: 'table_partitions',
  family: 'meta',
  signatures: [{ args: ['STRING'], constant: [0], returns: 'STRING' }],
  description: 'One row per partition of a table: index, partitionBy, name, min/max timestamp, row count, size on disk and state flags.',
  example: "SELECT name, numRows, diskSizeHuman FROM table_partitions('trades')",
  columns: () => PARTITION_COLUMNS,
  timestampIndex: () => -1,
  open: (site, ctx) => {
    const name = site.constants[0]
    const rows = typeof name === 'string' ? ctx.catalog.partitions(name) : undefined
    if (rows === undefined) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${String(name)}]`, site.argPositions[0] ?? site.pos)
    const writers = PARTITION_COLUMNS.map((c) => new VectorWriter(c.type, rows.length))
    rows.forEach((row, i) => row.forEach((v, c) => writers[c]!.set(i, v)))
    return [{ length: rows.length, vectors: writers.map((w) => w.finish()) }]
  },
}
