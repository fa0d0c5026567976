/**
 * Binds AST expressions to typed {@link BoundExpr}s: resolves names against a {@link Scope},
 * resolves functions and operators to definitions (inserting implicit casts), folds casts of
 * literals, and checks types. Errors carry the position of the offending token.
 */
import { SqlError, SqlState } from '../errors.js'
import type { ColumnRef, Expr, Call, Literal, Query } from '../sql/ast.js'
import { type ColumnType, commonType, parseTypeName, typeName, isInterval, isTemporal, isText } from '../types/column-type.js'
import type { Scalar } from '../types/vector.js'
import { castScalar, canCast, canImplicitlyCast } from '../types/cast.js'
import { parseInterval } from '../types/interval.js'
import { DECIMAL_PARAM, decimalLiteralConst, isDecimal } from '../types/decimal.js'
import { isTick } from '../types/tick.js'
import type { AggregateFunctionDef, CallSite, ScalarFunctionDef } from '../functions/registry-types.js'
import type { BoundExpr, CorrelatedApply, PlanNode } from './plan-node.js'
import type { BoundSubplan, CorrelatedSpec } from './bind-correlated.js'
import type { Scope } from './scope.js'
import { arityError, describeArgs, resolveOverload } from './resolve-function.js'
import { functionsNamed, isAggregateOf } from '../functions/registry.js'
import { type ConstantEvaluator, foldConstant } from './fold-constant.js'
import { bindArrayOperator, bindArraySyntax, isArraySyntax } from './bind-array.js'
import { isLiteralItem, LITERAL_LIST_MIN_ITEMS, LiteralList } from './literal-list.js'
import { bindNsInterval } from './bind-ns-interval.js'
import { bindIntervalBound } from './bind-interval-bounds.js'
import { bindJsonExtractCast } from './bind-json-extract-cast.js'
import { decimalBesideDouble } from './decimal-double-mix.js'
import { widenNsLiterals } from './ns-literal-args.js'
import { isGeohash, parseGeohashLiteral } from '../types/geohash.js'
import { geohashWidening } from '../types/geohash-cast.js'
import { bindGeohashComparison } from './bind-geohash.js'

/** Hooks and environment for binding expressions. */
export interface ExprEnv {
  readonly scope: Scope
  /**
   * types of `$n` parameters (index 0 = `$1`); an undefined or missing one is *untyped*: it takes
   * the type its use asks for (`id = $1` with an INT id makes it INT) and is STRING otherwise
   */
  readonly paramTypes: readonly (ColumnType | undefined)[]
  /** told the type an untyped parameter takes from its use */
  readonly onInfer?: (index: number, type: ColumnType) => void
  /** binds a subquery to a plan */
  readonly bindSubquery: (q: Query) => PlanNode
  /** called first on every node; a result replaces normal binding (used after GROUP BY) */
  readonly rewrite?: (e: Expr) => BoundExpr | undefined
  /** where aggregate calls go; undefined means aggregates are not allowed here */
  readonly onAggregate?: (call: Call, def: AggregateFunctionDef) => BoundExpr
  /** where window calls (`f() OVER (...)`) go; undefined means they are not allowed here */
  readonly onWindow?: (call: Call) => BoundExpr
  /** what the clause is, for error messages ("WHERE") */
  readonly clause?: string
  /** a column not found in `scope`: a column of an enclosing query (LATERAL), or undefined */
  readonly outer?: (ref: ColumnRef) => BoundExpr | undefined
  /**
   * binds a subquery that may name columns of `scope` (plan/bind-correlated.ts); without it,
   * subqueries are bound by `bindSubquery` and cannot be correlated
   */
  readonly bindSubplan?: (q: Query) => BoundSubplan
  /** where a correlated subquery goes (the column it is computed into); undefined: not allowed here */
  readonly onCorrelated?: (spec: CorrelatedSpec) => BoundExpr
  /**
   * evaluates a constant expression (plan/fold-constant.ts), so an argument a function needs as a
   * constant may be one computed from constants (`rnd_timestamp(to_timestamp('2015', 'yyyy'), ...)`)
   */
  readonly constant?: ConstantEvaluator
}

