/**
 * AST builders for queries (SELECT blocks, set operations, WITH, FROM items, clauses).
 */
import { syntaxError } from '../../errors.js'
import type {
  Cte, Expr, FillValue, FrameBound, HorizonOffset, HorizonSpec, Join, JoinType, LatestOn, Limit, OrderItem, Query, SampleBy,
  SampleByAlign, Select, SelectItem, TableRef,
} from '../ast.js'
import type { Token } from '../lexer.js'
import type { Name } from './tokens.js'
import { Deferred, deferred } from './seq.js'

/** Queries written as `(query)` with nothing after the parenthesis, and query shorthands. */
const bareQueries = new WeakSet<Query>()

/** Marks `q` as a bare parenthesised query or a shorthand (`trades`). */
export function markBare(q: Query): Query {
  bareQueries.add(q)
  return q
}

/** A marked-bare copy of `q` for `(q)` (a deferred query, a DECLARE's, stays deferred: its copy is made when it is). */
export function bareCopy(q: Query): Query {
  return markBare(q instanceof Deferred ? deferred(() => ({ ...(q.compute() as Query) })) : { ...q })
}

/**
 * True when `q` could also be read as an expression (`(a)`, `((select 1))`); expression
 * subqueries reject these so that the grammar stays unambiguous.
 */
export function isBare(q: Query): boolean {
  return bareQueries.has(q)
}

/** Clauses of a SELECT block after FROM (the same fields as {@link Select}'s). */
export type SelectClauses = Pick<Select, 'from' | 'joins' | 'where' | 'latestOn' | 'sampleBy' | 'groupBy' | 'windows'>

/** A SELECT block (without ORDER BY / LIMIT, which {@link withTail} adds). */
export function select(tok: Token, distinct: Token | null, columns: readonly SelectItem[], clauses: SelectClauses | null): Select {
  return { kind: 'select', pos: tok.offset, distinct: distinct !== null, columns, ...(clauses ?? { joins: [] }) }
}

/**
 * The LATEST clause of a FROM: the legacy `LATEST BY` (after the table) or `LATEST ON` (after
 * WHERE). Both at once is QuestDB's error "mix of new and deprecated 'latest by' syntax".
 */
export function latest(legacy: LatestOn | null | undefined, current: LatestOn | null | undefined): LatestOn | null {
  if (legacy != null && current != null) throw syntaxError("mix of new and deprecated 'latest by' syntax", current.pos)
  return current ?? legacy ?? null
}

/** Drops the keys whose value is null (optional clauses). */
export function compact<T extends object>(o: { [K in keyof T]: T[K] | null }): T {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v
  return out as T
}

/** `SELECT * FROM <from> <clauses>`, for the shorthands `trades WHERE ...` and `(q) WHERE ...`. */
export function shorthand(from: TableRef, clauses: Omit<SelectClauses, 'from' | 'joins'>): Select {
  return { kind: 'select', pos: from.pos, distinct: false, columns: [{ expr: { kind: 'star', pos: from.pos } }], from, joins: [], ...clauses }
}

/** Adds ORDER BY / LIMIT to a query: to a SELECT or set operation itself when free, else wraps it. */
export function withTail(q: Query, orderBy: readonly OrderItem[] | null, limit: Limit | null): Query {
  if (orderBy === null && limit === null) return q
  const tail = { ...(orderBy === null ? {} : { orderBy }), ...(limit === null ? {} : { limit }) }
  if ((q.kind === 'select' || q.kind === 'setop') && q.orderBy === undefined && q.limit === undefined) return { ...q, ...tail }
  const from: TableRef = { kind: 'subquery', pos: q.pos, query: q }
  return { ...shorthand(from, {}), ...tail }
}

/** UNION / EXCEPT / INTERSECT [ALL]. */
export function setOp(left: Query, op: Token, all: Token | null, right: Query): Query {
  return { kind: 'setop', pos: op.offset, op: String(op.type).toLowerCase() as 'union' | 'except' | 'intersect', all: all !== null, left, right }
}

/** `WITH a AS (...), ... body`. */
export function withQuery(tok: Token, ctes: readonly Cte[], body: Query): Query {
  return { kind: 'with', pos: tok.offset, ctes, body }
}

/** A select list item: expression with optional alias. */
export function selectItem(expr: Expr, alias: Name | null): SelectItem {
  return alias === null ? { expr } : { expr, alias: alias.name, aliasPos: alias.pos }
}

/** Alias and `timestamp(col)` after a FROM item. */
export interface RefSuffix {
  readonly alias: Name | null
  readonly timestamp: Name | null
}

