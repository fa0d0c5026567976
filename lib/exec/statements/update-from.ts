/**
 * UPDATE t SET ... FROM t2 [JOIN ...] WHERE ... (QuestDB's UPDATE with a join): binds
 * `SELECT row_id, values... FROM t, t2 ... WHERE ...` with `t` standing for a scan of the target's
 * rows plus their positions (a hidden column), runs it, and writes the values at those positions.
 * When several source rows match a target row, the last wins. On a durable table every row is
 * checkpointed first; the scan then reads the partitions as a query does (only the columns the
 * statement reads, only the partitions and rows its designated-timestamp bounds meet), and only
 * the updated columns of the partitions with updated rows are written (`TableStore.updateColumns`).
 */
import { parquetRowGuard } from './parquet-update-guard.js'
import { SqlError, SqlState } from '../../errors.js'
import type { Expr, Select, Update } from '../../sql/ast.js'
import { type Batch, type Vector, getScalar, materialize } from '../../types/vector.js'
import type { Table } from '../../storage/table.js'
import { type ColdPart, type PartReader, type SnapshotPart, coldSnapshotPart, memorySnapshotPart } from '../../storage/table-parts.js'
import type { ColumnBuffer } from '../../storage/column-buffer.js'
import type { BoundExpr, OutputColumn, ScanNode } from '../../plan/plan-node.js'
import { Scope } from '../../plan/scope.js'
import { bindExpr, castTo } from '../../plan/bind-expr.js'
import { ALL_TIME, intersectIntervals } from '../../types/interval.js'
import type { BindContext } from '../../plan/bind-query.js'
import { bindQuery } from '../../plan/bind-query.js'
import type { ExecContext } from '../context.js'
import { optimize } from '../../plan/optimize/index.js'
import { physical } from './physical.js'
import { collectAll } from './dml.js'
import { changesOf, partColumnCopies, setColumns, whereIntervals } from './update-target.js'

/** The hidden column that carries each target row's position through an UPDATE ... FROM join. */
const ROW_ID = '__epochdb_row_id'

/** Positions `first + s` .. `first + e - 1` as a LONG vector. */
function positions(first: number, s: number, e: number): Vector {
  const d = new Float64Array(e - s)
  for (let i = 0; i < d.length; i++) d[i] = first + s + i
  return { kind: 'i64', type: 'LONG', length: d.length, data: d }
}

/** A reader of `columns` where column `idCol` is the rows' positions and the others come from `open`. */
function withIds(columns: readonly number[], idCol: number, first: number, open: (own: number[]) => PartReader): PartReader {
  const own = columns.filter((c) => c !== idCol)
  const reader = open(own)
  const at = columns.map((c) => (c === idCol ? -1 : own.indexOf(c)))
  return { view: (k, s, e) => (at[k]! < 0 ? positions(first, s, e) : reader.view(at[k]!, s, e)) }
}

/** `part` with one more column, `idCol`: each row's position in the snapshot. */
function withRowIds(part: SnapshotPart, idCol: number): SnapshotPart {
  const ranges = part.openRanges
  return {
    start: part.start, rows: part.rows, minTs: part.minTs, maxTs: part.maxTs,
    open: (columns) => withIds(columns, idCol, part.start, (own) => part.open(own)),
    ...(ranges === undefined ? {} : {
      openRanges: (columns: readonly number[], intervals: Float64Array) => {
        const found = ranges(columns.filter((c) => c !== idCol), intervals)
        return found === undefined ? undefined : { ranges: found.ranges, reader: withIds(columns, idCol, part.start, () => found.reader) }
      },
    }),
    ...(part.postings === undefined ? {} : { postings: (c: number) => part.postings!(c) }),
  }
}