/** A subquery's plan, or the column a correlated subquery is computed into. */
function subplanOf(q: Query, env: ExprEnv, pos: number, apply: (plan: PlanNode) => [CorrelatedApply, ColumnType]): BoundExpr | PlanNode {
  if (env.bindSubplan === undefined) return env.bindSubquery(q)
  const sp = env.bindSubplan(q)
  if (sp.outerRefs.length === 0) return sp.plan
  const [a, type] = apply(sp.plan)
  if (env.onCorrelated === undefined) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `correlated subqueries are not supported in ${env.clause ?? 'this clause'}`, pos)
  return env.onCorrelated({ ...sp, apply: a, type })
}

function isPlan(x: BoundExpr | PlanNode): x is PlanNode {
  return 'output' in x
}

const OPERATOR_NAMES: Record<string, string> = { '<>': '!=' }

/** Binds an expression. */
export function bindExpr(e: Expr, env: ExprEnv): BoundExpr {
  const r = env.rewrite?.(e)
  if (r !== undefined) return r
  // `@x` outside a DECLARE that binds it (build/declare.ts replaces the declared ones)
  if ((e as { kind: string }).kind === 'variable') throw new SqlError(SqlState.UNDEFINED_COLUMN, `undeclared variable: ${(e as unknown as { name: string }).name}`, e.pos)
  switch (e.kind) {
    case 'literal': return bindLiteral(e)
    case 'column': {
      let c
      try {
        c = env.scope.resolve(e)
      } catch (err) {
        const o = env.outer?.(e)
        if (o !== undefined) return o
        throw err
      }
      return c.dict === undefined ? { kind: 'column', type: c.type, index: c.index } : { kind: 'column', type: c.type, index: c.index, dict: c.dict }
    }
    case 'star': throw new SqlError(SqlState.SYNTAX_ERROR, "'*' is not allowed here", e.pos)
    case 'param': {
      if (e.index < 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'parameter index must be 1 or more', e.pos)
      const t = env.paramTypes[e.index - 1]
      return t === undefined ? { kind: 'param', type: 'STRING', index: e.index - 1, untyped: true } : { kind: 'param', type: t, index: e.index - 1 }
    }
    case 'call': return bindCall(e, env)
    case 'binary': return bindFunction(OPERATOR_NAMES[e.op] ?? e.op, [e.left, e.right], e.pos, env)
    case 'unary': {
      if (e.op === '+') return bindExpr(e.operand, env)
      if (e.op === '-' && e.operand.kind === 'literal' && (e.operand.type === 'int' || e.operand.type === 'long' || e.operand.type === 'double' || e.operand.type === 'decimal')) {
        return bindLiteral({ ...e.operand, text: negate(e.operand.text) })
      }
      return bindFunction(e.op === '-' ? 'neg' : e.op === 'not' ? 'not' : 'bitnot', [e.operand], e.pos, env)
    }
    case 'cast': {
      const to = parseTypeName(e.type, e.typePos)
      if (to === undefined || to === 'NULL') throw new SqlError(SqlState.UNDEFINED_OBJECT, `unsupported cast type: ${e.type}`, e.typePos)
      // `cast($1 AS DECIMAL(p,s))` reports $1 as that DECIMAL, so Describe says numeric and asyncpg
      // sends its Decimal (other explicit casts leave the parameter text, whatever the target)
      const value = bindExpr(e.expr, env)
      // a text constant that is no geohash of that precision is reported at the text, as QuestDB does
      const pos = isGeohash(to) && value.kind === 'const' && isText(value.type) ? e.expr.pos : e.pos
      return castTo(value, to, pos, true, isDecimal(to) ? env.onInfer : undefined)
    }
    case 'case': return bindCase(e, env)
    case 'in': {
      const target = bindExpr(e.expr, env)
      if (!Array.isArray(e.list)) {
        const sub = subplanOf(e.list as Query, env, e.pos, (plan) => {
          if (plan.output.length !== 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'subquery must return exactly one column', e.pos)
          return [{ mode: 'in', probe: target, not: e.not }, 'BOOLEAN']
        })
        if (!isPlan(sub)) return sub
        return { kind: 'in_query', type: 'BOOLEAN', expr: target, plan: sub, not: e.not }
      }
      const list = e.list as readonly Expr[]
      if (target.type === 'TIMESTAMP_NS' && list.length === 1 && list[0]!.kind === 'literal' && list[0]!.type === 'string') return bindNsInterval(target, list[0]!.value, list[0]!.pos, e.not)
      if (isTemporal(target.type) && list.length === 1 && list[0]!.kind === 'literal' && list[0]!.type === 'string') {
        const { value, pos } = list[0]!
        const intervals = intervalOf(value, pos)
        // a TICK variable (`$now`, `$today`) is read against each execution's now()
        if (value.includes('$') && isTick(value)) return { kind: 'in_intervals', type: 'BOOLEAN', expr: target, intervals: new Float64Array(0), not: e.not, tick: { text: value, pos } }
        return { kind: 'in_intervals', type: 'BOOLEAN', expr: target, intervals, not: e.not }
      }
      // `ts IN $1` with a text (or untyped) parameter: its value is an interval string, as a
      // literal would be (QuestDB's InTimestampTimestampTest); a TIMESTAMP parameter is equality
      if ((isTemporal(target.type) || target.type === 'TIMESTAMP_NS') && list.length === 1 && list[0]!.kind === 'param') {
        const p = bindExpr(list[0]!, env)
        if (p.kind === 'param' && (p.untyped === true || isText(p.type))) {
          if (p.untyped === true) env.onInfer?.(p.index, 'VARCHAR')
          return { kind: 'in_intervals', type: 'BOOLEAN', expr: target, intervals: new Float64Array(0), not: e.not, param: { index: p.index, pos: list[0]!.pos } }
        }
      }
      // `ts IN interval(lo, hi)`: between its bounds
      if ((isTemporal(target.type) || target.type === 'TIMESTAMP_NS') && list.length === 1 && list[0]!.kind === 'call') {
        const b = bindExpr(list[0]!, env)
        if (isInterval(b.type)) {
          const c = list[0]!
          const end: Expr = { kind: 'call', pos: c.pos, name: 'interval_end', args: [c], distinct: false, star: false }
          // a microsecond interval covers whole microseconds: on a nanosecond value its end is
          // the last nanosecond of its last microsecond (`ts_ns IN today()` keeps 23:59:59.999999999)
          const hi: Expr = target.type === 'TIMESTAMP_NS' && b.type === 'INTERVAL'
            ? { kind: 'binary', pos: c.pos, op: '+', left: { kind: 'cast', pos: c.pos, expr: end, type: 'timestamp_ns', typePos: c.pos, shorthand: true }, right: { kind: 'literal', pos: c.pos, type: 'int', text: '999' } }
            : end
          const between = bindFunction('between', [e.expr, { kind: 'call', pos: c.pos, name: 'interval_start', args: [c], distinct: false, star: false }, hi], e.pos, env)
          return e.not ? notOf(between, e.pos, env) : between
        }
      }
      const to = target.type === 'SYMBOL' ? 'STRING' : target.type
      // a long list of literals is converted when it runs, in slices (see literal-list.ts)
      if (list.length >= LITERAL_LIST_MIN_ITEMS && list.every(isLiteralItem)) {
        return { kind: 'in', type: 'BOOLEAN', expr: target, values: new LiteralList(list, to, convertLiteralItem), not: e.not }
      }
      const values: Scalar[] = []
      for (const item of list) {
        const b = bindExpr(item, env)
        if (b.kind !== 'const') return bindInAsOr(target, list, e.not, env)
        values.push(castConstant(b, to, item.pos))
      }
      return { kind: 'in', type: 'BOOLEAN', expr: target, values, not: e.not }
    }
    case 'between': {
      const call = bindFunction('between', [e.expr, e.low, e.high], e.pos, env)
      return e.not ? notOf(call, e.pos, env) : call
    }
    case 'like': {
      const call = bindFunction(e.caseInsensitive ? 'ilike' : 'like', [e.expr, e.pattern], e.pos, env)
      return e.not ? notOf(call, e.pos, env) : call
    }
    case 'isnull': return { kind: 'isnull', type: 'BOOLEAN', expr: bindExpr(e.expr, env), not: e.not }
    case 'subquery': {
      const sub = subplanOf(e.query, env, e.pos, (plan) => {
        if (plan.output.length !== 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'subquery must return exactly one column', e.pos)
        const t = plan.output[0]!.type
        return [{ mode: 'scalar', pos: e.pos }, t === 'NULL' || t === 'SYMBOL' ? 'STRING' : t]
      })
      if (!isPlan(sub)) return sub
      if (sub.output.length !== 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'subquery must return exactly one column', e.pos)
      return { kind: 'subquery', type: sub.output[0]!.type, plan: sub, pos: e.pos }
    }
    case 'exists': {
      const sub = subplanOf(e.query, env, e.pos, () => [{ mode: 'exists', not: e.not }, 'BOOLEAN'])
      return isPlan(sub) ? { kind: 'exists', type: 'BOOLEAN', plan: sub, not: e.not } : sub
    }
    case 'extract': {
      const unit: Literal = { kind: 'literal', pos: e.pos, type: 'string', value: e.unit.toLowerCase() }
      return bindFunction('extract', [unit, e.expr], e.pos, env)
    }
  }
}

