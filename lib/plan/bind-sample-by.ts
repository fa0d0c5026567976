/**
 * Binds SAMPLE BY (reference §3.2) into a {@link SampleByNode}: the stride and unit, FROM / TO,
 * the alignment (calendar with TIME ZONE / WITH OFFSET, or first observation) and the FILL list,
 * with QuestDB's error messages and positions.
 */
import { isGeohash } from '../types/geohash.js'
import { isDecimal } from '../types/decimal.js'
import { isArrayType } from '../types/array-type.js'
import { SqlError, SqlState, notSupported } from '../errors.js'
import type { Expr, FillValue, SampleBy } from '../sql/ast.js'
import type { ColumnType } from '../types/column-type.js'
import { isValidTimeZone } from '../types/time-zone.js'
import { parseUtcOffset } from '../types/utc-offset.js'
import type { BoundAggregate, BoundExpr, OutputColumn, PlanNode } from './plan-node.js'
import type { SampleAlign, SampleFill, SampleUnit } from './nodes/sample-by.js'
import type { SampleByArgs } from './bind-time-series.js'
import { type ExprEnv, bindExpr, castConstant, castTo } from './bind-expr.js'
import { Scope } from './scope.js'
import { bindSampleByNs } from './bind-sample-by-ns.js'

const UNITS = 'nUTsmhdwMy'

/** Binds SAMPLE BY into a node whose output is keys then aggregates. */
export function bindSampleBy(a: SampleByArgs): PlanNode {
  const ns = a.nanoseconds === true ? undefined : bindSampleByNs(a, bindSampleBy)
  if (ns !== undefined) return ns
  const sb = a.select.sampleBy!
  const { stride, unit } = parseStride(sb)
  if (a.select.groupBy !== undefined && a.select.groupBy.length > 0) {
    throw new SqlError(SqlState.GROUPING_ERROR, 'SELECT query must not contain both GROUP BY and SAMPLE BY', a.select.groupBy[0]!.pos)
  }
  if (a.aggregates.length === 0) {
    throw new SqlError(SqlState.GROUPING_ERROR, "at least one aggregation function must be present in 'select' clause", sb.pos)
  }
  const ts = a.source.timestampIndex
  if (ts < 0) {
    throw new SqlError(SqlState.GROUPING_ERROR, a.select.joins.length > 0
      ? 'TIMESTAMP column is required but not provided'
      : 'base query does not provide designated TIMESTAMP column', a.select.pos)
  }
  const env: ExprEnv = {
    scope: new Scope([]), paramTypes: a.bc.paramTypes, clause: 'SAMPLE BY',
    bindSubquery: () => { throw notSupported('subqueries are not supported in SAMPLE BY', sb.pos) },
  }
  if (sb.align.kind === 'first observation' && (sb.from !== undefined || sb.to !== undefined)) {
    throw new SqlError(SqlState.SYNTAX_ERROR, 'ALIGN TO FIRST OBSERVATION is incompatible with FROM-TO', (sb.from ?? sb.to)!.pos)
  }
  // nanosecond strides keep FROM / TO's nanoseconds (exec/operators/sample-by-ns.ts)
  const boundType = a.nanoseconds === true ? 'TIMESTAMP_NS' : 'TIMESTAMP'
  const from = sb.from === undefined ? undefined : bindBound(sb.from, env, 'from lower bound', boundType)
  const to = sb.to === undefined ? undefined : bindBound(sb.to, env, 'to upper bound', boundType)
  const align: SampleAlign = sb.align.kind === 'first observation'
    ? { kind: 'first observation' }
    : {
        kind: 'calendar',
        timeZone: sb.align.timeZone === undefined ? undefined : bindTimeZone(sb.align.timeZone, env),
        offset: sb.align.offset === undefined ? undefined : bindOffset(sb.align.offset, env),
      }
  const bucketKey = a.keys.findIndex((k) => k.kind === 'column' && k.index === ts)
  const fill = bindFill(sb.fill, a.aggregates, a.keys.length - (bucketKey < 0 ? 0 : 1), env)
  const output: OutputColumn[] = [
    ...a.keys.map((k, i) => keyColumn(k, i, a.source)),
    ...a.aggregates.map((g) => ({ name: g.def.name, type: g.site.returns })),
  ]
  return {
    kind: 'sample_by', input: a.source, keys: a.keys, aggregates: a.aggregates,
    timestampColumn: ts, bucketKey, stride, unit, align, from, to, fill, output, timestampIndex: bucketKey,
  }
}

function keyColumn(k: BoundExpr, i: number, source: PlanNode): OutputColumn {
  const dict = k.kind === 'column' ? source.output[k.index]?.dict : undefined
  const type: ColumnType = k.type === 'NULL' ? 'STRING' : k.type
  return dict === undefined ? { name: `k${i}`, type } : { name: `k${i}`, type, dict }
}

/** `15m` → 15, 'm'. Units are case-sensitive; anything else is "Invalid unit". */
export function parseStride(sb: Pick<SampleBy, 'interval' | 'intervalPos'>): { stride: number; unit: SampleUnit } {
  // `SAMPLE BY @p` that no DECLARE binds (build/declare.ts)
  if (/^[@$]/.test(sb.interval)) throw new SqlError(SqlState.UNDEFINED_COLUMN, `undeclared variable: ${sb.interval}`, sb.intervalPos)
  const m = /^(\d+)([a-zA-Z])$/.exec(sb.interval.replace(/_/g, ''))
  if (m === null || !UNITS.includes(m[2]!)) throw new SqlError(SqlState.SYNTAX_ERROR, `Invalid unit: ${sb.interval}`, sb.intervalPos)
  const stride = Number(m[1])
  if (stride <= 0 || !Number.isSafeInteger(stride)) throw new SqlError(SqlState.SYNTAX_ERROR, 'positive number expected', sb.intervalPos)
  return { stride, unit: m[2] as SampleUnit }
}

