/**
 * Binds HORIZON JOIN (QuestDB 9, `query/sql/horizon-join.md`): `FROM l HORIZON JOIN r [ON keys]
 * RANGE FROM a TO b STEP c AS h` or `LIST (o1, o2, ...) AS h`. The node yields each left row once
 * per offset with `h.offset`, `h.timestamp` and the right row an ASOF match picks at
 * `l.ts + offset`; the select over it (QuestDB's implicit GROUP BY) aggregates as usual. WHERE
 * filters the left rows first and may name only left columns. Error texts are QuestDB's
 * (`HorizonJoinTest`).
 */
import { SqlError, SqlState } from '../errors.js'
import type { Expr, HorizonOffset, Join } from '../sql/ast.js'
import type { BoundExpr, PlanNode } from './plan-node.js'
import type { HorizonJoinNode } from './nodes/window-join.js'
import { Scope } from './scope.js'
import { type ExprEnv, bindExpr, castTo } from './bind-expr.js'
import { conjuncts, forEachJoinKey, unifyKeys } from './bind-time-join.js'
import { collectColumnRefs } from './naming.js'

/**
 * The most offsets one HORIZON JOIN may have: every left row becomes this many rows, so a RANGE
 * of a million steps is refused when bound rather than left to run for hours.
 */
export const HORIZON_MAX_OFFSETS = 10_000

/** Nanoseconds per offset unit (SAMPLE BY's letters; `u` as `U`). */
const UNIT_NANOS: Readonly<Record<string, number>> = {
  n: 1, U: 1000, u: 1000, T: 1e6, s: 1e9, m: 60e9, h: 3600e9, d: 86_400e9, w: 7 * 86_400e9,
}

/** Binds the HORIZON JOIN of a select: WHERE (`where`) is applied to `left` first. */
export function bindHorizonJoin(left: PlanNode, joins: readonly Join[], where: Expr | undefined, bindRight: (j: Join) => PlanNode, envOf: (scope: Scope, clause: string) => ExprEnv): PlanNode {
  if (joins.length > 1) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'horizon join cannot be combined with other joins', joins[1]!.pos)
  const j = joins[0]!
  const spec = j.horizon!
  if (left.timestampIndex < 0) throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, 'left side of horizon join has no timestamp', j.pos)
  const right = bindRight(j)
  if (right.timestampIndex < 0) throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, 'right side of horizon join has no timestamp', j.table.pos)
  // the offsets are a FROM item of their own, named after the tables: `AS t` / `AS p` repeats a name (QuestDB's text, at the alias)
  const lower = spec.alias.toLowerCase()
  if (left.output.some((c) => c.table?.toLowerCase() === lower) || right.output.some((c) => c.table?.toLowerCase() === lower)) {
    throw new SqlError(SqlState.DUPLICATE_ALIAS, `Duplicate table or alias: ${spec.alias}`, spec.aliasPos ?? j.pos)
  }
  const offsetsNanos = offsetsOf(spec)
  if (where !== undefined) {
    const leftScope = new Scope(left.output)
    // QuestDB points at the condition (its operator), not at the column
    for (const c of conjuncts(where)) {
      if (collectColumnRefs(c).some((ref) => ref.kind === 'column' && leftScope.find(ref) === undefined)) {
        throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'HORIZON JOIN WHERE clause can only reference master table columns', c.pos)
      }
    }
    const pred = castTo(bindExpr(where, envOf(leftScope, 'WHERE')), 'BOOLEAN', where.pos, false)
    left = { kind: 'filter', input: left, predicate: pred, output: left.output, timestampIndex: left.timestampIndex }
  }
  const leftKeys: BoundExpr[] = []
  const rightKeys: BoundExpr[] = []
  const leftEnv = envOf(new Scope(left.output), 'ON')
  const rightEnv = envOf(new Scope(right.output), 'ON')
  const add = (l: BoundExpr, r: BoundExpr, pos: number) => {
    const [lk, rk] = unifyKeys(l, r, pos)
    leftKeys.push(lk)
    rightKeys.push(rk)
  }
  forEachJoinKey(j, leftEnv, rightEnv, add, (c) => {
    throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'HORIZON JOIN ON supports key equalities only', c.pos)
  })
  const tsType = left.output[left.timestampIndex]!.type
  const node: HorizonJoinNode = {
    kind: 'horizon_join', left, right, leftKeys, rightKeys, offsetsNanos,
    output: [
      ...left.output,
      { name: 'offset', type: 'LONG', table: spec.alias },
      { name: 'timestamp', type: tsType, table: spec.alias },
      ...right.output,
    ],
    timestampIndex: left.timestampIndex,
  }
  return node
}

/** The offsets of RANGE / LIST in nanoseconds, checked as QuestDB documents. */
function offsetsOf(spec: NonNullable<Join['horizon']>): number[] {
  if (spec.kind === 'list') {
    if (spec.offsets.length === 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'at least one offset expression expected', spec.pos)
    if (spec.offsets.length > HORIZON_MAX_OFFSETS) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `LIST has too many offsets [count=${spec.offsets.length}, max=${HORIZON_MAX_OFFSETS}]`, spec.offsets[HORIZON_MAX_OFFSETS]!.pos)
    const out = spec.offsets.map(offsetNanos)
    for (let i = 1; i < out.length; i++) {
      if (out[i]! <= out[i - 1]!) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'LIST offsets must be monotonically increasing', spec.offsets[i]!.pos)
    }
    return out
  }
  const from = offsetNanos(spec.from)
  const to = offsetNanos(spec.to)
  const step = offsetNanos(spec.step)
  if (step <= 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'RANGE STEP must be positive', spec.step.pos)
  if (from > to) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'RANGE FROM must be less than or equal to TO', spec.from.pos)
  const count = Math.floor((to - from) / step) + 1
  if (count > HORIZON_MAX_OFFSETS) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `RANGE has too many offsets [count=${count}, max=${HORIZON_MAX_OFFSETS}]`, spec.step.pos)
  const out: number[] = []
  for (let i = 0; i < count; i++) out.push(from + i * step)
  return out
}

/** `5s`, `-2m`, `0`: nanoseconds; a bare number other than 0 needs a unit. */
function offsetNanos(o: HorizonOffset): number {
  const m = /^(-?)(\d[\d_]*)([A-Za-z]*)$/.exec(o.text)
  if (m === null) throw new SqlError(SqlState.SYNTAX_ERROR, `invalid horizon offset [value=${o.text}]`, o.pos)
  const [, sign, digits, unit] = m as unknown as [string, string, string, string]
  const n = Number(digits.replace(/_/g, ''))
  if (unit === '') {
    if (n !== 0) throw new SqlError(SqlState.SYNTAX_ERROR, `horizon offset needs a time unit, e.g. ${n}s [value=${o.text}]`, o.pos)
    return 0
  }
  const per = UNIT_NANOS[unit]
  if (per === undefined) throw new SqlError(SqlState.SYNTAX_ERROR, `unsupported horizon offset unit [unit=${unit}]`, o.pos)
  const nanos = n * per
  // offsets past ±100 years would overflow the horizon timestamps (and are no horizon)
  if (nanos > 100 * 366 * 86_400e9) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `horizon offset is too large [value=${o.text}]`, o.pos)
  return sign === '-' ? -nanos : nanos
}
