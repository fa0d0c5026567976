/**
 * Rule `push-filters-into-joins`: a WHERE conjunct over a join that names columns of one side only
 * moves below the join, onto that side, where doing so cannot change the answer:
 *
 * - INNER (and CROSS) JOIN: either side (a row of the join passes the conjunct exactly when its
 *   side's row does);
 * - LEFT JOIN: the left (preserved) side only. A conjunct on the right side stays above: after the
 *   join it also sees the NULLs of unmatched rows (`WHERE p.name IS NULL` keeps exactly those);
 * - RIGHT JOIN: the mirror of LEFT, the right (preserved) side only;
 * - FULL JOIN: nothing. Both sides are preserved, so either side's conjunct also sees the other's
 *   NULL-extended rows;
 * - ASOF / LT JOIN: the left side only. Each left row finds its match on its own, so removing left
 *   rows first changes no other row's match; removing right rows first would change which right
 *   row is the closest (QuestDB and Spark keep right-side WHERE conjuncts above for that reason);
 * - SPLICE JOIN: nothing. Every row of either side is emitted with the prevailing row of the other,
 *   so removing left rows first would give right rows another prevailing left row.
 *
 * ON conjuncts of INNER, LEFT and RIGHT joins move the other way round: onto the side that is not
 * preserved (INNER: either side; LEFT: the right side, whose rows failing them match nothing; RIGHT:
 * the left side). An ON conjunct on a preserved side stays (the row is kept whether it holds or
 * not), so a FULL JOIN's ON conjuncts all stay.
 *
 * A conjunct moves only when it is deterministic (a pushed `rnd_*()` would run for other rows). An
 * uncorrelated subquery in it moves along: its value is computed once per execution either way, so
 * `t.ts > (SELECT max(ts) - 3600000000 FROM t)` lands on t's scan like `t.ts > $1`. On its side the conjunct goes
 * through a filter (merged into it) or a projection (its column references replaced by the
 * projection's expressions, when those are deterministic), through a nested join by the same
 * rule, through an ORDER BY, into both inputs of a set operation, and below a GROUP BY, SAMPLE BY
 * (without FILL) or DISTINCT when it reads only their keys (grouping-keys.ts, as rule
 * `push-filters-into-subqueries` does for a WHERE over a subquery), but never into a LIMIT,
 * window or LATEST ON: those get the filter above them. A pushed conjunct that lands directly on a table scan is then seen by
 * `extract-timestamp-intervals` (which runs next), so a conjunct on the designated timestamp
 * becomes the scan's intervals, or its runtime bounds for `now()`, `$1`.
 */
import { internalError } from '../../errors.js'
import { functionsNamed } from '../../functions/registry.js'
import type { BoundExpr, FilterNode, PlanNode } from '../plan-node.js'
import { columnsOf, conjunctsOf, mapChildren, remapExpr } from './walk.js'
import { inlineExpr, movable } from './inline-expr.js'
import { groupingKeys, signBlind } from './grouping-keys.js'

/** Applies the rule everywhere in the plan. */
export function pushFiltersIntoJoins(node: PlanNode): PlanNode {
  const n = mapChildren(node, pushFiltersIntoJoins)
  if (n.kind === 'join') return pushResidual(n)
  if (n.kind !== 'filter' || n.projection !== undefined) return n
  const input = n.input
  if (input.kind !== 'join' && input.kind !== 'time_join') return n
  const toLeft = input.kind === 'join' ? input.type === 'inner' || input.type === 'left' || input.type === 'cross' : input.type === 'asof' || input.type === 'lt'
  const toRight = input.kind === 'join' && (input.type === 'inner' || input.type === 'right' || input.type === 'cross')
  if (!toLeft && !toRight) return n
  const nLeft = input.left.output.length
  const left: BoundExpr[] = []
  const right: BoundExpr[] = []
  const stay: BoundExpr[] = []
  for (const c of conjunctsOf(n.predicate)) {
    const side = sideOf(c, nLeft)
    if (side === 'left' && toLeft) left.push(c)
    else if (side === 'right' && toRight) right.push(c)
    else stay.push(c)
  }
  if (left.length === 0 && right.length === 0) return n
  const joined: PlanNode = {
    ...input,
    left: left.length === 0 ? input.left : sinkFilter(input.left, left),
    right: right.length === 0 ? input.right : sinkFilter(input.right, right.map((c) => remapExpr(c, shiftBy(input.output.length, nLeft)))),
  }
  return stay.length === 0 ? joined : { ...n, input: joined, predicate: andAll(stay) }
}

