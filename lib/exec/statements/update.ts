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
import type { Table } from '../../storage/table.js'
import { type ColdPart, partMeets } from '../../storage/table-parts.js'
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
import { changesOf, partColumnCopies, setColumns, whereIntervals } from './update-target.js'
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
  if (store?.flush !== undefined && store.updateColumns !== undefined) {
    store.flush(table)
    if (table.inMemory().every((d) => d.rowCount === 0)) {
      const needed = new Set<number>()
      for (const x of sets) columnsOf(x.expr, needed)
      if (where !== undefined) columnsOf(where, needed)
      return updatePartitions(table, sets.map((x) => x.index), needed, pred, evals, whereIntervals(table, output, where, ctx), s.pos, ctx)
    }
  }
  // UPDATE rewrites whole columns: every row in memory, as one version
  const snap = table.materialized()
  const buffers = [...snap.columns]
  const clones = sets.map((x) => buffers[x.index]!.clone())
  const guard = parquetRowGuard(table, s.pos)
  let updated = 0
  for (let start = 0; start < snap.rowCount; start += UPDATE_BATCH) {
    const end = Math.min(start + UPDATE_BATCH, snap.rowCount)
    const b: Batch = { length: end - start, vectors: snap.columns.map((c) => c.view(start, end)) }
    const mask = pred?.(b)
    const values = evals.map((e) => materialize(e(b)))
    for (let i = 0; i < b.length; i++) {
      if (mask !== undefined && !(mask.kind === 'bool' && mask.data[mask.isConst ? 0 : i] === 1)) continue
      guard?.(start + i)
      updated++
      for (let k = 0; k < clones.length; k++) clones[k]!.setFrom(start + i, values[k]!, i)
    }
    await ctx.maybeYield()
  }
  if (table.materialized() !== snap) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', s.pos)
  // no row changed: the table is left as it is (a rewrite would cost a full checkpoint and turn Parquet partitions native)
  if (updated === 0) return 0
  sets.forEach((x, k) => { buffers[x.index] = clones[k]! })
  table.replace(buffers, snap.rowCount)
  return updated
}


/** Column `c`'s rows [start, end) (part-local) as one part of an UPDATE reads them. */
type PartColumns = (c: number, start: number, end: number) => Vector

/**
 * The row ranges [from, to) of cold partition `p` that an UPDATE filtered to timestamp
 * `intervals` (µs; undefined: every row) checks, and a reader of its `needed` columns over them
 * (the others read as nulls): when the ranges are a small share of a partition on disk, only
 * their rows are read (durable/range-read.ts), as a scan reads them.
 */
function partRows(table: Table, p: ColdPart, needed: ReadonlySet<number>, intervals: Float64Array | undefined): { ranges: number[]; read: PartColumns } {
  const meta = table.meta
  const nulls = (c: number, start: number, end: number): Vector => constVector(meta.columns[c]!.type, null, end - start)
  // whole columns, each loaded on first read (none when no row is in range)
  const whole = (): PartColumns => {
    const held: (Vector | undefined)[] = []
    return (c, start, end) => (needed.has(c) ? sliceVector(held[c] ??= p.column(c), start, end) : nulls(c, start, end))
  }
  if (intervals === undefined) return { ranges: [0, p.rows], read: whole() }
  const ti = meta.timestampIndex
  const rowIntervals = meta.columns[ti]!.type === 'TIMESTAMP_NS' ? nsScanBounds(intervals) : intervals
  const cols = [...needed].sort((a, b) => a - b)
  const direct = p.readRanges?.(cols, rowIntervals)
  if (direct !== undefined) {
    const at = new Map(cols.map((c, k) => [c, k]))
    return { ranges: direct.ranges, read: (c, start, end) => { const k = at.get(c); return k === undefined ? nulls(c, start, end) : direct.reader.view(k, start, end) } }
  }
  return { ranges: rowRanges(p.column(ti), rowIntervals), read: whole() }
}

/**
 * UPDATE of a durable table whose rows are all checkpointed: each partition in turn (its
 * `needed` columns read, a batch per turn of the event loop) is checked against the filter, and
 * only in the partitions with updated rows are the `targets` columns copied and changed; the
 * store then writes those columns' files alone (`TableStore.updateColumns`). With `intervals`
 * (the filter's designated-timestamp ranges, {@link whereIntervals}) only the partitions meeting
 * them are read, and in those only the rows in them are checked. Returns the rows updated.
 */
async function updatePartitions(table: Table, targets: readonly number[], needed: ReadonlySet<number>, pred: ((b: Batch) => Vector) | undefined,
  evals: readonly ((b: Batch) => Vector)[], intervals: Float64Array | undefined, pos: number, ctx: ExecContext): Promise<number> {
  const meta = table.meta
  const parts = table.coldParts()
  const guard = parquetRowGuard(table, pos)
  const copies = new Map<ColdPart, ColumnBuffer[]>()
  const width = meta.columns.length
  let updated = 0
  let base = 0
  for (const p of parts) {
    if (p.rows === 0 || (intervals !== undefined && !partMeets(p, intervals))) { base += p.rows; continue }
    const { ranges, read } = partRows(table, p, needed, intervals)
    let clones: ColumnBuffer[] | undefined
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
          clones ??= partColumnCopies(table, p, targets)
          for (let k = 0; k < clones.length; k++) clones[k]!.setFrom(start + i, values[k]!, i)
        }
        await ctx.maybeYield()
      }
    }
    if (clones !== undefined) copies.set(p, clones)
    base += p.rows
  }
  if (table.coldParts() !== parts || table.meta !== meta) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', pos)
  if (updated === 0) return 0
  await table.store!.updateColumns!(table, changesOf(copies, targets))
  return updated
}