/** A scan of `parts` (rows plus their positions, `rowCount` in all), standing in for the target table while binding. */
function rowIdScan(table: Table, parts: readonly SnapshotPart[], rowCount: number, alias: string, intervals: Float64Array | undefined): ScanNode {
  const meta = table.meta
  const fake = { meta, rowCount, dictOf: (c: number) => table.dictOf(c), snapshot: () => ({ meta, rowCount, parts }) } as unknown as Table
  const output: OutputColumn[] = [...targetOutput(table, alias), { name: ROW_ID, type: 'LONG', table: alias }]
  const scan: ScanNode = { kind: 'scan', table: fake, columns: output.map((_, i) => i), output, timestampIndex: meta.timestampIndex }
  return intervals === undefined ? scan : { ...scan, intervals }
}

/** The table's columns as the statement names them (under its alias), without the hidden one. */
function targetOutput(table: Table, alias: string): OutputColumn[] {
  return table.meta.columns.map((c, i) => {
    const dict = table.dictOf(i)
    return dict === undefined ? { name: c.name, type: c.type, table: alias } : { name: c.name, type: c.type, table: alias, dict }
  })
}

/** The top-level AND operands of `e`. */
function conjuncts(e: Expr): Expr[] {
  return e.kind === 'binary' && e.op === 'and' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e]
}

/**
 * The designated-timestamp intervals of the target that the WHERE's top-level conjuncts reading
 * the target alone confine the statement to ({@link whereIntervals}; those that bind against the
 * target's columns only), or undefined. The scan of the target then reads only the partitions and
 * rows in them, as a query's scan under such a filter does; the WHERE is still applied whole.
 */
function targetIntervals(s: Update, table: Table, alias: string, bc: BindContext, ctx: ExecContext): Float64Array | undefined {
  if (s.where === undefined || table.meta.timestampIndex < 0) return undefined
  const output = targetOutput(table, alias)
  // no parameter-type inference: the statement's own binding infers
  const env = { scope: new Scope(output), paramTypes: bc.paramTypes, bindSubquery: (q: Parameters<typeof bindQuery>[0]) => bindQuery(q, bc), clause: 'WHERE' }
  let set: Float64Array | undefined
  for (const c of conjuncts(s.where)) {
    let bound: BoundExpr
    try {
      bound = castTo(bindExpr(c, env), 'BOOLEAN', s.where.pos, false)
    } catch {
      continue // it reads a joined table (or is wrong, which the statement's own binding reports)
    }
    const iv = whereIntervals(table, output, bound, ctx)
    if (iv !== undefined) set = intersectIntervals(set ?? ALL_TIME, iv)
  }
  return set
}

/** Runs the statement's join over `parts` (the target's rows): each matched row's position, then its new values. */
async function matchedRows(s: Update, table: Table, targets: readonly number[], parts: readonly SnapshotPart[], rowCount: number, bc: BindContext, ctx: ExecContext): Promise<Batch> {
  const meta = table.meta
  const alias = s.alias ?? meta.name
  const ctes = new Map(bc.ctes)
  ctes.set(alias.toLowerCase(), rowIdScan(table, parts, rowCount, alias, targetIntervals(s, table, alias, bc, ctx)))
  const select: Select = {
    kind: 'select', pos: s.pos, distinct: false,
    columns: [
      { expr: { kind: 'column', pos: s.pos, table: alias, name: ROW_ID } },
      ...s.set.map((a, k) => ({ expr: { kind: 'cast' as const, pos: a.value.pos, expr: a.value, type: meta.columns[targets[k]!]!.type, typePos: a.value.pos, shorthand: false } })),
    ],
    from: { kind: 'table', pos: s.tablePos, name: alias },
    joins: [...(s.from === undefined ? [] : [{ pos: s.from.pos, type: 'cross' as const, table: s.from }]), ...s.joins],
    ...(s.where === undefined ? {} : { where: s.where }),
  }
  const plan = optimize(bindQuery(select, { ...bc, ctes }))
  return collectAll(physical(plan, ctx), ctx)
}

