/**
 * SHOW PARTITIONS / `table_partitions('t')`: one row per partition, in QuestDB's columns.
 * Also resolves ALTER TABLE DROP PARTITION's LIST and WHERE to partitions.
 */
import { SqlError, SqlState, notSupported } from '../errors.js'
import type { Expr } from '../sql/ast.js'
import type { ColumnType } from '../types/column-type.js'
import type { Scalar } from '../types/vector.js'
import { parseTimestamp } from '../types/timestamp.js'
import type { Table } from './table.js'
import type { PartitionRange } from './partition-split.js'
import { dropPartitions, partitionsOf } from './partition-ops.js'

/** The columns of SHOW PARTITIONS and `table_partitions`. */
export const PARTITION_COLUMNS: readonly { name: string; type: ColumnType }[] = [
  { name: 'index', type: 'INT' }, { name: 'partitionBy', type: 'STRING' }, { name: 'name', type: 'STRING' },
  { name: 'minTimestamp', type: 'TIMESTAMP' }, { name: 'maxTimestamp', type: 'TIMESTAMP' }, { name: 'numRows', type: 'LONG' },
  { name: 'diskSize', type: 'LONG' }, { name: 'diskSizeHuman', type: 'STRING' }, { name: 'readOnly', type: 'BOOLEAN' },
  { name: 'active', type: 'BOOLEAN' }, { name: 'attached', type: 'BOOLEAN' }, { name: 'detached', type: 'BOOLEAN' },
  { name: 'attachable', type: 'BOOLEAN' },
  // current QuestDB's Parquet columns: a partition converted to Parquet (ALTER TABLE ... CONVERT PARTITION) is
  // isParquet with its file's size; hasParquetGenerated (a Parquet copy kept beside native files) never is here
  { name: 'hasParquetGenerated', type: 'BOOLEAN' }, { name: 'isParquet', type: 'BOOLEAN' }, { name: 'parquetFileSize', type: 'LONG' },
]

/** QuestDB-style human size: `0.0 B`, `12.0 KiB`, `3.4 MiB`. */
export function humanSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let u = 0
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++ }
  return `${v.toFixed(1)} ${units[u]}`
}

/** One row per partition of `t`. */
export function partitionRows(t: Table): Scalar[][] {
  const parts = partitionsOf(t)
  return parts.map((p, i) => {
    const bytes = t.store?.partitionBytes?.(t, p.name) ?? 0
    const parquet = t.store?.partitionFormat?.(t, p.name) === 'parquet'
    return [
      i, t.meta.partitionBy, p.name, Number.isNaN(p.minTs) ? null : p.minTs, Number.isNaN(p.maxTs) ? null : p.maxTs,
      p.end - p.start, bytes, humanSize(bytes), false, i === parts.length - 1, true, false, false,
      false, parquet, parquet ? bytes : -1,
    ]
  })
}

/** ALTER TABLE t DROP PARTITION LIST '...' | WHERE ...: returns how many partitions were removed. */
export function dropPartitionStatement(t: Table, list: readonly { value: string; pos: number }[] | undefined, where: Expr | undefined, pos: number): number {
  if (t.meta.partitionBy === 'NONE' || t.meta.timestampIndex < 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'table is not partitioned', pos)
  const parts = partitionsOf(t)
  if (list !== undefined) {
    const chosen = new Set<PartitionRange>()
    for (const item of list) {
      const ts = parseTimestamp(item.value)
      const p = parts.find((x) => x.name === item.value) ?? (ts === null ? undefined : parts.find((x) => x.lo <= ts && ts < x.hi))
      if (p === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `could not remove partition [table=${t.meta.name}, partition=${item.value}]: no such partition`, item.pos)
      chosen.add(p)
    }
    const los = new Set([...chosen].map((p) => p.lo))
    return dropPartitions(t, (p) => los.has(p.lo))
  }
  if (where === undefined) throw new SqlError(SqlState.SYNTAX_ERROR, 'LIST or WHERE expected', pos)
  const test = partitionPredicate(t, where)
  return dropPartitions(t, (p) => test(p.lo))
}

/** A predicate on a partition's timestamp: comparisons of the designated timestamp with literals, AND/OR. */
export function partitionPredicate(t: Table, e: Expr): (ts: number) => boolean {
  if (e.kind !== 'binary') throw notSupported('DROP PARTITION WHERE supports comparisons of the designated timestamp with literals, AND and OR', e.pos)
  const op = String(e.op).toLowerCase()
  if (op === 'and' || op === 'or') {
    const l = partitionPredicate(t, e.left)
    const r = partitionPredicate(t, e.right)
    return op === 'and' ? (x) => l(x) && r(x) : (x) => l(x) || r(x)
  }
  const tsName = t.meta.columns[t.meta.timestampIndex]!.name.toLowerCase()
  const isTs = (x: Expr) => x.kind === 'column' && x.name.toLowerCase() === tsName
  const lit = (x: Expr): number => {
    if (x.kind === 'literal' && x.type === 'string') {
      const v = parseTimestamp(x.value)
      if (v !== null) return v
    }
    if (x.kind === 'literal' && (x.type === 'int' || x.type === 'long')) return Number(x.text)
    throw notSupported('DROP PARTITION WHERE expects a timestamp literal', x.pos)
  }
  const flip: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '=': '=' }
  const [o, v] = isTs(e.left) ? [op, lit(e.right)] : isTs(e.right) ? [flip[op] ?? op, lit(e.left)] : [op, NaN]
  if (Number.isNaN(v)) throw new SqlError(SqlState.SYNTAX_ERROR, `DROP PARTITION WHERE must compare the designated timestamp [column=${tsName}]`, e.pos)
  switch (o) {
    case '<': return (x) => x < v
    case '<=': return (x) => x <= v
    case '>': return (x) => x > v
    case '>=': return (x) => x >= v
    case '=': return (x) => x === v
    default: throw notSupported(`DROP PARTITION WHERE does not support operator ${op}`, e.pos)
  }
}