/** Adds alias and timestamp to a FROM item. */
export function tableRef<T extends TableRef>(ref: T, suffix: RefSuffix): T {
  return {
    ...ref,
    ...(suffix.alias === null ? {} : { alias: suffix.alias.name, aliasPos: suffix.alias.pos }),
    ...(suffix.timestamp === null ? {} : { timestamp: suffix.timestamp.name }),
  }
}

/** A JOIN; `ON col` / `ON (a, b)` become `using`. */
export function join(pos: number, type: JoinType, table: TableRef, on: Expr | readonly Name[] | null, tolerance: { value: string; pos: number } | null): Join {
  let cond: Pick<Join, 'on' | 'using'> = {}
  if (Array.isArray(on)) cond = { using: on.map((n: Name) => n.name) }
  else if (on !== null) {
    const e = on as Expr
    cond = e.kind === 'column' && e.table === undefined ? { using: [e.name] } : { on: e }
  }
  return { pos, type, table, ...cond, ...(tolerance === null ? {} : { tolerance }) }
}

/** Marks a join written as a comma in FROM (`FROM a, b`). */
export function comma(j: Join): Join {
  return { ...j, comma: true }
}

/** `WINDOW JOIN t [ON ...] RANGE BETWEEN lo AND hi [INCLUDE | EXCLUDE PREVAILING]`. */
export function windowJoin(kw: Token, table: TableRef, on: Expr | readonly Name[] | null, range: Token, lo: FrameBound & { pos: number }, hi: FrameBound & { pos: number }, prevailing: Token | null): Join {
  const p = prevailing === null ? {} : { prevailing: prevailing.type === 'INCLUDE' ? 'include' as const : 'exclude' as const }
  return { ...join(kw.offset, 'inner', table, on, null), type: 'window', window: { pos: range.offset, lo, hi, ...p } }
}

/** `HORIZON JOIN t [ON ...] RANGE FROM a TO b STEP c AS h` / `LIST (...) AS h`. */
export function horizonJoin(kw: Token, table: TableRef, on: Expr | readonly Name[] | null, spec: Omit<Extract<HorizonSpec, { kind: 'range' }>, 'alias'> | Omit<Extract<HorizonSpec, { kind: 'list' }>, 'alias'>, alias: Name): Join {
  return { ...join(kw.offset, 'inner', table, on, null), type: 'horizon', horizon: { ...spec, alias: alias.name, aliasPos: alias.pos } as HorizonSpec }
}

/** A HORIZON offset token (`1s`, `0`), or `-` and one (`-5s`). */
export function horizonOffset(minus: Token | null, t: Token): HorizonOffset {
  return { text: minus === null ? t.text : `-${t.text}`, pos: (minus ?? t).offset }
}

/** Marks a join LATERAL. */
export function lateral(j: Join): Join {
  return { ...j, lateral: true }
}

/** The join type from its leading keyword. */
export function joinType(tok: Token | null): JoinType {
  if (tok === null) return 'inner'
  return String(tok.type).toLowerCase() as JoinType
}

/** FILL(...) arguments: NONE / NULL / PREV / LINEAR as words, anything else a value. */
export function fillValue(e: Expr): FillValue {
  if (e.kind === 'column' && e.table === undefined) {
    const w = e.name.toLowerCase()
    if (w === 'none' || w === 'prev' || w === 'linear') return { kind: w, pos: e.pos }
  }
  if (e.kind === 'literal' && e.type === 'null') return { kind: 'null', pos: e.pos }
  return { kind: 'value', pos: e.pos, value: e }
}

/** SAMPLE BY clause. */
export function sampleBy(tok: Token, interval: Token, from: Expr | null, to: Expr | null, fill: readonly Expr[] | null, align: SampleByAlign | null): SampleBy {
  return {
    pos: tok.offset, interval: interval.text, intervalPos: interval.offset,
    ...(from === null ? {} : { from }), ...(to === null ? {} : { to }),
    fill: (fill ?? []).map(fillValue), align: align ?? { kind: 'calendar' },
  }
}

/** LIMIT lo[, hi]. */
export function limit(tok: Token, lo: Expr, hi: Expr | null): Limit {
  return { pos: tok.offset, lo, ...(hi === null ? {} : { hi }) }
}

/** The shorthand `trades [timestamp(ts)] [WHERE ...] ...`; a bare `trades` is marked bare. */
export function shorthandTable(n: Name, ts: Name | null, tail: Omit<SelectClauses, 'from' | 'joins'>): Select {
  const from = tableRef({ kind: 'table', pos: n.pos, name: n.name } as TableRef, { alias: null, timestamp: ts })
  const q = shorthand(from, tail)
  if (ts === null && Object.keys(tail).length === 0) markBare(q)
  return q
}
