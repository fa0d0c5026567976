/**
 * Binds queries (SELECT, set operations, WITH) to plan trees: FROM and joins, WHERE, QuestDB's
 * implicit GROUP BY, the select list with QuestDB's output names, DISTINCT, ORDER BY (also by
 * columns not selected), and LIMIT.
 */
import { SqlError, SqlState, notSupported, internalError } from '../errors.js'
import type { Call, Expr, Join, OrderItem, Query, Select, SelectItem, TableRef } from '../sql/ast.js'
import { type ColumnType, typeName } from '../types/column-type.js'
import type { Scalar } from '../types/vector.js'
import type { AggregateFunctionDef, FunctionContext, TableFunctionDef } from '../functions/registry-types.js'
import type { Catalog, ViewDef } from '../storage/catalog.js'
import { atViewRef, enterView, viewQuery } from './bind-view.js'
import type { BoundAggregate, BoundExpr, OutputColumn, PlanNode, SortKey } from './plan-node.js'
import { checkOrderedAggregate } from './ordered-aggregate-args.js'
import { Scope, rejectAmbiguousRefs } from './scope.js'
import { type ExprEnv, aggregateSite, bindExpr, castConstant, castTo, unify } from './bind-expr.js'
import { arityError, describeArgs, resolveOverload } from './resolve-function.js'
import { functionsNamed } from '../functions/registry.js'
import { bindLatestOn, bindSampleBy, bindTimeJoin, bindWindowCall, windowNode, type WindowCall } from './bind-time-series.js'
import { conjuncts, unifyKeys } from './bind-time-join.js'
import { checkJoinConstantTerms } from './join-constant-terms.js'
import { outputNames, astKey, containsAggregate, collectColumnRefs, type OutputNaming } from './naming.js'
import { pivotQuery, withRestKeys } from './bind-pivot.js'
import { type ConstantEvaluator, foldConstant } from './fold-constant.js'
import { windowsOutOfAggregates } from './window-in-aggregate.js'
import { bindLateral } from './bind-lateral.js'
import { bindJoins } from './bind-comma-group.js'
import { withSubqueryAliases } from './subquery-aliases.js'
import { type WindowJoinBinding, bindWindowJoins } from './bind-window-join.js'
import { bindHorizonJoin } from './bind-horizon-join.js'
import { rejectUsingAlias, unnestAsLateral, withColumnAliases } from './bind-unnest.js'
import { widenNsSeriesBounds } from './ns-literal-args.js'
import { type CorrelatedSpec, applyCorrelated, bindSubplan } from './bind-correlated.js'

/** What binding a query needs from the database. */
export interface BindContext {
  readonly catalog: Catalog
  /** `$n` types; undefined ones are inferred from their use (see ExprEnv.paramTypes) */
  readonly paramTypes: readonly (ColumnType | undefined)[]
  /** told the type an untyped parameter takes */
  readonly onInfer?: (index: number, type: ColumnType) => void
  /** common table expressions in scope, by lower-case name */
  readonly ctes: ReadonlyMap<string, PlanNode>
  /** for table functions whose schema depends on the catalog */
  readonly fn: FunctionContext
  /**
   * evaluates a constant expression (the statement's evaluator, given by the layer that runs
   * it: plan/ does not import exec/); without it, constants are not folded when bound
   */
  readonly constant?: ConstantEvaluator
  /** parameter values, when known at bind time (table-function arguments need them) */
  readonly params?: readonly Scalar[]
  /** columns of the FROM items before a LATERAL subquery, as parameters (bind-lateral.ts) */
  readonly outer?: ExprEnv['outer']
  /** the first parameter slot a nested LATERAL may use for its outer columns */
  readonly lateralBase?: number
  /** how unaliased result columns are named (default: QuestDB's legacy names, see naming.ts) */
  readonly naming?: OutputNaming
  /** the views being expanded around this query, outermost first (bind-view.ts) */
  readonly viewPath?: readonly string[]
  /** collects the views the statement names itself (not those inside views), for access control */
  readonly viewsRead?: Set<string>
}

/** Binds any query. */
export function bindQuery(q: Query, bc: BindContext): PlanNode {
  switch (q.kind) {
    case 'with': {
      const ctes = new Map(bc.ctes)
      for (const c of q.ctes) ctes.set(c.name.toLowerCase(), relabel(bindQuery(c.query, { ...bc, ctes }), c.name))
      return bindQuery(q.body, { ...bc, ctes })
    }
    case 'setop': return bindSetOp(q, bc)
    case 'select': return bindSelect(q, bc)
  }
}