/** One item of a {@link LiteralList} as a value of `to` (as binding it and casting the constant would). */
function convertLiteralItem(item: Expr, to: ColumnType): Scalar {
  const b = item.kind === 'literal' ? bindLiteral(item)
    : item.kind === 'unary' && item.operand.kind === 'literal' && 'text' in item.operand ? bindLiteral({ ...item.operand, text: negate(item.operand.text) })
    : undefined
  if (b?.kind !== 'const') throw new SqlError(SqlState.INTERNAL_ERROR, 'internal error: an IN list item is not a literal', item.pos)
  return castConstant(b, to, item.pos)
}

function negate(text: string): string {
  return text.startsWith('-') ? text.slice(1) : `-${text}`
}

function notOf(inner: BoundExpr, pos: number, env: ExprEnv): BoundExpr {
  return callWith('not', [inner], [false], [pos], pos, env)
}

/** `x IN (a, b, c)` with non-constant items: `x = a OR x = b OR ...`. */
function bindInAsOr(target: BoundExpr, list: readonly Expr[], not: boolean, env: ExprEnv): BoundExpr {
  let acc: BoundExpr | undefined
  for (const item of list) {
    const eq = callWith('=', [target, bindExpr(item, env)], [false, item.kind === 'literal'], [item.pos, item.pos], item.pos, env)
    acc = acc === undefined ? eq : callWith('or', [acc, eq], [false, false], [item.pos, item.pos], item.pos, env)
  }
  const r = acc ?? { kind: 'const', type: 'BOOLEAN', value: false }
  return not ? callWith('not', [r], [false], [0], 0, env) : r
}

