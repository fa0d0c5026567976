/**
 * Binds LATEST ON ts PARTITION BY keys and the legacy `LATEST BY keys` (reference §3.3). The
 * source arrives with WHERE already applied, so WHERE filters first. The timestamp must be the
 * source's designated one; a subquery without a designated timestamp may name any TIMESTAMP
 * column (the docs' `(SELECT * FROM t) LATEST ON ts ...`), which the operator then treats as
 * unordered.
 *
 * The mix of both forms ("mix of new and deprecated 'latest by' syntax") cannot be seen here:
 * the AST holds one `latestOn`, so the parser has to reject it.
 */
import { SqlError, SqlState } from '../errors.js'
import type { LatestOn } from '../sql/ast.js'
import { type ColumnType, typeName } from '../types/column-type.js'
import type { BoundExpr, LatestOnNode, PlanNode } from './plan-node.js'
import type { Scope } from './scope.js'
import { bindExpr } from './bind-expr.js'
import { isGeohash } from '../types/geohash.js'
import { bindQuery, type BindContext } from './bind-query.js'

/** Key types QuestDB accepts in PARTITION BY (LatestByTest; DECIMAL is not a type here; and every GEOHASH). */
const KEY_TYPES: ReadonlySet<ColumnType> = new Set<ColumnType>([
  'SYMBOL', 'STRING', 'VARCHAR', 'BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'LONG', 'LONG256', 'UUID',
  'TIMESTAMP', 'DATE', 'IPV4',
])

/** Binds LATEST ON / LATEST BY over `source` (WHERE already applied). */
export function bindLatestOn(source: PlanNode, latest: LatestOn, scope: Scope, bc: BindContext): PlanNode {
  const timestampColumn = latestTimestamp(source, latest, scope)
  const env = { scope, paramTypes: bc.paramTypes, bindSubquery: (q: Parameters<typeof bindQuery>[0]) => bindQuery(q, bc), clause: 'LATEST ON' }
  const partitionBy: BoundExpr[] = latest.partitionBy.map((k) => {
    const b = bindExpr(k, env)
    if (!KEY_TYPES.has(b.type) && !isGeohash(b.type)) {
      throw new SqlError(SqlState.DATATYPE_MISMATCH, `${typeName(b.type)} is not a supported type in LATEST ON ... PARTITION BY`, k.pos)
    }
    return b
  })
  const node: LatestOnNode = {
    kind: 'latest_on', input: source, partitionBy, timestampColumn,
    ordered: timestampColumn === source.timestampIndex,
    output: source.output, timestampIndex: timestampColumn,
  }
  return node
}

/** The input column of the LATEST ON timestamp, with QuestDB's errors. */
function latestTimestamp(source: PlanNode, latest: LatestOn, scope: Scope): number {
  const overTable = source.kind === 'scan' || (source.kind === 'filter' && source.input.kind === 'scan')
  if (latest.timestamp === undefined) {
    if (source.timestampIndex >= 0) return source.timestampIndex
    throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, overTable
      ? 'latest by over a table requires designated TIMESTAMP'
      : 'latest by query does not provide dedicated TIMESTAMP column', latest.pos)
  }
  const c = scope.resolve({ kind: 'column', pos: latest.pos, name: latest.timestamp })
  if (c.index === source.timestampIndex) return c.index
  if (overTable || source.timestampIndex >= 0) {
    throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, 'latest by over a table requires designated TIMESTAMP', latest.pos)
  }
  if (c.type !== 'TIMESTAMP' && c.type !== 'TIMESTAMP_NS') throw new SqlError(SqlState.DATATYPE_MISMATCH, `not a TIMESTAMP column: ${latest.timestamp}`, latest.pos)
  return c.index
}
