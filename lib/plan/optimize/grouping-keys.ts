/**
 * Which output columns of a grouping node (GROUP BY, SAMPLE BY, DISTINCT) a WHERE conjunct above
 * it may name and still move below it, and what each stands for over the node's input.
 *
 * A group's rows all hold its key values, so a deterministic conjunct that reads only keys holds
 * for every row of a group or for none: keeping the rows where it holds before grouping leaves
 * exactly the groups it keeps after, with the same rows, so the same aggregates. Conjuncts that
 * read an aggregate stay above (`sum(v) > 10` is a property of the group, not of a row).
 */
import type { BoundExpr, PlanNode } from '../plan-node.js'
import { columnsOf } from './walk.js'

/**
 * For each output column of `node`, the expression over `node`'s input it equals on every input
 * row of its group, when a conjunct naming it may move below `node`; undefined entries may not be
 * named. Undefined altogether when `node` is no grouping node or nothing may pass it:
 *
 * - GROUP BY: its keys (a GROUP BY without keys has none: its one row over no input exists
 *   whatever a conjunct says, so nothing passes);
 * - SAMPLE BY without FILL and aligned to the calendar: its keys other than the bucket and other
 *   than keys reading the designated timestamp. With FILL the filled rows follow from the keys and
 *   buckets seen across the whole input (a pushed `k = 'a'` would change the bucket range and the
 *   keys filled), and ALIGN TO FIRST OBSERVATION starts the buckets at the first row read, so
 *   there nothing passes; nor under TIME ZONE with a sub-day unit and no FROM, whose buckets are
 *   spaced on the zone's standard offset around the first row read (`makeSampler`): in a zone whose
 *   standard offset changed over the years, dropping earlier rows moves the grid;
 * - DISTINCT: every column (rows equal in every column give the conjunct the same value).
 */
export function groupingKeys(node: PlanNode): readonly (BoundExpr | undefined)[] | undefined {
  switch (node.kind) {
    case 'aggregate':
      return node.keys.length === 0 ? undefined : node.keys
    case 'sample_by': {
      if (node.fill !== undefined || node.align.kind !== 'calendar') return undefined
      if (node.align.timeZone !== undefined && node.from === undefined && !SUPER_DAY.has(node.unit)) return undefined
      const keys = node.keys.map((k, i) => (i === node.bucketKey || reads(k, node.timestampColumn) ? undefined : k))
      return keys.some((k) => k !== undefined) ? keys : undefined
    }
    case 'distinct':
      return node.input.output.map((c, i): BoundExpr => ({ kind: 'column', type: c.type, index: i, ...(c.dict === undefined ? {} : { dict: c.dict }) }))
    default:
      return undefined
  }
}

/** Units whose buckets follow the local calendar under TIME ZONE (sample-by-buckets.ts `isSuperDay`). */
const SUPER_DAY: ReadonlySet<string> = new Set(['d', 'w', 'M', 'y'])

function reads(e: BoundExpr, column: number): boolean {
  const cols = new Set<number>()
  columnsOf(e, cols)
  return cols.has(column)
}

/** Comparisons that give -0.0 and 0.0 the same answer (they are equal). */
const SIGN_BLIND = new Set(['=', '<>', '!=', '<', '<=', '>', '>=', 'between'])

/**
 * True when conjunct `c` (over a grouping node's output) reads its DOUBLE / FLOAT keys only as
 * direct operands of comparisons, `IS [NOT] NULL` or `IN`. Grouping puts -0.0 and 0.0 in one
 * group (they are equal) showing the first one read, so a conjunct telling them apart
 * (`v::string = '-0.0'`, `1 / v < 0`) could hold for some of a group's rows and not for the value
 * shown; such a conjunct stays above.
 */
export function signBlind(c: BoundExpr, keys: readonly (BoundExpr | undefined)[]): boolean {
  const isFloatKey = (e: BoundExpr) => e.kind === 'column' && (keys[e.index]?.type === 'DOUBLE' || keys[e.index]?.type === 'FLOAT')
  const ok = (e: BoundExpr): boolean => {
    switch (e.kind) {
      case 'column': return !isFloatKey(e)
      case 'call': return e.args.every((a) => (SIGN_BLIND.has(e.def.name) && isFloatKey(a)) || ok(a))
      case 'isnull': case 'in': return isFloatKey(e.expr) || ok(e.expr)
      case 'cast': case 'in_intervals': case 'in_query': return ok(e.expr)
      case 'case': return e.whens.every((w) => ok(w.when) && ok(w.then)) && ok(e.else)
      case 'const': case 'param': case 'subquery': case 'exists': return true
    }
  }
  return ok(c)
}

