/**
 * Binds WINDOW JOIN (QuestDB 9, `query/sql/window-join.md`): `FROM l WINDOW JOIN r [ON keys]
 * RANGE BETWEEN <n unit> PRECEDING|FOLLOWING AND <n unit> PRECEDING|FOLLOWING [INCLUDE | EXCLUDE
 * PREVAILING]`, chained. The select list reads left columns and aggregates; each aggregate reads
 * one right table (or only left columns, `sum(t.price)`: once per right row of the window) and
 * becomes a column of that join's node. Error texts are QuestDB's (`WindowJoinTest`).
 */
import { SqlError, SqlState, notSupported } from '../errors.js'
import type { Call, Expr, FrameBound, Join } from '../sql/ast.js'
import type { AggregateFunctionDef } from '../functions/registry-types.js'
import type { BoundExpr, OutputColumn, PlanNode } from './plan-node.js'
import type { WindowJoinAggregate, WindowJoinNode } from './nodes/window-join.js'
import { Scope } from './scope.js'
import { type ExprEnv, aggregateSite, bindExpr } from './bind-expr.js'
import { forEachJoinKey, unifyKeys } from './bind-time-join.js'
import { columnsOf, remapExpr } from './optimize/walk.js'
import { astKey } from './naming.js'

/** Nanoseconds per WINDOW JOIN RANGE unit, singular (plurals drop their `s`). */
const UNIT_NANOS: Readonly<Record<string, number>> = {
  nanosecond: 1, microsecond: 1000, millisecond: 1_000_000, second: 1e9, minute: 60e9, hour: 3600e9, day: 86_400e9,
}

/** The window's reach past which a bound is refused: 100 years (a bigger one is a mistake, not a window). */
const MAX_WINDOW_NANOS = 100 * 366 * 86_400e9

/** What bindSelect needs to bind a select list over WINDOW JOINs. */
export interface WindowJoinBinding {
  /** for the select list's environment: an aggregate becomes a column of its join */
  readonly onAggregate: (call: Call, def: AggregateFunctionDef) => BoundExpr
  /** for the select list's environment: refuses right columns outside aggregates */
  readonly rewrite: (e: Expr) => BoundExpr | undefined
  /** the chain of joins over `left`, and `exprs` remapped onto its output */
  finish(exprs: readonly BoundExpr[]): { node: PlanNode; exprs: BoundExpr[] }
}

interface JoinSide {
  readonly join: Join
  readonly right: PlanNode
  readonly leftKeys: BoundExpr[]
  readonly rightKeys: BoundExpr[]
  readonly loNanos: number
  readonly hiNanos: number
  readonly aggregates: { agg: WindowJoinAggregate; slot: number; name: string }[]
}

/**
 * Prepares the WINDOW JOINs of a select over `left` (the FROM item, WHERE already applied).
 * `bindRight` binds a join's table; `envOf` makes an expression environment over a scope.
 */
export function bindWindowJoins(left: PlanNode, joins: readonly Join[], bindRight: (j: Join) => PlanNode, envOf: (scope: Scope, clause: string) => ExprEnv): WindowJoinBinding {
  if (left.timestampIndex < 0) throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, 'left side of window join has no timestamp', joins[0]!.pos)
  const nsLeft = left.output[left.timestampIndex]!.type === 'TIMESTAMP_NS'
  const sides: JoinSide[] = joins.map((j) => {
    if (j.type !== 'window' || j.window === undefined) throw notSupported('WINDOW JOIN cannot be combined with other join types', j.pos)
    if (j.table.kind !== 'table') throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'right side of window join must be a table, not sub-query', j.pos)
    const right = bindRight(j)
    if (right.timestampIndex < 0) throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, 'right side of window join has no timestamp', j.table.pos)
    const w = j.window
    const loNanos = boundNanos(w.lo, nsLeft)
    const hiNanos = boundNanos(w.hi, nsLeft)
    if (hiNanos < loNanos) throw new SqlError(SqlState.SYNTAX_ERROR, 'WINDOW join hi value cannot be less than lo value', w.hi.pos)
    const { leftKeys, rightKeys, filtered } = bindOn(j, left, right, envOf)
    return { join: j, right: filtered, leftKeys, rightKeys, loNanos, hiNanos, aggregates: [] }
  })
  const width = left.output.length
  // the scope an aggregate's arguments bind in: left columns, then each right table's
  const offsets: number[] = []
  const all: OutputColumn[] = [...left.output]
  for (const s of sides) { offsets.push(all.length); all.push(...s.right.output) }
  const argScope = new Scope(all)
  const leftScope = new Scope(left.output)
  const sideOf = (col: number) => { let i = -1; for (let j = 0; j < offsets.length; j++) if (col >= offsets[j]!) i = j; return i }
  let slots = 0
  const keys = new Map<string, BoundExpr>()

  const onAggregate = (call: Call, def: AggregateFunctionDef): BoundExpr => {
    const argEnv: ExprEnv = {
      ...envOf(argScope, 'an aggregate'),
      onAggregate: (inner) => { throw new SqlError(SqlState.GROUPING_ERROR, 'Aggregate function cannot be passed as an argument', inner.pos) },
    }
    const bound = call.star ? [] : call.args.map((a) => bindExpr(a, argEnv))
    const cols = new Set<number>()
    for (const b of bound) columnsOf(b, cols)
    const touched = new Set([...cols].map(sideOf))
    if (touched.size > 1) throw new SqlError(SqlState.GROUPING_ERROR, 'WINDOW join aggregate function cannot reference columns from multiple models', call.pos)
    const which = touched.size === 0 ? -1 : [...touched][0]!
    // left-only arguments (and `count()`) count the rows of the first join's windows
    const si = which < 0 ? 0 : which
    const side = sides[si]!
    const map = new Int32Array(all.length)
    for (let i = 0; i < all.length; i++) map[i] = which < 0 ? i : i - offsets[which]!
    const args = bound.map((b) => remapExpr(b, map))
    const { site, args: cast } = aggregateSite(def, call, args)
    const key = astKey(call)
    const seen = keys.get(key)
    if (seen !== undefined) return seen
    const slot = slots++
    side.aggregates.push({ agg: { def, site, args: cast, side: which < 0 ? 'left' : 'right' }, slot, name: `\u0000wj${slot}` })
    const ref: BoundExpr = { kind: 'column', type: site.returns, index: width + slot }
    keys.set(key, ref)
    return ref
  }

  const rewrite = (e: Expr): BoundExpr | undefined => {
    if (e.kind !== 'column' || leftScope.find(e) !== undefined) return undefined
    const c = argScope.find(e)
    if (c !== undefined && c.index >= width) {
      throw new SqlError(SqlState.GROUPING_ERROR, `WINDOW join cannot reference right table non-aggregate column: ${e.table === undefined ? '' : `${e.table}.`}${e.name}`, e.pos)
    }
    return undefined
  }

  const finish = (exprs: readonly BoundExpr[]) => {
    let node: PlanNode = left
    // slot -> output index of the chain (left columns, then each join's aggregates in join order)
    const map = new Int32Array(width + slots)
    for (let i = 0; i < width; i++) map[i] = i
    let at = width
    for (const s of sides) {
      for (const a of s.aggregates) map[width + a.slot] = at++
      const wj: WindowJoinNode = {
        kind: 'window_join', left: node, right: s.right, leftKeys: s.leftKeys, rightKeys: s.rightKeys,
        loNanos: s.loNanos, hiNanos: s.hiNanos, includePrevailing: s.join.window!.prevailing !== 'exclude',
        aggregates: s.aggregates.map((a) => a.agg),
        output: [...node.output, ...s.aggregates.map((a) => ({ name: a.name, type: a.agg.site.returns }))],
        timestampIndex: left.timestampIndex,
      }
      node = wj
    }
    return { node, exprs: exprs.map((e) => remapExpr(e, map)) }
  }
  return { onAggregate, rewrite, finish }
}