/**
 * The ON conjuncts of a hash join that name one side only, moved onto that side: either side of an
 * INNER JOIN; the right side of a LEFT JOIN (a right row that fails it can match no left row, so
 * the left rows that lose every match still get their NULLs), the left side of a RIGHT JOIN. A
 * conjunct on a preserved side stays (a left-side one of a LEFT JOIN, a right-side one of a RIGHT
 * JOIN, any of a FULL JOIN): the row is kept whether it holds or not.
 */
function pushResidual(n: Extract<PlanNode, { kind: 'join' }>): PlanNode {
  if (n.residual === undefined || (n.type !== 'inner' && n.type !== 'left' && n.type !== 'right' && n.type !== 'cross')) return n
  const toLeft = n.type !== 'left'
  const toRight = n.type !== 'right'
  const nLeft = n.left.output.length
  const left: BoundExpr[] = []
  const right: BoundExpr[] = []
  const stay: BoundExpr[] = []
  for (const c of conjunctsOf(n.residual)) {
    const side = sideOf(c, nLeft)
    if (side === 'left' && toLeft) left.push(c)
    else if (side === 'right' && toRight) right.push(c)
    else stay.push(c)
  }
  if (left.length === 0 && right.length === 0) return n
  return {
    ...n,
    left: left.length === 0 ? n.left : sinkFilter(n.left, left),
    right: right.length === 0 ? n.right : sinkFilter(n.right, right.map((c) => remapExpr(c, shiftBy(n.output.length, nLeft)))),
    residual: stay.length === 0 ? undefined : andAll(stay),
  }
}

/** Which side of a join with `nLeft` left columns conjunct `c` may move to: one it names alone, or none. */
function sideOf(c: BoundExpr, nLeft: number): 'left' | 'right' | undefined {
  const cols = new Set<number>()
  columnsOf(c, cols)
  if (cols.size === 0 || !movable(c)) return undefined
  let min = Infinity
  let max = -Infinity
  for (const i of cols) { if (i < min) min = i; if (i > max) max = i }
  return max < nLeft ? 'left' : min >= nLeft ? 'right' : undefined
}

/** A column map taking the joined row's index i to i - nLeft (the right input's index). */
function shiftBy(width: number, nLeft: number): Int32Array {
  const shift = new Int32Array(width)
  for (let i = 0; i < width; i++) shift[i] = i - nLeft
  return shift
}

/**
 * `side` keeping only the rows where every conjunct holds, with the conjuncts pushed as far down as
 * they go: merged into a filter, through a projection (inlined), below a grouping node when they
 * read only its keys ({@link groupingKeys}), into both inputs of a set operation, into a nested
 * join by this rule.
 */