function env(scope: Scope, bc: BindContext, extra: Partial<ExprEnv> = {}): ExprEnv {
  return { scope, paramTypes: bc.paramTypes, bindSubquery: (sq) => bindQuery(sq, bc), bindSubplan: (sq) => bindSubplan(sq, scope, bc, bindQuery), ...(bc.onInfer === undefined ? {} : { onInfer: bc.onInfer }), ...(bc.outer === undefined ? {} : { outer: bc.outer }), ...(bc.constant === undefined ? {} : { constant: bc.constant }), ...extra }
}

/** Marks every output column as coming from `table` (an alias). */
function relabel(node: PlanNode, table: string): PlanNode {
  return { ...node, output: node.output.map((c) => ({ ...c, table })) } as PlanNode
}

function bindSetOp(q: Extract<Query, { kind: 'setop' }>, bc: BindContext): PlanNode {
  let left = bindQuery(q.left, bc)
  let right = bindQuery(q.right, bc)
  if (left.output.length !== right.output.length) {
    throw new SqlError(SqlState.SYNTAX_ERROR, 'queries have different number of columns', q.pos)
  }
  const types = left.output.map((c, i) => unify(c.type, right.output[i]!.type))
  left = castColumns(left, types, q.pos)
  right = castColumns(right, types, q.pos)
  const output = left.output.map((c, i) => ({ name: c.name, type: types[i]! }))
  let node: PlanNode = { kind: 'setop', op: q.op, all: q.all, left, right, output, timestampIndex: -1 }
  if (q.orderBy !== undefined) node = bindOrderOnOutput(node, q.orderBy, bc)
  if (q.limit !== undefined) node = bindLimit(node, q.limit, bc)
  return node
}

function castColumns(node: PlanNode, types: readonly ColumnType[], pos: number): PlanNode {
  if (node.output.every((c, i) => c.type === types[i])) return node
  const exprs = node.output.map((c, i) => castTo({ kind: 'column', type: c.type, index: i }, types[i]!, pos, true))
  return { kind: 'project', input: node, exprs, output: node.output.map((c, i) => ({ name: c.name, type: types[i]! })), timestampIndex: -1 }
}

// ---------------------------------------------------------------------------------------------

