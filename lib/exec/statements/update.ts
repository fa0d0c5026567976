/**
 * UPDATE: without FROM, a durable table's checkpointed partitions are checked in turn and only the
 * changed columns of the changed partitions are written (`TableStore.updateColumns`); in memory,
 * the updated columns are rewritten copy-on-write. UPDATE ... FROM: update-from.ts. Nothing changes
 * until every new value is computed, so an UPDATE that fails leaves the table as it was.
 */
import { parquetRowGuard } from './parquet-update-guard.js'
import { SqlError, SqlState } from '../../errors.js'
import type { Update } from '../../sql/ast.js'
import { type Batch, type Vector, constVector, materialize, sliceVector } from '../../types/vector.js'
import type { Table, TableData } from '../../storage/table.js'
import { type PartReader, memorySnapshotPart, partMeets } from '../../storage/table-parts.js'
import { ColumnBuffer } from '../../storage/column-buffer.js'
import { columnsOf } from '../../plan/optimize/walk.js'
import { nsScanBounds } from '../../types/timestamp-ns.js'
import { rowRanges } from '../operators/basic.js'
import { Scope } from '../../plan/scope.js'
import { bindExpr, castTo } from '../../plan/bind-expr.js'
import type { BindContext } from '../../plan/bind-query.js'
import { bindQuery } from '../../plan/bind-query.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import { prepareSubqueries } from '../subqueries.js'
import { changesOf, setColumns, whereIntervals } from './update-target.js'
import { updateFrom } from './update-from.js'
import { inferOf } from './dml.js'

/** Rows an UPDATE checks and computes per batch (one batch per turn of the event loop). */
const UPDATE_BATCH = 65536

/** UPDATE; returns the number of rows updated. Rewrites the updated columns copy-on-write. */
export async function update(s: Update, table: Table, bc: BindContext, ctx: ExecContext): Promise<number> {
  if (s.from !== undefined || s.joins.length > 0) return updateFrom(s, table, bc, ctx)
  const meta = table.meta
  const output = meta.columns.map((c, i) => {
    const dict = table.dictOf(i)
    const base = { name: c.name, type: c.type, table: s.alias ?? meta.name }
    return dict === undefined ? base : { ...base, dict }
  })
  const env = { scope: new Scope(output), paramTypes: bc.paramTypes, bindSubquery: (q: Parameters<typeof bindQuery>[0]) => bindQuery(q, bc), clause: 'UPDATE', ...inferOf(bc) }
  const sets = setColumns(s, meta).map((i, k) => {
    const a = s.set[k]!
    return { index: i, expr: castTo(bindExpr(a.value, env), meta.columns[i]!.type, a.value.pos, true, bc.onInfer) }
  })
  const where = s.where === undefined ? undefined : castTo(bindExpr(s.where, env), 'BOOLEAN', s.where.pos, false)
  for (const x of sets) await prepareSubqueries(x.expr, ctx)
  if (where !== undefined) await prepareSubqueries(where, ctx)
  const pred = where === undefined ? undefined : compileExpr(where, ctx)
  const evals = sets.map((x) => compileExpr(x.expr, ctx))
  // durable: every row checkpointed first, then only the partitions (and columns) with updated rows are written
  const store = table.store
  if (store?.flush !== undefined && store.updateColumns !== undefined) store.flush(table)
  const needed = new Set<number>()
  for (const x of sets) columnsOf(x.expr, needed)
  if (where !== undefined) columnsOf(where, needed)
  const intervals = whereIntervals(table, output, where, ctx)
  const targets = sets.map((x) => x.index)
  if (store?.updateColumns !== undefined && table.inMemory().every((d) => d.rowCount === 0)) return updatePartitions(table, targets, needed, pred, evals, intervals, s.pos, ctx)
  if (store === undefined) return updateSegments(table, targets, needed, pred, evals, intervals, s.pos, ctx)
  // a durable table whose rows could not all be checkpointed: every row in memory, as one version, rewritten
  const snap = table.materialized()
  const { updated, copies } = await updateUnits(table, [segmentUnit(snap, meta.timestampIndex)], targets, needed, pred, evals, intervals, parquetRowGuard(table, s.pos), ctx)
  if (table.materialized() !== snap) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', s.pos)
  // no row changed: the table is left as it is (a rewrite would cost a full checkpoint and turn Parquet partitions native)
  if (updated === 0) return 0
  const buffers = [...snap.columns]
  targets.forEach((c, k) => { buffers[c] = copies.get(0)![k]! })
  table.replace(buffers, snap.rowCount)
  return updated
}