/** UPDATE ... FROM; returns the number of target rows updated. */
export async function updateFrom(s: Update, table: Table, bc: BindContext, ctx: ExecContext): Promise<number> {
  const meta = table.meta
  const targets = setColumns(s, meta)
  const store = table.store
  if (store?.flush !== undefined && store.updateColumns !== undefined) {
    store.flush(table)
    if (table.inMemory().every((d) => d.rowCount === 0)) return updateFromPartitions(s, table, targets, bc, ctx)
  }
  // in memory: the updated columns rewritten copy-on-write, every row as one version
  const snap = table.materialized()
  const part = withRowIds(memorySnapshotPart(snap.columns, snap.rowCount, 0, meta.timestampIndex), meta.columns.length)
  const data = await matchedRows(s, table, targets, [part], snap.rowCount, bc, ctx)
  const buffers = [...snap.columns]
  const clones = targets.map((i) => buffers[i]!.clone())
  const ids = materialize(data.vectors[0]!)
  const touched = new Set<number>()
  const guard = parquetRowGuard(table, s.pos)
  for (let r = 0; r < data.length; r++) {
    const row = Number(getScalar(ids, r))
    guard?.(row)
    touched.add(row)
    for (let k = 0; k < clones.length; k++) clones[k]!.setFrom(row, data.vectors[k + 1]!, r)
  }
  if (table.materialized() !== snap) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', s.pos)
  if (touched.size === 0) return 0
  targets.forEach((i, k) => { buffers[i] = clones[k]! })
  table.replace(buffers, snap.rowCount)
  return touched.size
}

/**
 * UPDATE ... FROM of a durable table whose rows are all checkpointed: the join reads the cold
 * partitions as a query does, and each matched row's values go into copies of the updated columns
 * of its partition, made for the partitions with a matched row only; the store then writes those.
 */
async function updateFromPartitions(s: Update, table: Table, targets: readonly number[], bc: BindContext, ctx: ExecContext): Promise<number> {
  const meta = table.meta
  const cold = table.coldParts()
  const starts = new Float64Array(cold.length + 1)
  const parts: SnapshotPart[] = []
  for (let k = 0; k < cold.length; k++) {
    parts.push(withRowIds(coldSnapshotPart(cold[k]!, starts[k]!), meta.columns.length))
    starts[k + 1] = starts[k]! + cold[k]!.rows
  }
  const data = await matchedRows(s, table, targets, parts, starts[cold.length]!, bc, ctx)
  if (table.coldParts() !== cold || table.meta !== meta) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', s.pos)
  const ids = materialize(data.vectors[0]!)
  const guard = parquetRowGuard(table, s.pos)
  const copies = new Map<ColdPart, ColumnBuffer[]>()
  // per changed partition: which of its rows were matched already (a row matched twice counts once; the last match wins)
  const seen = new Map<ColdPart, Uint8Array>()
  let touched = 0
  let k = 0
  for (let r = 0; r < data.length; r++) {
    const row = Number(getScalar(ids, r))
    guard?.(row)
    // the partition holding the row: matches mostly come in order, so look from the last one first
    if (row < starts[k]! || row >= starts[k + 1]!) k = partitionOf(starts, row)
    const p = cold[k]!
    let clones = copies.get(p)
    if (clones === undefined) {
      clones = partColumnCopies(table, p, targets)
      copies.set(p, clones)
      seen.set(p, new Uint8Array(p.rows))
    }
    const local = row - starts[k]!
    const marks = seen.get(p)!
    if (marks[local] === 0) { marks[local] = 1; touched++ }
    for (let c = 0; c < clones.length; c++) clones[c]!.setFrom(local, data.vectors[c + 1]!, r)
  }
  if (touched === 0) return 0
  await table.store!.updateColumns!(table, changesOf(copies, targets))
  return touched
}

/** The index k of the partition with starts[k] <= row < starts[k + 1] (binary search). */
function partitionOf(starts: Float64Array, row: number): number {
  let lo = 0
  let hi = starts.length - 2
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (starts[mid]! <= row) lo = mid
    else hi = mid - 1
  }
  return lo
}