export function sinkFilter(side: PlanNode, conjuncts: readonly BoundExpr[]): PlanNode {
  const keys = groupingKeys(side)
  if (keys !== undefined && (side.kind === 'aggregate' || side.kind === 'sample_by' || side.kind === 'distinct')) {
    const below: BoundExpr[] = []
    const above: BoundExpr[] = []
    for (const c of conjuncts) {
      const cols = new Set<number>()
      columnsOf(c, cols)
      const inlined = cols.size > 0 && movable(c) && signBlind(c, keys) ? inlineExpr(c, keys) : undefined
      if (inlined === undefined) above.push(c)
      else below.push(inlined)
    }
    const grouped: PlanNode = below.length === 0 ? side : { ...side, input: sinkFilter(side.input, below) }
    return above.length === 0 ? grouped : filterNode(grouped, above)
  }
  // ORDER BY keeps every row: filtering first gives the same rows in the same order
  if (side.kind === 'sort') return { ...side, input: sinkFilter(side.input, conjuncts) }
  if (side.kind === 'setop') return sinkIntoSetOp(side, conjuncts)
  if (side.kind === 'filter' && side.projection === undefined) {
    return sinkFilter(side.input, [...conjunctsOf(side.predicate), ...conjuncts])
  }
  if (side.kind === 'project') {
    const below: BoundExpr[] = []
    const above: BoundExpr[] = []
    for (const c of conjuncts) {
      const inlined = movable(c) ? inlineExpr(c, side.exprs) : undefined
      if (inlined === undefined) above.push(c)
      else below.push(inlined)
    }
    const project: PlanNode = below.length === 0 ? side : { ...side, input: sinkFilter(side.input, below) }
    return above.length === 0 ? project : filterNode(project, above)
  }
  // a nested join takes the filter by this rule again
  if (side.kind === 'join' || side.kind === 'time_join') return pushFiltersIntoJoins(filterNode(side, conjuncts))
  return filterNode(side, conjuncts)
}

/**
 * A UNION / EXCEPT / INTERSECT keeping only the rows where every conjunct holds: a deterministic
 * conjunct is a function of the row, so it goes into both inputs (their columns have the output's
 * types: the binder casts them). Rows are matched by equality in all but UNION ALL, which puts
 * -0.0 and 0.0 together, so there a conjunct that could tell them apart stays above
 * ({@link signBlind}).
 */
function sinkIntoSetOp(side: Extract<PlanNode, { kind: 'setop' }>, conjuncts: readonly BoundExpr[]): PlanNode {
  const columns = (n: PlanNode) => n.output.map((c, i): BoundExpr => ({ kind: 'column', type: c.type, index: i, ...(c.dict === undefined ? {} : { dict: c.dict }) }))
  const own = columns(side)
  const below: BoundExpr[] = []
  const above: BoundExpr[] = []
  for (const c of conjuncts) {
    if (movable(c) && ((side.op === 'union' && side.all) || signBlind(c, own))) below.push(c)
    else above.push(c)
  }
  if (below.length === 0) return filterNode(side, conjuncts)
  const into = (n: PlanNode) => { const cols = columns(n); return sinkFilter(n, below.map((c) => inlineExpr(c, cols)!)) }
  const setop: PlanNode = { ...side, left: into(side.left), right: into(side.right) }
  return above.length === 0 ? setop : filterNode(setop, above)
}

function filterNode(input: PlanNode, conjuncts: readonly BoundExpr[]): FilterNode {
  return { kind: 'filter', input, predicate: andAll(conjuncts), output: input.output, timestampIndex: input.timestampIndex }
}

/** The conjuncts joined by AND (left-deep, as the binder builds them). */
function andAll(parts: readonly BoundExpr[]): BoundExpr {
  if (parts.length === 0) throw internalError('no conjunct to join')
  let acc = parts[0]!
  for (let i = 1; i < parts.length; i++) acc = andOf(acc, parts[i]!)
  return acc
}

function andOf(a: BoundExpr, b: BoundExpr): BoundExpr {
  const def = functionsNamed('and').find((d) => d.kind === 'scalar')
  if (def === undefined || def.kind !== 'scalar') throw internalError('operator and is missing')
  return { kind: 'call', type: 'BOOLEAN', def, site: { argTypes: ['BOOLEAN', 'BOOLEAN'], constants: [undefined, undefined], returns: 'BOOLEAN', argPositions: [-1, -1], pos: -1 }, args: [a, b] }
}