/** A RANGE bound in nanoseconds relative to the left timestamp (PRECEDING negative). */
function boundNanos(b: FrameBound & { pos: number }, nsLeft: boolean): number {
  switch (b.kind) {
    case 'unbounded preceding': case 'unbounded following':
      throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'unbounded preceding/following is not supported in WINDOW joins', b.pos)
    case 'current row': return 0
    case 'preceding': case 'following': {
      const e = b.offset
      const text = e.kind === 'literal' && 'text' in e ? e.text : ''
      const n = Number(text.replace(/_/g, ''))
      if (text === '' || !Number.isInteger(n) || n < 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'non-negative integer expected', e.pos)
      let per = nsLeft ? 1 : 1000
      if (b.unit !== undefined) {
        const u = UNIT_NANOS[b.unit.toLowerCase().replace(/s$/, '')]
        if (u === undefined) throw new SqlError(SqlState.SYNTAX_ERROR, `unsupported time unit: ${b.unit}`, e.pos)
        per = u
      }
      const nanos = n * per
      if (nanos > MAX_WINDOW_NANOS) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'WINDOW join bound is too large [max=100 years]', e.pos)
      return b.kind === 'preceding' ? -nanos : nanos
    }
  }
}

/**
 * ON: equalities between a left and a right expression are keys; conditions naming only the
 * right table filter it (`AND p.price < 300`); anything else is refused.
 */
function bindOn(j: Join, left: PlanNode, right: PlanNode, envOf: (scope: Scope, clause: string) => ExprEnv) {
  const leftKeys: BoundExpr[] = []
  const rightKeys: BoundExpr[] = []
  const leftEnv = envOf(new Scope(left.output), 'ON')
  const rightEnv = envOf(new Scope(right.output), 'ON')
  const bothEnv = envOf(new Scope([...left.output, ...right.output]), 'ON')
  const width = left.output.length
  const shift = new Int32Array(width + right.output.length)
  for (let i = 0; i < shift.length; i++) shift[i] = i - width
  const add = (l: BoundExpr, r: BoundExpr, pos: number) => {
    const [lk, rk] = unifyKeys(l, r, pos)
    leftKeys.push(lk)
    rightKeys.push(rk)
  }
  const filters: BoundExpr[] = []
  forEachJoinKey(j, leftEnv, rightEnv, add, (c) => {
    const b = bindExpr(c, bothEnv)
    if (b.type !== 'BOOLEAN') throw new SqlError(SqlState.DATATYPE_MISMATCH, 'boolean expression expected', c.pos)
    const cols = new Set<number>()
    columnsOf(b, cols)
    if ([...cols].some((i) => i < width)) throw notSupported('WINDOW join condition must be a key equality or name only the right table', c.pos)
    filters.push(remapExpr(b, shift))
  })
  let filtered = right
  for (const f of filters) filtered = { kind: 'filter', input: filtered, predicate: f, output: filtered.output, timestampIndex: filtered.timestampIndex }
  return { leftKeys, rightKeys, filtered }
}
