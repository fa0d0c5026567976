/**
 * Binds ASOF / LT / SPLICE JOIN (reference §3.4): checks that both sides have a designated
 * timestamp, binds the equality keys (`ON (a, b)`, `ON l.k = r.k AND ...`, or none), and parses
 * TOLERANCE. Error texts are QuestDB's (`AsOfJoinTest`, `TemporalJoinPlanningTest`).
 */
import { SqlError, SqlState, internalError } from '../errors.js'
import type { Expr, Join } from '../sql/ast.js'
import { isText } from '../types/column-type.js'
import { UNIT_MICROS } from '../types/calendar.js'
import type { BoundExpr, PlanNode, TimeJoinNode } from './plan-node.js'
import { Scope, rejectAmbiguousRefs } from './scope.js'
import { type ExprEnv, bindExpr, castTo } from './bind-expr.js'
import { bindQuery, type BindContext } from './bind-query.js'
import { collectColumnRefs } from './naming.js'

/** Binds an ASOF / LT / SPLICE join of `left` and `right`. */
export function bindTimeJoin(left: PlanNode, right: PlanNode, join: Join, bc: BindContext): PlanNode {
  const type = join.type
  if (type !== 'asof' && type !== 'lt' && type !== 'splice') throw internalError(`${type} is not a time join`)
  if (left.timestampIndex < 0) throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, 'left side of time series join has no timestamp', join.pos)
  if (right.timestampIndex < 0) throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, 'right side of time series join has no timestamp', join.pos)
  if (type === 'splice' && join.tolerance !== undefined) {
    throw new SqlError(SqlState.SYNTAX_ERROR, 'TOLERANCE is not supported for SPLICE JOIN', join.tolerance.pos)
  }
  const tolerance = join.tolerance === undefined ? undefined : parseTolerance(join.tolerance.value, join.tolerance.pos)
  const leftKeys: BoundExpr[] = []
  const rightKeys: BoundExpr[] = []
  const addKey = (l: BoundExpr, r: BoundExpr, pos: number) => {
    if (type !== 'splice' && isDesignated(l, left) && isDesignated(r, right)) {
      // ON (ts) over the two designated timestamps adds nothing to the time match (TemporalJoinPlanningTest)
      if (tolerance !== undefined) throw new SqlError(SqlState.SYNTAX_ERROR, 'ASOF/LT JOIN cannot use designated timestamp as a join key', join.pos)
      return
    }
    const [lk, rk] = unifyKeys(l, r, pos)
    leftKeys.push(lk)
    rightKeys.push(rk)
  }
  const envOf = (n: PlanNode): ExprEnv => ({ scope: new Scope(n.output), paramTypes: bc.paramTypes, bindSubquery: (q) => bindQuery(q, bc), clause: 'ON' })
  const unsupported: Expr[] = []
  forEachJoinKey(join, envOf(left), envOf(right), addKey, (c) => unsupported.push(c))
  if (unsupported.length > 0) {
    const text = unsupported.map(formatExpr).join(' and ')
    throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `unsupported ${type.toUpperCase()} join expression [expr='${text}']`, unsupported[unsupported.length - 1]!.pos)
  }
  const node: TimeJoinNode = {
    kind: 'time_join', type, left, right, leftKeys, rightKeys, tolerance,
    ...(join.tolerance === undefined ? {} : { toleranceSub: toleranceSubOf(join.tolerance.value) }),
    output: [...left.output, ...right.output],
    // SPLICE rows led by the right side carry an older (or null) left timestamp: no order to promise
    timestampIndex: type === 'splice' ? -1 : left.timestampIndex,
  }
  return node
}

/**
 * TOLERANCE `<n><unit>` in microseconds; units n, U, T, s, m, h, d, w as QuestDB accepts
 * (`u` is taken as micros too). Months and years are rejected like any unknown unit.
 */
