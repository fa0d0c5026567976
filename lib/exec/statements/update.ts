/**
 * UPDATE: without FROM, a durable table's checkpointed partitions are checked in turn and only the
 * changed columns of the changed partitions are written (`TableStore.updateColumns`); in memory,
 * the updated columns are rewritten copy-on-write. UPDATE ... FROM runs the join as a SELECT of
 * the target rows' positions and the new values. Nothing changes until every new value is computed,
 * so an UPDATE that fails leaves the table as it was.
 */
import { parquetRowGuard } from './parquet-update-guard.js'
import { SqlError, SqlState } from '../../errors.js'
import type { Select, Update } from '../../sql/ast.js'
import { type Batch, type Vector, constVector, getScalar, materialize, sliceVector } from '../../types/vector.js'
import type { Table, TableData } from '../../storage/table.js'
import { type ColdPart, memorySnapshotPart } from '../../storage/table-parts.js'
import { ColumnBuffer } from '../../storage/column-buffer.js'
import { columnsOf } from '../../plan/optimize/walk.js'
import type { OutputColumn, ScanNode } from '../../plan/plan-node.js'
import { Scope } from '../../plan/scope.js'
import { bindExpr, castTo } from '../../plan/bind-expr.js'
import type { BindContext } from '../../plan/bind-query.js'
import { bindQuery } from '../../plan/bind-query.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import { prepareSubqueries } from '../subqueries.js'
import { optimize } from '../../plan/optimize/index.js'
import { physical } from './physical.js'
import { collectAll, inferOf } from './dml.js'

/** The table column indexes an UPDATE's SET clause assigns, in order (not the designated timestamp, each once). */
function setColumns(s: Update, meta: Table['meta']): number[] {
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
      return updatePartitions(table, sets.map((x) => x.index), needed, pred, evals, s.pos, ctx)
    }
  }
  // UPDATE rewrites whole columns: every row in memory, as one version
  const snap = table.materialized()
  const buffers = [...snap.columns]
  const clones = sets.map((x) => buffers[x.index]!.clone())
  const guard = parquetRowGuard(table, s.pos)
  let updated = 0
  const BATCH = 65536
  for (let start = 0; start < snap.rowCount; start += BATCH) {
    const end = Math.min(start + BATCH, snap.rowCount)
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


/**
 * UPDATE of a durable table whose rows are all checkpointed: each partition in turn (its
 * `needed` columns read, a batch per turn of the event loop) is checked against the filter, and
 * only in the partitions with updated rows are the `targets` columns copied and changed; the
 * store then writes those columns' files alone (`TableStore.updateColumns`). Returns the rows updated.
 */
async function updatePartitions(table: Table, targets: readonly number[], needed: ReadonlySet<number>, pred: ((b: Batch) => Vector) | undefined,
  evals: readonly ((b: Batch) => Vector)[], pos: number, ctx: ExecContext): Promise<number> {
  const meta = table.meta
  const parts = table.coldParts()
  const guard = parquetRowGuard(table, pos)
  const changes = new Map<ColdPart, Map<number, Vector>>()
  let updated = 0
  let base = 0
  const BATCH = 65536
  for (const p of parts) {
    // the columns no expression reads stand as nulls, unread
    const columns = meta.columns.map((c, i) => (needed.has(i) ? p.column(i) : constVector(c.type, null, p.rows)))
    let clones: ColumnBuffer[] | undefined
    for (let start = 0; start < p.rows; start += BATCH) {
      const end = Math.min(start + BATCH, p.rows)
      const b: Batch = { length: end - start, vectors: columns.map((v) => sliceVector(v, start, end)) }
      const mask = pred?.(b)
      const values = evals.map((e) => materialize(e(b)))
      for (let i = 0; i < b.length; i++) {
        if (mask !== undefined && !(mask.kind === 'bool' && mask.data[mask.isConst ? 0 : i] === 1)) continue
        guard?.(base + start + i)
        updated++
        clones ??= targets.map((c) => {
          const out = new ColumnBuffer(meta.columns[c]!.type, p.rows, table.dictOf(c))
          out.append(p.column(c))
          return out
        })
        for (let k = 0; k < clones.length; k++) clones[k]!.setFrom(start + i, values[k]!, i)
      }
      await ctx.maybeYield()
    }
    if (clones !== undefined) changes.set(p, new Map(targets.map((c, k) => [c, clones![k]!.view(0, p.rows)])))
    base += p.rows
  }
  if (table.coldParts() !== parts || table.meta !== meta) throw new SqlError(SqlState.OBJECT_IN_USE, 'table changed during UPDATE, retry', pos)
  if (updated === 0) return 0
  await table.store!.updateColumns!(table, changes)
  return updated
}

/** The hidden column that carries each target row's position through an UPDATE ... FROM join. */
const ROW_ID = '__epochdb_row_id'

/** A scan of `snap`'s rows plus their positions, standing in for the target table while binding. */
function rowIdScan(table: Table, snap: TableData, alias: string): ScanNode {
  const cols = snap.columns
  const rowIds = {
    view: (start: number, end: number): Vector => {
      const d = new Float64Array(end - start)
      for (let i = 0; i < d.length; i++) d[i] = start + i
      return { kind: 'i64', type: 'LONG', length: d.length, data: d }
    },
  }
  const fake = { meta: table.meta, snapshot: () => ({ meta: table.meta, rowCount: snap.rowCount, parts: [memorySnapshotPart([...cols, rowIds], snap.rowCount, 0, -1)] }) } as unknown as Table
  const output: OutputColumn[] = [
    ...table.meta.columns.map((c, i) => {
      const dict = table.dictOf(i)
      return dict === undefined ? { name: c.name, type: c.type, table: alias } : { name: c.name, type: c.type, table: alias, dict }
    }),
    { name: ROW_ID, type: 'LONG', table: alias },
  ]
  return { kind: 'scan', table: fake, columns: output.map((_, i) => i), output, timestampIndex: -1 }
}

/**
 * UPDATE t SET ... FROM t2 [JOIN ...] WHERE ...: binds `SELECT row_id, values... FROM t, t2 ...
 * WHERE ...` with `t` standing for the target's snapshot, runs it, and writes the values into
 * copies of the updated columns. When several source rows match a target row, the last wins.
 */
async function updateFrom(s: Update, table: Table, bc: BindContext, ctx: ExecContext): Promise<number> {
  const meta = table.meta
  const snap = table.materialized()
  const alias = s.alias ?? meta.name
  const targets = setColumns(s, meta)
  const ctes = new Map(bc.ctes)
  ctes.set(alias.toLowerCase(), rowIdScan(table, snap, alias))
  const select: Select = {
    kind: 'select', pos: s.pos, distinct: false,
    columns: [
      { expr: { kind: 'column', pos: s.pos, table: alias, name: ROW_ID } },
      ...s.set.map((a) => ({ expr: { kind: 'cast' as const, pos: a.value.pos, expr: a.value, type: meta.columns[targets[s.set.indexOf(a)]!]!.type, typePos: a.value.pos, shorthand: false } })),
    ],
    from: { kind: 'table', pos: s.tablePos, name: alias },
    joins: [...(s.from === undefined ? [] : [{ pos: s.from.pos, type: 'cross' as const, table: s.from }]), ...s.joins],
    ...(s.where === undefined ? {} : { where: s.where }),
  }
  const plan = optimize(bindQuery(select, { ...bc, ctes }))
  const data = await collectAll(physical(plan, ctx), ctx)
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