/** Column `c`'s rows [start, end) (unit-local) as one unit of an UPDATE reads them. */
type UnitColumns = (c: number, start: number, end: number) => Vector

/**
 * What UPDATE checks in turn: a checkpointed partition, or a segment of the rows in memory
 * (`Table.inMemory`). Its updated columns are copied and changed, the others are left as they are.
 */
interface UpdateUnit {
  readonly rows: number
  /** first and last designated timestamps in µs (NaN: unknown) */
  readonly minTs: number
  readonly maxTs: number
  /** column `c` whole (loaded on first use) */
  column(c: number): Vector
  /** `ColdPart.readRanges`, for a partition on disk */
  readRanges?(columns: readonly number[], intervals: Float64Array): { ranges: number[]; reader: PartReader } | undefined
}

/** The in-memory segment `d` as an {@link UpdateUnit}. */
function segmentUnit(d: TableData, ti: number): UpdateUnit {
  const { minTs, maxTs } = memorySnapshotPart(d.columns, d.rowCount, 0, ti)
  return { rows: d.rowCount, minTs, maxTs, column: (c) => d.columns[c]!.view(0, d.rowCount) }
}

/**
 * The row ranges [from, to) of unit `u` that an UPDATE filtered to timestamp `intervals` (µs;
 * undefined: every row) checks, and a reader of its `needed` columns over them (the others read
 * as nulls): when the ranges are a small share of a partition on disk, only their rows are read
 * (durable/range-read.ts), as a scan reads them.
 */
function unitRows(table: Table, u: UpdateUnit, needed: ReadonlySet<number>, intervals: Float64Array | undefined): { ranges: number[]; read: UnitColumns } {
  const meta = table.meta
  const nulls = (c: number, start: number, end: number): Vector => constVector(meta.columns[c]!.type, null, end - start)
  // whole columns, each loaded on first read (none when no row is in range)
  const whole = (): UnitColumns => {
    const held: (Vector | undefined)[] = []
    return (c, start, end) => (needed.has(c) ? sliceVector(held[c] ??= u.column(c), start, end) : nulls(c, start, end))
  }
  if (intervals === undefined) return { ranges: [0, u.rows], read: whole() }
  const ti = meta.timestampIndex
  const rowIntervals = meta.columns[ti]!.type === 'TIMESTAMP_NS' ? nsScanBounds(intervals) : intervals
  const cols = [...needed].sort((a, b) => a - b)
  const direct = u.readRanges?.(cols, rowIntervals)
  if (direct !== undefined) {
    const at = new Map(cols.map((c, k) => [c, k]))
    return { ranges: direct.ranges, read: (c, start, end) => { const k = at.get(c); return k === undefined ? nulls(c, start, end) : direct.reader.view(k, start, end) } }
  }
  return { ranges: rowRanges(u.column(ti), rowIntervals), read: whole() }
}

/**
 * Copies of a unit's updated columns, made a slice at a time as the UPDATE goes (so no turn of
 * the event loop copies a whole column): rows before {@link copied} are in {@link out}, as they
 * were or as changed.
 */
class ColumnCopies {
  readonly out: ColumnBuffer[]
  private copied = 0

  constructor(table: Table, private readonly sources: readonly Vector[], targets: readonly number[], rows: number) {
    this.out = targets.map((c) => new ColumnBuffer(table.meta.columns[c]!.type, rows, table.dictOf(c)))
  }

  /** Copies the rows up to `row` (exclusive), a batch per turn. */
  async copyTo(row: number, ctx: ExecContext): Promise<void> {
    while (this.copied < row) {
      const to = Math.min(row, this.copied + UPDATE_BATCH)
      for (let k = 0; k < this.out.length; k++) this.out[k]!.appendRange(this.sources[k]!, this.copied, to)
      this.copied = to
      if (to < row) await ctx.maybeYield()
    }
  }
}

/**
 * Checks `units` in turn (their `needed` columns read, a batch per turn of the event loop)
 * against the filter; in the units with updated rows the `targets` columns are copied and
 * changed ({@link ColumnCopies}). With `intervals` (the filter's designated-timestamp ranges,
 * {@link whereIntervals}) only the units meeting them are read, and in those only the rows in
 * them are checked. `guard` sees each updated row's position. Returns the rows updated and the
 * copies by unit index.
 */
