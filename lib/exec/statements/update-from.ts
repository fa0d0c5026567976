/**
 * UPDATE t SET ... FROM t2 [JOIN ...] WHERE ... (QuestDB's UPDATE with a join): binds
 * `SELECT row_id, values... FROM t, t2 ... WHERE ...` with `t` standing for a scan of the target's
 * rows plus their positions (a hidden column), runs it, and writes the values at those positions.
 * When several source rows match a target row, the last wins. On a durable table every row is
 * checkpointed first; the scan then reads the partitions as a query does (only the columns the
 * statement reads, only the partitions and rows its designated-timestamp bounds meet), and only
 * the updated columns of the partitions with updated rows are written (`TableStore.updateColumns`).
 * In memory, only the updated columns of the segments with updated rows are copied
 * (`Table.updateInMemory`).
 */
import { parquetRowGuard } from './parquet-update-guard.js'
import { SqlError, SqlState } from '../../errors.js'
import type { Expr, Select, Update } from '../../sql/ast.js'
import { type Batch, type Vector, getScalar, materialize } from '../../types/vector.js'
import type { Table, TableData } from '../../storage/table.js'
import { type PartReader, type SnapshotPart, coldSnapshotPart, memorySnapshotPart } from '../../storage/table-parts.js'
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
  if (store?.flush !== undefined && store.updateColumns !== undefined) store.flush(table)
  if (store?.updateColumns !== undefined && table.inMemory().every((d) => d.rowCount === 0)) {
    // durable, every row checkpointed: the partitions with matched rows get the updated columns written
    const cold = table.coldParts()
    const { touched, copies } = await matchedCopies(s, table, targets, cold.map((p) => ({ rows: p.rows, part: (start) => coldSnapshotPart(p, start), copy: () => partColumnCopies(table, p, targets) })), bc, ctx)
    if (table.coldParts() !== cold || table.meta !== meta) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', s.pos)
    if (touched === 0) return 0
    await store.updateColumns(table, changesOf(new Map([...copies].map(([n, cs]) => [cold[n]!, cs])), targets))
    return touched
  }
  if (store === undefined) {
    // in memory: the segments with matched rows get copies of the updated columns (nothing else is copied)
    const segments = table.inMemory()
    const ti = meta.timestampIndex
    const { touched, copies } = await matchedCopies(s, table, targets, segments.map((d) => ({ rows: d.rowCount, part: (start) => memorySnapshotPart(d.columns, d.rowCount, start, ti), copy: () => segmentCopies(d, targets) })), bc, ctx)
    if (touched === 0) return 0
    const changes = new Map([...copies].map(([n, cs]) => [segments[n]!, new Map(targets.map((c, k) => [c, cs[k]!]))]))
    if (!table.updateInMemory(segments, changes)) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', s.pos)
    return touched
  }
  // a durable table whose rows could not all be checkpointed: every row in memory, as one version, rewritten
  const snap = table.materialized()
  const { touched, copies } = await matchedCopies(s, table, targets, [{ rows: snap.rowCount, part: (start) => memorySnapshotPart(snap.columns, snap.rowCount, start, meta.timestampIndex), copy: () => segmentCopies(snap, targets) }], bc, ctx)
  if (table.materialized() !== snap) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', s.pos)
  if (touched === 0) return 0
  const buffers = [...snap.columns]
  targets.forEach((c, k) => { buffers[c] = copies.get(0)![k]! })
  table.replace(buffers, snap.rowCount)
  return touched
}

/** Copies of in-memory segment `d`'s columns `targets`. */
function segmentCopies(d: TableData, targets: readonly number[]): ColumnBuffer[] {
  return targets.map((c) => d.columns[c]!.clone())
}

/** A run of the target's rows UPDATE ... FROM reads and changes: a checkpointed partition or an in-memory segment. */
interface FromUnit {
  readonly rows: number
  /** its rows as a snapshot part whose first row is at `start` */
  part(start: number): SnapshotPart
  /** copies of its updated columns, to change rows in */
  copy(): ColumnBuffer[]
}

/**
 * Runs the statement's join over `units` (the target's rows, in order) and writes each matched
 * row's values into copies of the updated columns of its unit, made for the units with a matched
 * row only. Returns the target rows updated (a row matched twice counts once; the last match
 * wins) and the copies by unit index.
 */
async function matchedCopies(s: Update, table: Table, targets: readonly number[], units: readonly FromUnit[], bc: BindContext, ctx: ExecContext): Promise<{ touched: number; copies: Map<number, ColumnBuffer[]> }> {
  const starts = new Float64Array(units.length + 1)
  const parts: SnapshotPart[] = []
  for (let k = 0; k < units.length; k++) {
    parts.push(withRowIds(units[k]!.part(starts[k]!), table.meta.columns.length))
    starts[k + 1] = starts[k]! + units[k]!.rows
  }
  const data = await matchedRows(s, table, targets, parts, starts[units.length]!, bc, ctx)
  const ids = materialize(data.vectors[0]!)
  const guard = parquetRowGuard(table, s.pos)
  const copies = new Map<number, ColumnBuffer[]>()
  // per unit with a matched row: which of its rows were matched already
  const seen = new Map<number, Uint8Array>()
  let touched = 0
  let k = 0
  for (let r = 0; r < data.length; r++) {
    const row = Number(getScalar(ids, r))
    guard?.(row)
    // the unit holding the row: matches mostly come in order, so look in the last one first
    if (row < starts[k]! || row >= starts[k + 1]!) k = partitionOf(starts, row)
    let clones = copies.get(k)
    if (clones === undefined) {
      clones = units[k]!.copy()
      copies.set(k, clones)
      seen.set(k, new Uint8Array(units[k]!.rows))
    }
    const local = row - starts[k]!
    const marks = seen.get(k)!
    if (marks[local] === 0) { marks[local] = 1; touched++ }
    for (let c = 0; c < clones.length; c++) clones[c]!.setFrom(local, data.vectors[c + 1]!, r)
  }
  return { touched, copies }
}

/** The index k of the unit with starts[k] <= row < starts[k + 1] (binary search). */
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