function bindTableRef(ref: TableRef, bc: BindContext): PlanNode {
  // `FROM @v` that no DECLARE binds (build/declare.ts)
  const variable = ref as unknown as { kind: string; name: string }
  if (variable.kind === 'variable') throw new SqlError(SqlState.UNDEFINED_COLUMN, `undeclared variable: ${variable.name}`, ref.pos)
  rejectUsingAlias(ref)
  let node: PlanNode
  switch (ref.kind) {
    case 'table': {
      const cte = bc.ctes.get(ref.name.toLowerCase())
      if (cte !== undefined) { node = relabel(cte, ref.alias ?? ref.name); break }
      const view = bc.catalog.findView(ref.name)
      if (view !== undefined) { node = bindViewRef(view, ref, bc); break }
      const table = bc.catalog.get(ref.name, ref.pos)
      const meta = table.meta
      const alias = ref.alias ?? meta.name
      node = {
        kind: 'scan', table, meta, columns: meta.columns.map((_, i) => i),
        output: meta.columns.map((c, i) => {
          const dict = table.dictOf(i)
          return dict === undefined ? { name: c.name, type: c.type, table: alias } : { name: c.name, type: c.type, table: alias, dict }
        }),
        timestampIndex: meta.timestampIndex,
        ...(bc.viewPath !== undefined && bc.viewPath.length > 0 ? { inView: true } : {}),
      }
      break
    }
    case 'function': node = bindTableFunction(ref.call, bc, ref.alias); break
    case 'subquery': node = ref.alias === undefined ? bindQuery(ref.query, bc) : relabel(bindQuery(ref.query, bc), ref.alias); break
    case 'pivot': {
      const p = ref.groupByRest === true ? withRestKeys(ref, bindTableRef(ref.source, bc).output) : ref
      node = ref.alias === undefined ? bindQuery(pivotQuery(p), bc) : relabel(bindQuery(pivotQuery(p), bc), ref.alias)
      break
    }
  }
  node = withColumnAliases(node, ref)
  if (ref.timestamp !== undefined) {
    const i = node.output.findIndex((c) => c.name.toLowerCase() === ref.timestamp!.toLowerCase())
    if (i < 0) throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${ref.timestamp}`, ref.pos)
    if (node.output[i]!.type !== 'TIMESTAMP' && node.output[i]!.type !== 'TIMESTAMP_NS') throw new SqlError(SqlState.DATATYPE_MISMATCH, `not a TIMESTAMP column: ${ref.timestamp}`, ref.pos)
    node = { ...node, timestampIndex: i } as PlanNode
  }
  return node
}

/** A view named in FROM: its query bound as a subquery of its own scope (bind-view.ts). */
function bindViewRef(view: ViewDef, ref: Extract<TableRef, { kind: 'table' }>, bc: BindContext): PlanNode {
  const viewPath = enterView(bc.viewPath ?? [], view, ref.pos)
  if (viewPath.length === 1) bc.viewsRead?.add(view.name)
  let node: PlanNode
  try {
    node = bindQuery(viewQuery(view, ref), { ...bc, ctes: new Map(), viewPath })
  } catch (e) {
    throw atViewRef(e, ref.pos)
  }
  return relabel(node, ref.alias ?? view.name)
}

function bindTableFunction(call: Call, bc: BindContext, alias: string | undefined): PlanNode {
  const def = functionsNamed(call.name).find((d) => d.kind === 'table') as TableFunctionDef | undefined
  if (def === undefined) throw new SqlError(SqlState.UNDEFINED_FUNCTION, `unknown function name: ${call.name}`, call.pos)
  const e = env(new Scope([]), bc, { clause: 'FROM' })
  // constant expressions are folded first: long_sequence(cast(60 * 60 * 2.5 as long))
  const args = widenNsSeriesBounds(call.name, call.args.map((a) => foldConstant(bindExpr(a, e), bc.constant)), call.args.map((a) => a.pos))
  args.forEach((a, i) => {
    // a function reading its arguments when it runs takes any expression without columns (a LATERAL row's slots)
    if (a.kind !== 'const' && a.kind !== 'param' && def.runtimeArgs !== true) throw new SqlError(SqlState.SYNTAX_ERROR, 'constant expected', call.args[i]!.pos)
  })
  // an untyped `$n` fits any type for overload resolution, then takes the declared one
  const res = resolveOverload([def], args.map((a) => (a.kind === 'param' && a.untyped === true ? 'NULL' : a.type)), call.args.map((a) => a.kind === 'literal' || a.kind === 'param'))
  if (res === undefined) {
    // QuestDB names the argument a table function cannot take (`long_sequence(9000.0)`)
    const types = args.map((a) => (a.kind === 'param' && a.untyped === true ? 'NULL' : a.type))
    const sig = def.signatures.find((g) => g.args.length === args.length)
    const bad = sig === undefined ? -1 : types.findIndex((_, i) => resolveOverload([def], types.map((t, j) => (j === i ? sig.args[i] as ColumnType : t)), call.args.map((a) => a.kind === 'literal' || a.kind === 'param')) !== undefined)
    if (bad >= 0) throw new SqlError(SqlState.DATATYPE_MISMATCH, `argument type ${typeName(types[bad]!)} is not supported`, call.args[bad]!.pos)
    // QuestDB's UNNEST page: "COLUMNS requires VARCHAR ... using it with a typed array produces an error"
    if (def.name.startsWith('unnest_json') && types[0] !== undefined) throw new SqlError(SqlState.DATATYPE_MISMATCH, `UNNEST with COLUMNS(...) expands a JSON array held as VARCHAR, not ${typeName(types[0])}`, call.args[0]!.pos)
    throw new SqlError(SqlState.UNDEFINED_FUNCTION, `there is no matching function for ${describeArgs(def.name, args.map((a) => typeName(a.type)) as ColumnType[])}`, call.pos)
  }
  const cast = args.map((a, i) => {
    const d = res.declared[i]!
    // a `$n` argument takes the type the function declares (so Describe reports it)
    return d === 'ANY' || d === 'NUMERIC' || d === 'TEXT' || d === 'TEMPORAL' || d === 'ARRAY' || d === 'DECIMAL' || d === 'GEOHASH' ? a : castTo(a, d, call.args[i]!.pos, false, bc.onInfer)
  })
  const argTypes = cast.map((a) => a.type)
  const site = {
    argTypes, constants: cast.map((a) => (a.kind === 'const' ? a.value : paramValue(bc, a))),
    returns: (typeof res.signature.returns === 'function' ? res.signature.returns(argTypes) : res.signature.returns) as ColumnType,
    argPositions: call.args.map((a) => a.pos), pos: call.pos,
  }
  const output = def.columns(site, bc.fn).map((c) => ({ name: c.name, type: c.type, table: alias ?? def.name }))
  const late = def.runtimeArgs === true && site.constants.some((c) => c === undefined)
  return { kind: 'table_function', def, site, output, timestampIndex: def.timestampIndex?.(site) ?? -1, ...(late ? { args: cast } : {}) }
}

/** The value of a table-function argument built from `$n` (possibly cast), when the value is known. */
function paramValue(bc: BindContext, e: BoundExpr): Scalar | undefined {
  if (e.kind === 'param') {
    const v = bc.params?.[e.index]
    return v === undefined ? undefined : castConstant({ kind: 'const', type: bc.paramTypes[e.index] ?? 'STRING', value: v }, e.type, -1)
  }
  if (e.kind === 'cast') {
    const v = paramValue(bc, e.expr)
    return v === undefined ? undefined : castConstant({ kind: 'const', type: e.expr.type, value: v }, e.type, e.pos)
  }
  return undefined
}

function bindJoin(left: PlanNode, join: Join, bc: BindContext): PlanNode {
  if (join.type === 'window' || join.type === 'horizon') throw notSupported(`${join.type.toUpperCase()} JOIN cannot be combined with other join types`, join.pos)
  rejectUsingAlias(join.table)
  const unnest = unnestAsLateral(join) // `t, UNNEST(t.arr)`: per row of t
  if (unnest !== undefined) return bindLateral(left, unnest, bc, bindQuery, (n, a) => relabel(n, a))
  if (join.lateral === true) return bindLateral(left, join, bc, bindQuery, (n, a) => relabel(n, a))
  const right = bindTableRef(join.table, bc)
  rejectDuplicateAlias(left, join.table)
  if (join.type === 'asof' || join.type === 'lt' || join.type === 'splice') return bindTimeJoin(left, right, join, bc)
  const output = [...left.output, ...right.output]
  const both = new Scope(output)
  const leftKeys: BoundExpr[] = []
  const rightKeys: BoundExpr[] = []
  const residual: BoundExpr[] = []
  const addKey = (l: BoundExpr, r: BoundExpr, pos: number) => {
    const t = unify(l.type, r.type)
    leftKeys.push(castTo(l, t === 'SYMBOL' ? 'STRING' : t, pos, true))
    rightKeys.push(castTo(r, t === 'SYMBOL' ? 'STRING' : t, pos, true))
  }
  for (const name of join.using ?? []) {
    const ref = { kind: 'column' as const, pos: join.pos, name }
    const l = bindExpr(ref, env(new Scope(left.output), bc)), r = bindExpr(ref, env(new Scope(right.output), bc))
    unifyKeys(l, r, join.pos)
    addKey(l, r, join.pos)
  }
  if (join.on !== undefined) {
    for (const c of conjuncts(join.on)) {
      const pair = c.kind === 'binary' && c.op === '=' ? equiPair(c.left, c.right, left, right, bc) : undefined
      if (pair === undefined) { residual.push(castTo(bindExpr(c, env(both, bc, { clause: 'ON' })), 'BOOLEAN', c.pos, false)); continue }
      // two columns are QuestDB's join keys: of two types (INT and LONG too) they are refused, at the right one
      if (c.kind === 'binary' && c.left.kind === 'column' && c.right.kind === 'column') unifyKeys(pair[0], pair[1], pair[2].pos)
      addKey(pair[0], pair[1], c.pos)
    }
  }
  const res = residual.reduce<BoundExpr | undefined>((acc, r) => (acc === undefined ? r : andOf(acc, r)), undefined)
  return {
    kind: 'join', type: join.type === 'cross' ? 'inner' : join.type, left, right, leftKeys, rightKeys, residual: res,
    // QuestDB's '=' says NULL = NULL (sentinel nulls), and its hash joins match NULL keys to NULL keys
    nullsEqual: true,
    // RIGHT / FULL emit unmatched right rows last, out of the left side's time order: no designated timestamp (as QuestDB)
    output, timestampIndex: join.type === 'right' || join.type === 'full' ? -1 : left.timestampIndex,
  }
}

/**
 * QuestDB's `Duplicate table or alias: x` (42712, at the alias, or the table name without one):
 * a joined table whose name or alias a FROM item before it already has, so that `x.col` would
 * name two tables (`FROM t JOIN u t`, `FROM t, t`).
 */
function rejectDuplicateAlias(left: PlanNode, ref: TableRef): void {
  const name = ref.kind === 'pivot' ? undefined : ref.alias ?? (ref.kind === 'table' ? ref.name : undefined)
  if (name === undefined) return
  const lower = name.toLowerCase()
  if (!left.output.some((c) => c.table?.toLowerCase() === lower)) return
  const pos = ref.kind === 'pivot' ? ref.pos : ref.aliasPos ?? ref.pos
  throw new SqlError(SqlState.DUPLICATE_ALIAS, `Duplicate table or alias: ${name}`, pos)
}

function andOf(a: BoundExpr, b: BoundExpr): BoundExpr {
  const def = functionsNamed('and').find((d) => d.kind === 'scalar')
  if (def === undefined || def.kind !== 'scalar') throw internalError('operator and is missing')
  return { kind: 'call', type: 'BOOLEAN', def, site: { argTypes: ['BOOLEAN', 'BOOLEAN'], constants: [undefined, undefined], returns: 'BOOLEAN', argPositions: [-1, -1], pos: -1 }, args: [a, b] }
}

/** `a = b` where one side names only left columns and the other only right columns. */
/** `a = b` with one side over `left` and the other over `right`: both bound (left first), and the right one as written. */
function equiPair(a: Expr, b: Expr, left: PlanNode, right: PlanNode, bc: BindContext): [BoundExpr, BoundExpr, Expr] | undefined {
  rejectAmbiguousRefs([...collectColumnRefs(a), ...collectColumnRefs(b)], new Scope(left.output), new Scope(right.output))
  const tryBind = (e: Expr, n: PlanNode) => { try { return bindExpr(e, env(new Scope(n.output), bc)) } catch { return undefined } }
  const la = tryBind(a, left)
  const rb = tryBind(b, right)
  if (la !== undefined && rb !== undefined && usesColumns(a) && usesColumns(b)) return [la, rb, b]
  const lb = tryBind(b, left)
  const ra = tryBind(a, right)
  if (lb !== undefined && ra !== undefined && usesColumns(a) && usesColumns(b)) return [lb, ra, a]
  return undefined
}

function usesColumns(e: Expr): boolean {
  return collectColumnRefs(e).length > 0
}

// ---------------------------------------------------------------------------------------------

function bindSelect(s: Select, bc: BindContext): PlanNode {
  // `sum(sum(41) OVER ())`: the windows first, in a subquery (window-in-aggregate.ts)
  const moved = windowsOutOfAggregates(s, bc.naming)
  if (moved !== s) return bindSelect(moved, bc)
  // `(SELECT * FROM t) JOIN t ON ...`: the subquery is QuestDB's `_xQdbA0` (subquery-aliases.ts)
  const named = withSubqueryAliases(s)
  if (named !== s) return bindSelect(named, bc)
  let source: PlanNode = s.from === undefined
    ? { kind: 'values', rows: [[]], output: [], timestampIndex: -1 }
    : bindTableRef(s.from, bc)
  // WINDOW JOIN: WHERE filters the left side first, aggregates become columns of the joins (bind-window-join.ts)
  let windowJoins: WindowJoinBinding | undefined
  if (s.joins.some((j) => j.type === 'window')) {
    if (s.groupBy !== undefined || s.sampleBy !== undefined || s.latestOn !== undefined) throw notSupported('WINDOW JOIN with GROUP BY, SAMPLE BY or LATEST ON is not supported; aggregate in an outer query', s.pos)
    if (s.where !== undefined) source = { kind: 'filter', input: source, predicate: castTo(bindExpr(s.where, env(new Scope(source.output), bc, { clause: 'WHERE' })), 'BOOLEAN', s.where.pos, false, bc.onInfer), output: source.output, timestampIndex: source.timestampIndex }
    // a right table may repeat neither the left's name or alias nor an earlier WINDOW JOIN's
    const named: PlanNode[] = [source]
    windowJoins = bindWindowJoins(source, s.joins, (j) => {
      for (const n of named) rejectDuplicateAlias(n, j.table)
      const right = bindTableRef(j.table, bc)
      named.push(right)
      return right
    }, (sc, clause) => env(sc, bc, { clause }))
  } else if (s.joins.some((j) => j.type === 'horizon')) {
    // HORIZON JOIN: WHERE filters the left side first (bind-horizon-join.ts)
    const from = source
    source = bindHorizonJoin(source, s.joins, s.where, (j) => { rejectDuplicateAlias(from, j.table); return bindTableRef(j.table, bc) }, (sc, clause) => env(sc, bc, { clause }))
  } else {
    // QuestDB's check of the literal terms of WHERE and the INNER ONs (join-constant-terms.ts)
    checkJoinConstantTerms(s)
    source = bindJoins(source, s.joins, bc, { join: bindJoin, table: bindTableRef })
  }
  const horizon = s.joins.some((j) => j.type === 'horizon')
  const scope = new Scope(source.output)
  if (s.where !== undefined && windowJoins === undefined && !horizon) {
    const specs: CorrelatedSpec[] = []
    const width = source.output.length
    const onCorrelated = (spec: CorrelatedSpec): BoundExpr => ({ kind: 'column', type: spec.type, index: width + specs.push(spec) - 1 })
    const pred = castTo(bindExpr(s.where, env(scope, bc, { clause: 'WHERE', onCorrelated })), 'BOOLEAN', s.where.pos, false, bc.onInfer)
    source = specs.length === 0
      ? { kind: 'filter', input: source, predicate: pred, output: source.output, timestampIndex: source.timestampIndex }
      : { kind: 'filter', input: applyCorrelated(source, specs), predicate: pred, output: source.output, timestampIndex: source.timestampIndex, projection: source.output.map((_, i) => i) }
  }
  if (s.latestOn !== undefined) source = bindLatestOn(source, s.latestOn, scope, bc)

  const expanded = new Set<SelectItem>()
  const items = expandStars(s.columns, scope, expanded)
  const isAgg = windowJoins === undefined && (s.groupBy !== undefined || s.sampleBy !== undefined || items.some((it) => containsAggregate(it.expr)))
  const names = outputNames(items, bc.naming, expanded)
  let projected: { node: PlanNode; exprEnv: ExprEnv; exprs: BoundExpr[]; orderBy?: (BoundExpr | undefined)[] }
  if (isAgg) projected = bindAggregation(s, items, source, scope, bc, names)
  else {
    const calls: WindowCall[] = []
    const width = source.output.length
    const onWindow = (call: Call): BoundExpr => {
      const w = bindWindowCall(call, scope, bc, s.windows ?? [])
      calls.push(w)
      return { kind: 'column', type: w.type, index: width + calls.length - 1 }
    }
    const specs: CorrelatedSpec[] = []
    const onCorrelated = (spec: CorrelatedSpec): BoundExpr => ({ kind: 'column', type: spec.type, index: width + specs.push(spec) - 1 })
    const e = env(scope, bc, { clause: 'SELECT', onWindow, onCorrelated, ...(windowJoins === undefined ? {} : { onAggregate: windowJoins.onAggregate, rewrite: windowJoins.rewrite }) })
    let exprs = items.map((it) => bindExpr(it.expr, e))
    if (windowJoins !== undefined) {
      if (calls.length > 0 || specs.length > 0) throw notSupported('window functions and correlated subqueries over a WINDOW JOIN are not supported; use an outer query', s.pos)
      const done = windowJoins.finish(exprs)
      exprs = done.exprs
      projected = { node: done.node, exprEnv: env(new Scope(done.node.output), bc, { clause: 'ORDER BY' }), exprs }
    } else {
    if (specs.length > 0 && calls.length > 0) throw notSupported('correlated subqueries and window functions in one select list are not supported; move one into a subquery', s.pos)
    const node = specs.length > 0 ? applyCorrelated(source, specs) : calls.length === 0 ? source : windowNode(source, calls)
    projected = { node, exprEnv: env(new Scope(node.output), bc, { clause: 'ORDER BY' }), exprs }
    }
  }
  const { exprEnv } = projected
  const exprs = [...projected.exprs]
  const output: OutputColumn[] = exprs.map((e, i) => column(names[i]!, e, projected.node))
  const inputTs = projected.node.timestampIndex
  const tsOut = inputTs < 0 ? -1 : exprs.findIndex((e) => e.kind === 'column' && e.index === inputTs)

  // ORDER BY may name output aliases, positions, or input columns (added as hidden columns).
  const sortKeys: SortKey[] = []
  for (const [k, o] of (s.orderBy ?? []).entries()) {
    const idx = outputIndexOf(o, names, s.distinct)
    if (idx >= 0) { sortKeys.push(sortKey(o, { kind: 'column', type: exprs[idx]!.type, index: idx })); continue }
    if (s.distinct) throw new SqlError(SqlState.SYNTAX_ERROR, 'ORDER BY column must appear in the select list of a DISTINCT query', o.expr.pos)
    const b = projected.orderBy?.[k] ?? bindExpr(o.expr, exprEnv)
    exprs.push(b)
    output.push(column(`\u0000hidden${exprs.length}`, b, projected.node))
    sortKeys.push(sortKey(o, { kind: 'column', type: b.type, index: exprs.length - 1 }))
  }
  let node: PlanNode = isIdentity(exprs, projected.node) && output.length === projected.node.output.length
    ? { ...projected.node, output: output.map((c, i) => ({ ...c, table: projected.node.output[i]!.table })) } as PlanNode
    : { kind: 'project', input: projected.node, exprs, output, timestampIndex: tsOut }
  if (s.distinct) node = { kind: 'distinct', input: node, output: node.output, timestampIndex: node.timestampIndex }
  if (sortKeys.length > 0) {
    const first = sortKeys[0]!
    const keepTs = first.expr.kind === 'column' && first.expr.index === node.timestampIndex && !first.desc
    node = { kind: 'sort', input: node, keys: sortKeys, output: node.output, timestampIndex: keepTs ? node.timestampIndex : -1 }
  }
  if (s.limit !== undefined) node = bindLimit(node, s.limit, bc)
  if (output.length > names.length) {
    const visible = names.map((_, i) => ({ kind: 'column' as const, type: exprs[i]!.type, index: i }))
    node = { kind: 'project', input: node, exprs: visible, output: output.slice(0, names.length), timestampIndex: node.timestampIndex < names.length ? node.timestampIndex : -1 }
  }
  return node
}

function isIdentity(exprs: readonly BoundExpr[], input: PlanNode): boolean {
  return exprs.length === input.output.length && exprs.every((e, i) => e.kind === 'column' && e.index === i)
}

function column(name: string, e: BoundExpr, input: PlanNode): OutputColumn {
  const dict = e.kind === 'column' ? input.output[e.index]?.dict : undefined
  return dict === undefined ? { name, type: e.type === 'NULL' ? 'STRING' : e.type } : { name, type: e.type, dict }
}

function sortKey(o: OrderItem, expr: BoundExpr): SortKey {
  return { expr, desc: o.desc, nullsFirst: o.nulls === undefined ? !o.desc : o.nulls === 'first' }
}

function outputIndexOf(o: OrderItem, names: readonly string[], _distinct: boolean): number {
  const e = o.expr
  if (e.kind === 'literal' && e.type === 'int') {
    const n = Number(e.text)
    if (n < 1 || n > names.length) throw new SqlError(SqlState.SYNTAX_ERROR, `ORDER BY position ${n} is not in select list`, e.pos)
    return n - 1
  }
  if (e.kind === 'column' && e.table === undefined) return names.findIndex((n) => n.toLowerCase() === e.name.toLowerCase())
  return -1
}

function bindOrderOnOutput(node: PlanNode, order: readonly OrderItem[], bc: BindContext): PlanNode {
  const names = node.output.map((c) => c.name)
  const scope = new Scope(node.output)
  const keys = order.map((o) => {
    const idx = outputIndexOf(o, names, false)
    return sortKey(o, idx >= 0 ? { kind: 'column', type: node.output[idx]!.type, index: idx } : bindExpr(o.expr, env(scope, bc)))
  })
  return { kind: 'sort', input: node, keys, output: node.output, timestampIndex: -1 }
}

function bindLimit(node: PlanNode, limit: NonNullable<Select['limit']>, bc: BindContext): PlanNode {
  const e = env(new Scope([]), bc, { clause: 'LIMIT' })
  const lo = castTo(bindExpr(limit.lo, e), 'LONG', limit.lo.pos, false, bc.onInfer)
  const hi = limit.hi === undefined ? undefined : castTo(bindExpr(limit.hi, e), 'LONG', limit.hi.pos, false, bc.onInfer)
  return { kind: 'limit', input: node, lo, hi, output: node.output, timestampIndex: node.timestampIndex }
}

function expandStars(items: readonly SelectItem[], scope: Scope, expanded: Set<SelectItem>): SelectItem[] {
  const out: SelectItem[] = []
  for (const it of items) {
    if (it.expr.kind !== 'star') { out.push(it); continue }
    const table = it.expr.table?.toLowerCase()
    // (names starting with NUL are the engine's hidden columns, as window-in-aggregate.ts's)
    const cols = scope.columns.filter((c) => (table === undefined || c.table?.toLowerCase() === table) && !c.name.startsWith('\u0000'))
    if (cols.length === 0 && table !== undefined) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${it.expr.table}]`, it.expr.pos)
    for (const c of cols) {
      const ref: Expr = c.table === undefined
        ? { kind: 'column', pos: it.expr.pos, name: c.name }
        : { kind: 'column', pos: it.expr.pos, table: c.table, name: c.name }
      const item = { expr: ref }
      expanded.add(item)
      out.push(item)
    }
  }
  return out
}