async function updateUnits(table: Table, units: readonly UpdateUnit[], targets: readonly number[], needed: ReadonlySet<number>, pred: ((b: Batch) => Vector) | undefined,
  evals: readonly ((b: Batch) => Vector)[], intervals: Float64Array | undefined, guard: ((row: number) => void) | undefined, ctx: ExecContext): Promise<{ updated: number; copies: Map<number, ColumnBuffer[]> }> {
  const width = table.meta.columns.length
  const copies = new Map<number, ColumnBuffer[]>()
  let updated = 0
  let base = 0
  for (let n = 0; n < units.length; n++) {
    const u = units[n]!
    if (u.rows === 0 || (intervals !== undefined && !partMeets(u, intervals))) { base += u.rows; continue }
    const { ranges, read } = unitRows(table, u, needed, intervals)
    let copy: ColumnCopies | undefined
    for (let r = 0; r < ranges.length; r += 2) {
      const to = ranges[r + 1]!
      for (let start = ranges[r]!; start < to; start += UPDATE_BATCH) {
        const end = Math.min(start + UPDATE_BATCH, to)
        const vectors: Vector[] = new Array(width)
        for (let c = 0; c < width; c++) vectors[c] = read(c, start, end)
        const b: Batch = { length: end - start, vectors }
        const mask = pred?.(b)
        const values = evals.map((e) => materialize(e(b)))
        for (let i = 0; i < b.length; i++) {
          if (mask !== undefined && !(mask.kind === 'bool' && mask.data[mask.isConst ? 0 : i] === 1)) continue
          guard?.(base + start + i)
          updated++
          if (copy === undefined) copy = new ColumnCopies(table, targets.map((c) => u.column(c)), targets, u.rows)
          // the rows up to this batch's end as they are, then this batch's changes over them
          await copy.copyTo(end, ctx)
          for (let k = 0; k < targets.length; k++) copy.out[k]!.setFrom(start + i, values[k]!, i)
        }
        await ctx.maybeYield()
      }
    }
    if (copy !== undefined) {
      await copy.copyTo(u.rows, ctx)
      copies.set(n, copy.out)
    }
    base += u.rows
  }
  return { updated, copies }
}

/**
 * UPDATE of a durable table whose rows are all checkpointed: the partitions are checked in turn
 * ({@link updateUnits}), and the store writes the updated columns of the partitions with updated
 * rows alone (`TableStore.updateColumns`). Returns the rows updated.
 */
async function updatePartitions(table: Table, targets: readonly number[], needed: ReadonlySet<number>, pred: ((b: Batch) => Vector) | undefined,
  evals: readonly ((b: Batch) => Vector)[], intervals: Float64Array | undefined, pos: number, ctx: ExecContext): Promise<number> {
  const meta = table.meta
  const parts = table.coldParts()
  const { updated, copies } = await updateUnits(table, parts, targets, needed, pred, evals, intervals, parquetRowGuard(table, pos), ctx)
  if (table.coldParts() !== parts || table.meta !== meta) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', pos)
  if (updated === 0) return 0
  await table.store!.updateColumns!(table, changesOf(new Map([...copies].map(([n, cs]) => [parts[n]!, cs])), targets))
  return updated
}

/**
 * UPDATE of an in-memory table: its segments (`Table.inMemory`, not joined) are checked in turn
 * ({@link updateUnits}), and the segments with updated rows get their updated columns replaced by
 * the changed copies (`Table.updateInMemory`); no other column and no other segment is copied, and
 * a statement already reading keeps the columns it holds. Returns the rows updated.
 */
async function updateSegments(table: Table, targets: readonly number[], needed: ReadonlySet<number>, pred: ((b: Batch) => Vector) | undefined,
  evals: readonly ((b: Batch) => Vector)[], intervals: Float64Array | undefined, pos: number, ctx: ExecContext): Promise<number> {
  const segments = table.inMemory()
  const units = segments.map((d) => segmentUnit(d, table.meta.timestampIndex))
  const { updated, copies } = await updateUnits(table, units, targets, needed, pred, evals, intervals, undefined, ctx)
  if (updated === 0) return 0
  const changes = new Map([...copies].map(([n, cs]) => [segments[n]!, new Map(targets.map((c, k) => [c, cs[k]!]))]))
  if (!table.updateInMemory(segments, changes)) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', pos)
  return updated
}
