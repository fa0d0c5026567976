/**
 * What UPDATE and UPDATE ... FROM share about the table they change: the columns the SET clause
 * assigns, the designated-timestamp intervals its WHERE confines it to, and the copies of a checkpointed partition's columns they change and hand to the store
 * (`TableStore.updateColumns`), which writes those columns' files alone.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { Update } from '../../sql/ast.js'
import type { Table } from '../../storage/table.js'
import type { ColdPart } from '../../storage/table-parts.js'
import { ColumnBuffer } from '../../storage/column-buffer.js'
import type { BoundExpr, FilterNode, OutputColumn, ScanNode } from '../../plan/plan-node.js'
import { extractTimestampIntervals } from '../../plan/optimize/extract-timestamp-intervals.js'
import { resolveRuntimeIntervals } from '../../plan/physical/runtime-intervals.js'
import type { ExecContext } from '../context.js'
import { evalConstant } from '../evaluate.js'

/** The table column indexes an UPDATE's SET clause assigns, in order (not the designated timestamp, each once). */
export function setColumns(s: Update, meta: Table['meta']): number[] {
  const seen = new Set<number>()
  return s.set.map((a) => {
    const i = meta.columns.findIndex((c) => c.name.toLowerCase() === a.column.toLowerCase())
    if (i < 0) throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${a.column}`, a.pos)
    if (i === meta.timestampIndex) throw new SqlError(SqlState.SYNTAX_ERROR, 'Designated timestamp column cannot be updated', a.pos)
    if (seen.has(i)) throw new SqlError(SqlState.DUPLICATE_COLUMN, `Duplicate column ${a.column} in SET clause`, a.pos)
    seen.add(i)
    return i
  })
}

/** Copies of cold partition `p`'s columns `targets` (table column indexes), to change rows in. */
export function partColumnCopies(table: Table, p: ColdPart, targets: readonly number[]): ColumnBuffer[] {
  return targets.map((c) => {
    const out = new ColumnBuffer(table.meta.columns[c]!.type, p.rows, table.dictOf(c))
    out.append(p.column(c))
    return out
  })
}

/** The store's change list of partitions whose `targets` columns were copied and changed ({@link partColumnCopies}). */
export function changesOf(copies: ReadonlyMap<ColdPart, readonly ColumnBuffer[]>, targets: readonly number[]): Map<ColdPart, Map<number, ReturnType<ColumnBuffer['view']>>> {
  const out = new Map<ColdPart, Map<number, ReturnType<ColumnBuffer['view']>>>()
  for (const [p, cs] of copies) out.set(p, new Map(targets.map((c, k) => [c, cs[k]!.view(0, p.rows)])))
  return out
}

/**
 * The designated-timestamp intervals (inclusive µs pairs) outside which `where` holds for no row,
 * as the query planner finds them for a scan under the same filter (`extract-timestamp-intervals`,
 * then this execution's runtime bounds: `ts IN today()`, `ts > $1`); undefined when it does not
 * narrow the table (no filter, no designated timestamp, no such conjunct).
 */
export function whereIntervals(table: Table, output: readonly OutputColumn[], where: BoundExpr | undefined, ctx: ExecContext): Float64Array | undefined {
  const ts = table.meta.timestampIndex
  if (where === undefined || ts < 0) return undefined
  const scan: ScanNode = { kind: 'scan', table, columns: output.map((_, i) => i), output, timestampIndex: ts }
  const filter: FilterNode = { kind: 'filter', input: scan, predicate: where, output, timestampIndex: ts }
  const plan = resolveRuntimeIntervals(extractTimestampIntervals(filter), { evaluate: (e) => evalConstant(e, ctx), params: ctx.params, now: ctx.now, nowSub: ctx.nowSub })
  const narrowed = plan.kind === 'scan' ? plan : plan.kind === 'filter' && plan.input.kind === 'scan' ? plan.input : undefined
  // a bound left unresolved (a bad parameter text) prunes nothing: the filter reports it
  return narrowed?.intervals
}