/** The inclusive [lo, hi] micro intervals of a QuestDB interval string. */
function intervalOf(text: string, pos: number): Float64Array {
  return parseInterval(text, pos)
}

/** Binds a literal to a constant. */
export function bindLiteral(e: Literal): BoundExpr {
  switch (e.type) {
    case 'int': {
      const text = e.text.replace(/_/g, '')
      const n = Number(text)
      if (Number.isSafeInteger(n) && n >= -2147483647 && n <= 2147483647) return { kind: 'const', type: 'INT', value: n }
      return longLiteral(text, e.pos)
    }
    case 'long': return longLiteral(e.text.replace(/_/g, '').replace(/[lL]$/, ''), e.pos)
    case 'double': { const text = e.text.replace(/_/g, ''); return { kind: 'const', type: 'DOUBLE', value: Number(text), text } }
    case 'decimal': return decimalLiteralConst(e.text, e.pos)
    case 'string': return { kind: 'const', type: 'STRING', value: e.value }
    case 'boolean': return { kind: 'const', type: 'BOOLEAN', value: e.value }
    case 'null': return { kind: 'const', type: 'NULL', value: null }
    case 'char': return { kind: 'const', type: 'CHAR', value: e.value }
    case 'long256': return { kind: 'const', type: 'LONG256', value: e.text.toLowerCase() }
    case 'geohash': { const g = parseGeohashLiteral(e.text, e.pos); return { kind: 'const', type: g.type, value: g.value } }
  }
}