function isConstant(b: BoundExpr): boolean {
  return b.kind === 'const' || b.kind === 'param' || (b.kind === 'cast' && isConstant(b.expr))
}

function bindBound(e: Expr, env: ExprEnv, what: string, type: 'TIMESTAMP' | 'TIMESTAMP_NS'): BoundExpr {
  const b = bindExpr(e, env)
  if (!isConstant(b)) throw new SqlError(SqlState.SYNTAX_ERROR, `${what} must be a constant expression convertible to a TIMESTAMP`, e.pos)
  return castTo(b, type, e.pos, true)
}

function bindText(e: Expr, env: ExprEnv, what: string): BoundExpr {
  const b = bindExpr(e, env)
  if (!isConstant(b) || (b.type !== 'STRING' && b.type !== 'VARCHAR' && b.type !== 'CHAR' && b.type !== 'SYMBOL' && b.type !== 'NULL')) {
    throw new SqlError(SqlState.SYNTAX_ERROR, `${what} must be a constant expression of STRING or CHAR type`, e.pos)
  }
  return b
}

function bindTimeZone(e: Expr, env: ExprEnv): BoundExpr {
  const b = bindText(e, env, 'timezone')
  if (b.kind === 'const' && typeof b.value === 'string' && !isValidTimeZone(b.value)) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid timezone: ${b.value}`, e.pos)
  }
  return b
}

function bindOffset(e: Expr, env: ExprEnv): BoundExpr {
  const b = bindText(e, env, 'offset')
  if (b.kind === 'const' && typeof b.value === 'string' && parseUtcOffset(b.value.trim(), { unsigned: true }) === null) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid offset: ${b.value}`, e.pos)
  }
  return b
}

/**
 * One fill per aggregate, or undefined for FILL(NONE). A single value is broadcast; a longer list
 * must match the aggregates one for one; NONE does not mix; LINEAR does not mix with other fill
 * values in a keyed query (QuestDB's rule: a lone FILL(LINEAR) interpolates per key).
 */
function bindFill(fill: readonly FillValue[], aggs: readonly BoundAggregate[], otherKeys: number, env: ExprEnv): SampleFill[] | undefined {
  if (fill.length === 0) return undefined
  const none = fill.find((f) => f.kind === 'none')
  if (none !== undefined) {
    if (fill.length > 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'FILL(NONE) cannot be combined with other fill values', none.pos)
    return undefined
  }
  if (fill.length > aggs.length) throw new SqlError(SqlState.SYNTAX_ERROR, 'too many fill values', fill[aggs.length]!.pos)
  if (fill.length > 1 && fill.length < aggs.length) throw new SqlError(SqlState.SYNTAX_ERROR, 'not enough fill values', fill[0]!.pos)
  const linear = fill.find((f) => f.kind === 'linear')
  if (linear !== undefined && fill.length > 1 && otherKeys > 0) {
    throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'linear interpolation is not supported when using fill values for keyed sample by expression', linear.pos)
  }
  return aggs.map((g, i) => {
    const f = fill[fill.length === 1 ? 0 : i]!
    // QuestDB's sparkline is not a scalar group-by function: its FILL(LINEAR) factory asks it to interpolate between two
    // buckets' states and refuses it ("interpolation is not supported for function: ...SparklineGroupByFunction", at 0)
    if (f.kind === 'linear' && g.def.name === 'sparkline') throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'interpolation is not supported for function: sparkline', g.site.pos)
    return fillOf(f, g.site.returns, env)
  })
}

function fillOf(f: FillValue, type: ColumnType, env: ExprEnv): SampleFill {
  switch (f.kind) {
    case 'none': return { kind: 'null' }
    case 'null':
      if (type === 'BOOLEAN') throw new SqlError(SqlState.DATATYPE_MISMATCH, 'fill value of type NULL cannot fill column of type BOOLEAN', f.pos)
      return { kind: 'null' }
    case 'prev': return { kind: 'prev' }
    case 'linear':
      // QuestDB's error for a DECIMAL aggregate under FILL(LINEAR); arrays cannot be interpolated
      // either (aggregation page, array_agg: FILL(LINEAR) not supported), nor geohashes (bits, not a scale)
      if (isDecimal(type) || isArrayType(type) || isGeohash(type)) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'support for LINEAR fill is not yet implemented', f.pos)
      return { kind: 'linear' }
    case 'value': {
      if (f.value.kind === 'call' && f.value.name.toLowerCase() === 'prev') throw notSupported('FILL(PREV(column)) is not supported', f.pos)
      const b = bindExpr(f.value, env)
      if (b.kind !== 'const') throw new SqlError(SqlState.SYNTAX_ERROR, 'invalid fill value: a constant is expected', f.pos)
      const cast = castTo(b, type, f.pos, true)
      return { kind: 'value', value: cast.kind === 'const' ? cast.value : castConstant(b, type, f.pos) }
    }
  }
}
