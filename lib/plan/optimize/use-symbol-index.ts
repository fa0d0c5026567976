/**
 * Rule `use-symbol-index`: a filter directly over a table scan whose conjuncts include
 * `sym = 'x'` or `sym IN ('a', 'b', ...)` on an indexed SYMBOL column (`INDEX` in CREATE TABLE,
 * `ALTER TABLE t ALTER COLUMN sym ADD INDEX`) makes the scan read only the rows holding those
 * values, from the column's symbol index (storage/symbol-index.ts). The filter keeps every
 * conjunct, so the index narrows what is read and never decides an answer. Of several such
 * conjuncts the one with the fewest values is used.
 *
 * Also: `LATEST ON ts PARTITION BY sym` straight over a table scan (no filter, no time range),
 * with `sym` an indexed SYMBOL column, reads each symbol's latest row from the index
 * (`LatestByAllIndexed`, see exec/operators/latest-on-index.ts).
 */
import type { BoundExpr, LatestOnNode, PlanNode, ScanNode } from '../plan-node.js'
import { conjunctsOf, mapChildren } from './walk.js'
import { LiteralList } from '../literal-list.js'

/** An index scan is worth it up to this many values. */
export const MAX_INDEX_KEYS = 64

/** The values a conjunct restricts scan output column `col` to, with `col`, or undefined. */
function valuesOf(e: BoundExpr): { col: number; values: (string | null)[] } | undefined {
  if (e.kind === 'in' && !e.not && e.expr.kind === 'column' && e.expr.type === 'SYMBOL') {
    if (e.values instanceof LiteralList) return undefined // a list that long (bound in slices) is past MAX_INDEX_KEYS
    const values: (string | null)[] = []
    for (const v of e.values) {
      if (v !== null && typeof v !== 'string') return undefined
      values.push(v)
    }
    return { col: e.expr.index, values }
  }
  if (e.kind === 'call' && e.def.name === '=' && e.args.length === 2) {
    const [a, b] = e.args as [BoundExpr, BoundExpr]
    const [c, k] = a.kind === 'column' ? [a, b] : [b, a]
    if (c.kind !== 'column' || c.type !== 'SYMBOL' || k.kind !== 'const') return undefined
    if (k.value !== null && typeof k.value !== 'string') return undefined
    return { col: c.index, values: [k.value] }
  }
  return undefined
}

/** Applies the rule everywhere in the plan. */
export function useSymbolIndex(node: PlanNode): PlanNode {
  const n = mapChildren(node, useSymbolIndex)
  if (n.kind === 'latest_on') return latestByIndex(n)
  if (n.kind !== 'filter' || n.input.kind !== 'scan') return n
  const scan: ScanNode = n.input
  let best: { column: number; values: (string | null)[] } | undefined
  for (const c of conjunctsOf(n.predicate)) {
    const v = valuesOf(c)
    if (v === undefined || v.values.length > MAX_INDEX_KEYS) continue
    const column = scan.columns[v.col]
    if (column === undefined || scan.table.meta.columns[column]?.indexed !== true) continue
    if (best === undefined || v.values.length < best.values.length) best = { column, values: v.values }
  }
  return best === undefined ? n : { ...n, input: { ...scan, symbolIndex: best } }
}

/** A LATEST ON over a bare scan, keyed by one indexed SYMBOL column, marked to read the index. */
function latestByIndex(n: LatestOnNode): PlanNode {
  const scan = n.input
  const key = n.partitionBy[0]
  if (!n.ordered || n.partitionBy.length !== 1 || key?.kind !== 'column' || key.type !== 'SYMBOL' || scan.kind !== 'scan' || scan.intervals !== undefined || scan.symbolIndex !== undefined) return n
  const column = scan.columns[key.index]
  if (column === undefined || scan.table.meta.columns[column]?.indexed !== true) return n
  return { ...n, symbolIndex: column }
}