function longLiteral(text: string, pos: number): BoundExpr {
  let big: bigint
  try { big = BigInt(text) } catch { throw new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `invalid number: ${text}`, pos) }
  if (big > 9223372036854775807n || big < -9223372036854775808n) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `number overflow: ${text}`, pos)
  const n = Number(big)
  return { kind: 'const', type: 'LONG', value: Number.isSafeInteger(n) ? n : big }
}

/**
 * Casts a bound expression; constants are folded (so bad literals fail at bind time, with a
 * position). An untyped parameter takes the type instead (reported through `onInfer`).
 */
export function castTo(b: BoundExpr, to: ColumnType, pos: number, explicit: boolean, onInfer?: (index: number, type: ColumnType) => void): BoundExpr {
  if (b.kind === 'param' && b.untyped === true && to !== 'NULL') {
    onInfer?.(b.index, to)
    return { kind: 'param', type: to, index: b.index }
  }
  if (b.type === to) return b
  if (explicit) { const typed = bindJsonExtractCast(b, to); if (typed !== undefined) return typed }
  // a DOUBLE literal assigned to a DECIMAL converts from its text, exactly (PostgreSQL's numeric literal)
  if (b.kind === 'const' && b.text !== undefined && b.type === 'DOUBLE' && isDecimal(to)) {
    return { kind: 'const', type: to, value: castConstant({ kind: 'const', type: 'STRING', value: b.text }, to, pos) }
  }
  if (isGeohash(b.type) && isGeohash(to) && explicit && !canImplicitlyCast(b.type, to)) {
    // a null of another precision is a null of this one; a value needs bits it does not have
    if (b.kind === 'const' && b.value === null) return { kind: 'const', type: to, value: null }
    throw geohashWidening(b.type, to, pos)
  }
  if (explicit ? !canCast(b.type, to) : !canImplicitlyCast(b.type, to)) {
    throw new SqlError(SqlState.DATATYPE_MISMATCH, `inconvertible types: ${typeName(b.type)} -> ${typeName(to)}`, pos)
  }
  if (b.kind === 'const') return { kind: 'const', type: to, value: castConstant(b, to, pos) }
  return { kind: 'cast', type: to, expr: b, pos }
}

/** The value of a constant converted to `to`, or a 22P02 error at `pos`. */
export function castConstant(b: Extract<BoundExpr, { kind: 'const' }>, to: ColumnType, pos: number): Scalar {
  if (b.type === to || b.value === null) return b.value
  try {
    return castScalar(b.value, b.type, to)
  } catch (err) {
    if (err instanceof SqlError) throw new SqlError(err.code, err.message, pos)
    throw err
  }
}