export function parseTolerance(text: string, pos: number): number {
  const m = /^(-?)(\d+)([A-Za-z]?)$/.exec(text)
  if (m === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid TOLERANCE value [value=${text}]`, pos)
  const [, sign, digits, unit] = m as unknown as [string, string, string, string]
  if (sign === '-') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'ASOF JOIN TOLERANCE must be positive', pos)
  const n = Number(digits)
  if (n === 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'zero is not a valid tolerance value', pos)
  if (unit === '') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'expected interval qualifier in TOLERANCE', pos)
  const micros = unit === 'U' || unit === 'u' ? 1
    : unit === 'n' || unit === 'T' || unit === 's' || unit === 'm' || unit === 'h' || unit === 'd' || unit === 'w' ? UNIT_MICROS[unit]
      : undefined
  if (micros === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `unsupported TOLERANCE unit [unit=${unit}]`, pos)
  return unit === 'n' ? Math.floor(n / 1000) : n * micros
}

/** The nanoseconds past the microseconds of a TOLERANCE in `n` (`1500n`: 500); 0 for the other units. */
export function toleranceSubOf(text: string): number {
  const m = /^(\d+)n$/.exec(text)
  return m === null ? 0 : Number(m[1]!) % 1000
}

function isTimestamp(t: BoundExpr['type']): boolean {
  return t === 'TIMESTAMP' || t === 'TIMESTAMP_NS'
}

function isDesignated(e: BoundExpr, n: PlanNode): boolean {
  return e.kind === 'column' && e.index === n.timestampIndex
}

/**
 * QuestDB's rule for a pair of join keys: the same type, or both of SYMBOL / STRING / VARCHAR
 * (compared by value), or both timestamps (TIMESTAMP against TIMESTAMP_NS compares as
 * nanoseconds). Every other pair is `join column type mismatch` at `pos`, numbers of two widths
 * included: INT = LONG, LONG = DOUBLE, DATE = TIMESTAMP, STRING = CHAR, GEOHASH or DECIMAL of two
 * precisions (QuestDB's HashJoinGroupByKeysTest lists exactly these as refused).
 */
export function unifyKeys(l: BoundExpr, r: BoundExpr, pos: number): [BoundExpr, BoundExpr] {
  if (l.type === r.type) return [l, r]
  if (isText(l.type) && isText(r.type)) return [l, r]
  if (isTimestamp(l.type) && isTimestamp(r.type)) return [castTo(l, 'TIMESTAMP_NS', pos, true), castTo(r, 'TIMESTAMP_NS', pos, true)]
  throw new SqlError(SqlState.DATATYPE_MISMATCH, 'join column type mismatch', pos)
}

/**
 * The key pairs of a time-series join's ON: each `USING` name (`ON (a, b)`) and each `=` conjunct
 * whose sides bind one over `left` and the other over `right` go to `key`, with the position for
 * its errors (QuestDB's: the right side's expression, or the join for a name); every other
 * conjunct goes to `other`. ASOF / LT / SPLICE, WINDOW and HORIZON JOIN differ only in what they
 * do with those two.
 */
export function forEachJoinKey(join: Join, left: ExprEnv, right: ExprEnv, key: (l: BoundExpr, r: BoundExpr, pos: number) => void, other: (c: Expr) => void): void {
  for (const name of join.using ?? []) {
    const ref = { kind: 'column' as const, pos: join.pos, name }
    key(bindExpr(ref, left), bindExpr(ref, right), join.pos)
  }
  for (const c of join.on === undefined ? [] : conjuncts(join.on)) {
    const pair = c.kind === 'binary' && c.op === '=' ? equiPair(c.left, c.right, left, right) : undefined
    if (pair === undefined) other(c)
    else key(pair[0], pair[1], pair[2].pos)
  }
}

/** The AND-ed conditions of `e`. */
export function conjuncts(e: Expr): Expr[] {
  return e.kind === 'binary' && e.op === 'and' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e]
}

/**
 * `a = b` where one side binds over the left input only and the other over the right only: the
 * left one bound, the right one bound, and the right one as written (for error positions).
 */
export function equiPair(a: Expr, b: Expr, left: ExprEnv, right: ExprEnv): [BoundExpr, BoundExpr, Expr] | undefined {
  const refsA = collectColumnRefs(a), refsB = collectColumnRefs(b)
  if (refsA.length === 0 || refsB.length === 0) return undefined
  rejectAmbiguousRefs([...refsA, ...refsB], left.scope, right.scope)
  const tryBind = (e: Expr, env: ExprEnv) => { try { return bindExpr(e, env) } catch { return undefined } }
  const la = tryBind(a, left)
  const rb = tryBind(b, right)
  if (la !== undefined && rb !== undefined) return [la, rb, b]
  const lb = tryBind(b, left)
  const ra = tryBind(a, right)
  if (lb !== undefined && ra !== undefined) return [lb, ra, a]
  return undefined
}

/** QuestDB's text of a join condition in error messages: `l.v < r.v`. */
export function formatExpr(e: Expr): string {
  switch (e.kind) {
    case 'column': return e.table === undefined ? e.name : `${e.table}.${e.name}`
    case 'binary': return `${formatExpr(e.left)} ${e.op} ${formatExpr(e.right)}`
    case 'literal': return e.type === 'string' || e.type === 'char' ? `'${e.value}'` : e.type === 'boolean' ? String(e.value) : e.type === 'null' ? 'null' : e.text
    case 'unary': return `${e.op === 'not' ? 'not ' : e.op}${formatExpr(e.operand)}`
    case 'call': return `${e.name}(${e.args.map(formatExpr).join(',')})`
    default: return '...'
  }
}