/**
 * The aggregate node and the post-aggregation environment. Keys are the GROUP BY expressions,
 * or (QuestDB's implicit GROUP BY) every select item without aggregates plus the columns used
 * outside aggregates in mixed items.
 */
function bindAggregation(s: Select, items: readonly SelectItem[], source: PlanNode, scope: Scope, bc: BindContext, names: readonly string[]) {
  const inputEnv = env(scope, bc, { clause: 'GROUP BY' })
  const keyAsts: Expr[] = []
  const addKey = (e: Expr) => { if (!keyAsts.some((k) => astKey(k) === astKey(e))) keyAsts.push(e) }
  for (const g of s.groupBy ?? []) addKey(resolveGroupByAlias(g, items))
  // QuestDB's implicit GROUP BY; with an explicit one, every other column must be among its keys
  if (s.groupBy === undefined) {
    for (const it of items) {
      if (!containsAggregate(it.expr)) addKey(it.expr)
      else for (const ref of collectColumnRefs(it.expr, true)) addKey(ref)
    }
  }
  const keys = keyAsts.map((k) => bindExpr(k, inputEnv))
  const keyIndexByColumn = new Map<number, number>()
  keys.forEach((k, i) => { if (k.kind === 'column' && !keyIndexByColumn.has(k.index)) keyIndexByColumn.set(k.index, i) })
  const aggregates: BoundAggregate[] = []
  const aggKeys: string[] = []
  const aggOutputs: OutputColumn[] = []
  const onAggregate = (call: Call, def: AggregateFunctionDef): BoundExpr => {
    const k = astKey(call)
    let i = aggKeys.indexOf(k)
    if (i < 0) {
      // an aggregate inside an aggregate's arguments: QuestDB's message
      // (QuestDB checks the inner call's argument count first: COVAR_POP(COVAR_POP(1)))
      const argEnv = env(scope, bc, {
        clause: 'an aggregate',
        onAggregate: (inner, innerDef) => {
          const arity = arityError(inner.name, [innerDef], inner.star ? 0 : inner.args.length)
          if (arity !== undefined) throw new SqlError(SqlState.UNDEFINED_FUNCTION, arity, inner.pos)
          throw new SqlError(SqlState.GROUPING_ERROR, 'Aggregate function cannot be passed as an argument', inner.pos)
        },
      })
      const bound = call.star ? [] : call.args.map((a) => bindExpr(a, argEnv))
      checkOrderedAggregate(def.name, bound, source, call.pos)
      const { site, args } = aggregateSite(def, call, bound)
      aggregates.push({ def, site, args })
      aggKeys.push(k)
      aggOutputs.push({ name: call.name, type: site.returns })
      i = aggKeys.length - 1
    }
    return { kind: 'column', type: aggOutputs[i]!.type, index: keys.length + i }
  }
  const keyOutputs: OutputColumn[] = keys.map((k, i) => column(`k${i}`, k, source))
  const rewrite = (e: Expr): BoundExpr | undefined => {
    const ki = keyAsts.findIndex((k) => astKey(k) === astKey(e))
    if (ki >= 0) return { kind: 'column', type: keys[ki]!.type, index: ki }
    if (e.kind === 'column') {
      const c = scope.resolve(e)
      const i = keyIndexByColumn.get(c.index)
      if (i !== undefined) return { kind: 'column', type: keys[i]!.type, index: i }
      throw new SqlError(SqlState.GROUPING_ERROR, `column "${e.name}" must appear in the GROUP BY clause or be used in an aggregate function`, e.pos)
    }
    return undefined
  }
  const postEnv = env(new Scope([]), bc, { rewrite, onAggregate, clause: 'SELECT' })
  const exprs = items.map((it) => bindExpr(it.expr, postEnv))
  // ORDER BY terms that are not output columns may add aggregates (ORDER BY count(a)): bind them
  // before the node is built so its output includes them
  const orderBy = (s.orderBy ?? []).map((o) => (outputIndexOf(o, names, s.distinct) >= 0 ? undefined : bindExpr(o.expr, postEnv)))
  const node: PlanNode = s.sampleBy !== undefined
    ? bindSampleBy({ select: s, source, scope, keys, aggregates, bc })
    : { kind: 'aggregate', input: source, keys, aggregates, output: [...keyOutputs, ...aggOutputs], timestampIndex: -1 }
  return { node, exprEnv: postEnv, exprs, orderBy }
}

/** `GROUP BY alias` or `GROUP BY 1` refers to a select item. */
function resolveGroupByAlias(g: Expr, items: readonly SelectItem[]): Expr {
  if (g.kind === 'literal' && g.type === 'int') {
    const it = items[Number(g.text) - 1]
    if (it === undefined) throw new SqlError(SqlState.SYNTAX_ERROR, `GROUP BY position ${g.text} is not in select list`, g.pos)
    return it.expr
  }
  if (g.kind === 'column' && g.table === undefined) {
    const it = items.find((i) => i.alias !== undefined && i.alias.toLowerCase() === g.name.toLowerCase())
    if (it !== undefined) return it.expr
  }
  return g
}