function bindCall(e: Call, env: ExprEnv): BoundExpr {
  if (isArraySyntax(e.name)) return bindArraySyntax(e, env, bindExpr)
  const name = e.name.toLowerCase()
  const defs = functionsNamed(name === 'count' && e.distinct ? 'count_distinct' : name)
  if (defs.length === 0) throw new SqlError(SqlState.UNDEFINED_FUNCTION, `unknown function name: ${e.name}`, e.pos)
  if (e.over !== undefined) {
    if (env.onWindow === undefined) throw new SqlError(SqlState.GROUPING_ERROR, `window function ${e.name} is not allowed ${env.clause === undefined ? 'here' : `in ${env.clause}`}`, e.pos)
    return env.onWindow(e)
  }
  const agg = defs.find((d) => d.kind === 'aggregate') as AggregateFunctionDef | undefined
  if (agg !== undefined && (defs.every((d) => d.kind !== 'scalar') || isAggregateOf(defs, e.args.length))) {
    if (env.onAggregate === undefined) {
      throw new SqlError(SqlState.GROUPING_ERROR, `aggregate function ${e.name} is not allowed ${env.clause === undefined ? 'here' : `in ${env.clause}`}`, e.pos)
    }
    return env.onAggregate(e, agg)
  }
  if (defs.every((d) => d.kind === 'table')) throw new SqlError(SqlState.SYNTAX_ERROR, `table function ${e.name} can only be used in FROM`, e.pos)
  return bindFunction(e.name, e.args, e.pos, env)
}

/** Binds a call of scalar function `name` with argument expressions. */
export function bindFunction(name: string, args: readonly Expr[], pos: number, env: ExprEnv): BoundExpr {
  const bound = widenNsLiterals(name, args.map((a) => bindExpr(a, env)), args.map((a) => a.pos))
  const intervalBound = bindIntervalBound(name, bound)
  if (intervalBound !== undefined) return intervalBound
  return callWith(name, bound, args.map((a) => a.kind === 'literal' || a.kind === 'param'), args.map((a) => a.pos), pos, env)
}

function callWith(name: string, bound: BoundExpr[], literals: boolean[], positions: number[], pos: number, env: ExprEnv): BoundExpr {
  const arrayOp = bindArrayOperator(name, bound, positions, pos, env)
  if (arrayOp !== undefined) return arrayOp
  bound = decimalBesideDouble(name, bound, positions)
  const geo = bindGeohashComparison(name, bound, positions)
  if (geo !== undefined) { if (!Array.isArray(geo)) return geo as BoundExpr; bound = geo }
  const defs = functionsNamed(name).filter((d) => d.kind === 'scalar') as ScalarFunctionDef[]
  if (defs.length === 0) throw new SqlError(SqlState.UNDEFINED_FUNCTION, `unknown function name: ${name}`, pos)
  // an untyped parameter fits any type for overload resolution, then takes the chosen one
  const isUntyped = (b: BoundExpr) => b.kind === 'param' && b.untyped === true
  const types = bound.map((b) => (isUntyped(b) ? 'NULL' : b.type))
  const typedPeer = bound.find((b) => !isUntyped(b))?.type
  const res = resolveOverload(defs, types, literals, bound.map((b) => (isUntyped(b) ? typedPeer : undefined)))
  if (res === undefined) {
    const arity = arityError(name, defs, bound.length)
    if (arity !== undefined) throw new SqlError(SqlState.UNDEFINED_FUNCTION, arity, pos)
    throw new SqlError(SqlState.UNDEFINED_FUNCTION, `there is no matching function or operator for ${describeArgs(name, types.map(typeName) as ColumnType[])}`, pos)
  }
  const def = res.def as ScalarFunctionDef
  const peer = typedPeer
  const args = bound.map((b, i) => {
    const d = res.declared[i]!
    // an untyped parameter where any DECIMAL goes is DECIMAL(76,38), as in QuestDB (not its
    // neighbour's type, which would round `$1 + 1.5m` with $1 = 2.25 to one decimal)
    if (d === 'DECIMAL' && b.kind === 'param' && b.untyped === true) return castTo(b, DECIMAL_PARAM, positions[i]!, false, env.onInfer)
    if (d === 'ANY' || d === 'NUMERIC' || d === 'TEXT' || d === 'ARRAY' || d === 'DECIMAL' || d === 'GEOHASH') {
      // `x || $1`, `coalesce(x, $1)`: an untyped parameter follows its typed neighbour
      return b.kind === 'param' && b.untyped === true && peer !== undefined && peer !== 'NULL' ? castTo(b, peer, positions[i]!, false, env.onInfer) : b
    }
    if (d === 'TEMPORAL') return isTemporal(b.type) && !(b.kind === 'param' && b.untyped === true) ? b : castTo(b, 'TIMESTAMP', positions[i]!, false, env.onInfer)
    return castTo(b, d, positions[i]!, false, env.onInfer)
  })
  for (const c of res.signature.constant ?? []) if (args[c] !== undefined) args[c] = foldConstant(args[c]!, env.constant)
  const argTypes = args.map((a) => a.type)
  const constants = args.map((a) => (a.kind === 'const' ? a.value : undefined))
  for (const c of res.signature.constant ?? []) {
    if (args[c] !== undefined && args[c]!.kind !== 'const') throw new SqlError(SqlState.SYNTAX_ERROR, `constant expected`, positions[c]!)
  }
  const returns = typeof res.signature.returns === 'function' ? res.signature.returns(argTypes, constants) : res.signature.returns
  const site: CallSite = { argTypes, constants, returns, argPositions: positions, pos }
  def.check?.(site)
  return { kind: 'call', type: returns, def, site, args }
}

