/**
 * Which columns of which tables a bound plan reads: the binder has resolved every name, so the
 * answer follows the column indexes down from the result to the scans (what permission checks
 * need: `select a from t` reads t.a, `select *` every column, `count(*)` none).
 *
 * A column counts as read when the result, a filter, a join or group key, an ordering, an
 * aggregate, a window or a subquery uses it; columns a projection computes but nothing above
 * uses do not count (as the optimizer's column pruning, but through every node kind). Set
 * operations and DISTINCT read every column of their inputs.
 */
import type { Table } from '../storage/table.js'
import type { BoundExpr, PlanNode } from './plan-node.js'
import { columnsOf } from './optimize/walk.js'

/** Table -> indexes of its columns read (an empty set: the table is read, no column of it). */
export type TablesRead = Map<Table, Set<number>>

/** The columns of every table `plan` reads, its whole result being used. */
export function tablesRead(plan: PlanNode, out: TablesRead = new Map()): TablesRead {
  need(plan, all(plan), out)
  return out
}

/** The columns of every table the subqueries of `e` read. */
export function tablesReadByExpr(e: BoundExpr, out: TablesRead): TablesRead {
  subplans(e, out)
  return out
}

function all(node: PlanNode): Set<number> {
  return new Set(node.output.map((_, i) => i))
}

/** Adds the input columns `exprs` read to `into`, and what their subqueries read to `out`. */
function uses(exprs: readonly (BoundExpr | undefined)[], into: Set<number>, out: TablesRead): void {
  for (const e of exprs) {
    if (e === undefined) continue
    columnsOf(e, into)
    subplans(e, out)
  }
}

/** What the subquery plans inside `e` read. */
function subplans(e: BoundExpr, out: TablesRead): void {
  switch (e.kind) {
    case 'subquery': case 'exists': tablesRead(e.plan, out); return
    case 'in_query': tablesRead(e.plan, out); subplans(e.expr, out); return
    case 'call': for (const a of e.args) subplans(a, out); return
    case 'cast': case 'isnull': case 'in': case 'in_intervals': subplans(e.expr, out); return
    case 'case': for (const w of e.whens) { subplans(w.when, out); subplans(w.then, out) } subplans(e.else, out); return
    case 'column': case 'const': case 'param': return
  }
}

/** Splits a set of joined-row columns (left columns, then right) into the two inputs' columns. */
function split(cols: ReadonlySet<number>, leftWidth: number): [Set<number>, Set<number>] {
  const l = new Set<number>()
  const r = new Set<number>()
  for (const c of cols) (c < leftWidth ? l : r).add(c < leftWidth ? c : c - leftWidth)
  return [l, r]
}

/** Records what `node` reads when its output columns `required` are used. */
function need(node: PlanNode, required: ReadonlySet<number>, out: TablesRead): void {
  switch (node.kind) {
    case 'scan': {
      if (node.inView === true) return
      let set = out.get(node.table)
      if (set === undefined) out.set(node.table, set = new Set())
      for (const r of required) set.add(node.columns[r]!)
      return
    }
    case 'table_function': return
    case 'values': for (const row of node.rows) uses(row, new Set(), out); return
    case 'filter': {
      const base = node.projection
      const cols = new Set<number>()
      for (const r of required) cols.add(base === undefined ? r : base[r]!)
      uses([node.predicate], cols, out)
      need(node.input, cols, out)
      return
    }
    case 'project': {
      const cols = new Set<number>()
      // every subquery runs; only the expressions used above read their columns
      for (const e of node.exprs) subplans(e, out)
      for (const r of required) columnsOf(node.exprs[r]!, cols)
      need(node.input, cols, out)
      return
    }
    case 'aggregate': case 'sample_by': {
      const cols = new Set<number>()
      uses(node.keys, cols, out)
      for (const a of node.aggregates) uses(a.args, cols, out)
      if (node.kind === 'sample_by') {
        cols.add(node.timestampColumn)
        uses([node.from, node.to], new Set(), out)
      }
      need(node.input, cols, out)
      return
    }
    case 'sort': {
      const cols = new Set(required)
      uses(node.keys.map((k) => k.expr), cols, out)
      need(node.input, cols, out)
      return
    }
    case 'limit': {
      uses([node.lo, node.hi], new Set(), out)
      need(node.input, required, out)
      return
    }
    case 'distinct': need(node.input, all(node.input), out); return
    case 'setop': need(node.left, all(node.left), out); need(node.right, all(node.right), out); return
    case 'join': case 'time_join': {
      const width = node.left.output.length
      const joined = new Set(required)
      if (node.kind === 'join') uses([node.residual], joined, out)
      const [l, r] = split(joined, width)
      uses(node.leftKeys, l, out)
      uses(node.rightKeys, r, out)
      if (node.kind === 'time_join') {
        // ASOF / LT / SPLICE match rows by the designated timestamps of both sides
        if (node.left.timestampIndex >= 0) l.add(node.left.timestampIndex)
        if (node.right.timestampIndex >= 0) r.add(node.right.timestampIndex)
      }
      need(node.left, l, out)
      need(node.right, r, out)
      return
    }
    case 'parallel_aggregate': case 'parallel_filter': need(node.logical, required, out); return
    case 'window_join': {
      // WINDOW JOIN: the left columns used above, keys, timestamps and the aggregates' arguments
      const width = node.left.output.length
      const l = new Set<number>()
      for (const c of required) if (c < width) l.add(c)
      const r = new Set<number>()
      uses(node.leftKeys, l, out)
      uses(node.rightKeys, r, out)
      for (const a of node.aggregates) uses(a.args, a.side === 'left' ? l : r, out)
      l.add(node.left.timestampIndex)
      r.add(node.right.timestampIndex)
      need(node.left, l, out)
      need(node.right, r, out)
      return
    }
    case 'horizon_join': {
      // HORIZON JOIN: left columns, then offset and horizon timestamp (computed), then right columns
      const width = node.left.output.length
      const l = new Set<number>()
      const r = new Set<number>()
      for (const c of required) if (c < width) l.add(c); else if (c >= width + 2) r.add(c - width - 2)
      uses(node.leftKeys, l, out)
      uses(node.rightKeys, r, out)
      l.add(node.left.timestampIndex)
      r.add(node.right.timestampIndex)
      need(node.left, l, out)
      need(node.right, r, out)
      return
    }
    case 'lateral_join': {
      // LATERAL joins and correlated subqueries (apply): the subquery side reads what it reads
      const width = node.left.output.length
      const [l] = split(new Set(required), width)
      uses([...node.outerRefs, ...(node.hash?.leftKeys ?? []), node.apply?.mode === 'in' ? node.apply.probe : undefined], l, out)
      const joined = new Set<number>()
      uses([node.residual], joined, out)
      for (const c of joined) if (c < width) l.add(c)
      need(node.left, l, out)
      need(node.right, all(node.right), out)
      return
    }
    case 'latest_on': {
      const cols = new Set(required)
      uses(node.partitionBy, cols, out)
      cols.add(node.timestampColumn)
      need(node.input, cols, out)
      return
    }
    case 'window': {
      const width = node.input.output.length
      const cols = new Set<number>()
      for (const r of required) if (r < width) cols.add(r)
      for (const c of node.calls) {
        uses([c.arg, c.default, ...c.partitionBy, ...c.orderBy.map((k) => k.expr)], cols, out)
      }
      need(node.input, cols, out)
      return
    }
  }
}