/** The call site of an aggregate with bound arguments. */
export function aggregateSite(def: AggregateFunctionDef, call: Call, args: BoundExpr[]): { site: CallSite; args: BoundExpr[] } {
  const types = args.map((a) => a.type)
  const res = resolveOverload([def], types, call.args.map((a) => a.kind === 'literal'))
  if (res === undefined) {
    const arity = arityError(call.name, [def], args.length)
    if (arity !== undefined) throw new SqlError(SqlState.UNDEFINED_FUNCTION, arity, call.pos)
    throw new SqlError(SqlState.UNDEFINED_FUNCTION, `there is no matching function for ${describeArgs(call.name, types.map(typeName) as ColumnType[])}`, call.pos)
  }
  const cast = args.map((b, i) => {
    const d = res.declared[i]!
    if (d === 'ANY' || d === 'NUMERIC' || d === 'TEXT' || d === 'ARRAY' || d === 'DECIMAL' || d === 'GEOHASH') return b
    if (d === 'TEMPORAL') return isTemporal(b.type) ? b : castTo(b, 'TIMESTAMP', call.args[i]!.pos, false)
    return castTo(b, d, call.args[i]!.pos, false)
  })
  const argTypes = cast.map((a) => a.type)
  const returns = typeof res.signature.returns === 'function' ? res.signature.returns(argTypes) : res.signature.returns
  return {
    site: { argTypes, constants: cast.map((a) => (a.kind === 'const' ? a.value : undefined)), returns, argPositions: call.args.map((a) => a.pos), pos: call.pos },
    args: cast,
  }
}

function bindCase(e: Extract<Expr, { kind: 'case' }>, env: ExprEnv): BoundExpr {
  const operand = e.operand === undefined ? undefined : bindExpr(e.operand, env)
  const whens = e.whens.map((w) => {
    const cond = operand === undefined
      ? castTo(bindExpr(w.when, env), 'BOOLEAN', w.when.pos, false)
      : callWith('=', [operand, bindExpr(w.when, env)], [false, w.when.kind === 'literal'], [w.when.pos, w.when.pos], w.when.pos, env)
    return { when: cond, then: bindExpr(w.then, env) }
  })
  const otherwise: BoundExpr = e.else === undefined ? { kind: 'const', type: 'NULL', value: null } : bindExpr(e.else, env)
  let type: ColumnType = otherwise.type
  for (const w of whens) type = commonType(type, w.then.type)
  if (type === 'NULL') type = 'STRING'
  if (type === 'SYMBOL') type = 'STRING'
  const pos = e.pos
  return {
    kind: 'case', type,
    whens: whens.map((w) => ({ when: w.when, then: castTo(w.then, type, pos, true) })),
    else: castTo(otherwise, type, pos, true),
  }
}

/** Unifies two types for comparisons and set operations, preferring the side that is not text. */
export function unify(a: ColumnType, b: ColumnType): ColumnType {
  if (isText(a) && isTemporal(b)) return b
  if (isText(b) && isTemporal(a)) return a
  return commonType(a, b)
}
