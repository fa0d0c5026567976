/**
 * DML: INSERT (VALUES and SELECT), UPDATE, and the data half of CREATE TABLE AS SELECT.
 * Every row of a statement is computed and converted before the table changes, so a statement
 * that fails leaves the table as it was.
 */
import { parquetRowGuard } from './parquet-update-guard.js'
import { isDecimal } from '../../types/decimal.js'
import { SqlError, SqlState } from '../../errors.js'
import type { Insert, Select, Update } from '../../sql/ast.js'
import type { ColumnType } from '../../types/column-type.js'
import { type Batch, type Scalar, type Vector, VectorWriter, allocate, concatVectors, constVector, getScalar, materialize, sliceVector } from '../../types/vector.js'
import { castVector } from '../../types/cast.js'
import type { Table, TableData } from '../../storage/table.js'
import { type ColdPart, memorySnapshotPart } from '../../storage/table-parts.js'
import { ColumnBuffer } from '../../storage/column-buffer.js'
import { columnsOf } from '../../plan/optimize/walk.js'
import type { OutputColumn, PlanNode, ScanNode } from '../../plan/plan-node.js'
import { Scope } from '../../plan/scope.js'
import { bindExpr, castTo } from '../../plan/bind-expr.js'
import type { BindContext } from '../../plan/bind-query.js'
import { bindQuery } from '../../plan/bind-query.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import { runPlan } from '../operators/runner.js'
import { prepareSubqueries } from '../subqueries.js'
import { batchBytes } from '../memory.js'
import { optimize } from '../../plan/optimize/index.js'
import { physical } from './physical.js'

/** The parameter-inference hook of a bind context, for hand-built expression environments. */
function inferOf(bc: BindContext): { onInfer?: NonNullable<BindContext['onInfer']> } {
  return bc.onInfer === undefined ? {} : { onInfer: bc.onInfer }
}

/** Resolves the INSERT column list to table column indexes. */
export function targetColumns(table: Table, s: Insert): number[] {
  if (s.columns === undefined) return table.meta.columns.map((_, i) => i)
  const seen = new Set<number>()
  return s.columns.map((c) => {
    const i = table.meta.columns.findIndex((m) => m.name.toLowerCase() === c.name.toLowerCase())
    if (i < 0) throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${c.name}`, c.pos)
    if (seen.has(i)) throw new SqlError(SqlState.DUPLICATE_COLUMN, `Duplicate column [name=${c.name}]`, c.pos)
    seen.add(i)
    return i
  })
}

/** Builds full-width table vectors from the given columns (others null) and checks the designated timestamp. */
function tableVectors(table: Table, targets: readonly number[], given: readonly Vector[], length: number, pos: number): Vector[] {
  const meta = table.meta
  // columns the INSERT leaves out are null; the others are filled below
  const out: Vector[] = new Array(meta.columns.length)
  if (targets.length < meta.columns.length) {
    for (let i = 0; i < out.length; i++) if (!targets.includes(i)) out[i] = allocate(meta.columns[i]!.type, length, table.dictOf(i))
  }
  targets.forEach((t, k) => {
    const col = meta.columns[t]!
    let v = given[k]!
    if (v.type !== col.type) {
      try { v = castVector(v, col.type) } catch (err) {
        if (err instanceof SqlError) throw new SqlError(err.code, err.message, pos)
        throw err
      }
    }
    out[t] = materialize(v)
  })
  const ts = meta.timestampIndex
  if (ts >= 0) {
    const v = out[ts]!
    for (let i = 0; i < length; i++) {
      const x = getScalar(v, i)
      if (x === null) throw new SqlError(SqlState.NOT_NULL_VIOLATION, 'designated timestamp column cannot be NULL', pos)
      // QuestDB: "you cannot set it to any value before the Unix epoch" (date-time.md)
      if ((x as number | bigint) < 0) throw new SqlError(SqlState.DATETIME_FIELD_OVERFLOW, 'designated timestamp before 1970-01-01 is not allowed', pos)
    }
  }
  return out
}

/** Numeric parameter types whose (number) values a column type takes as they are. */
const WIDENS: Partial<Record<ColumnType, readonly ColumnType[]>> = {
  DOUBLE: ['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT'],
  LONG: ['BYTE', 'SHORT', 'INT'],
}

/** Where an INSERT's rows go: the table now, or a transaction's pending writes. */
export type RowSink = (table: Table, vectors: Vector[], length: number) => void | Promise<void>

/** The table now; in memory, a large INSERT ... SELECT a slice per turn of the event loop. */
const appendNow: RowSink = (table, vectors, length) => table.appendInTurns(vectors, length)

/** VALUES rows converted between two calls of the statement's scheduler (a few hundred microseconds of work). */
const VALUES_ROWS_PER_CHECK = 256

/** The batch a VALUES expression is evaluated against: one row, no columns. */
const ONE_ROW: Batch = { length: 1, vectors: [] }

/** Distinct string literals remembered per column of one INSERT (the cache is then left as it is). */
const STRINGS_PER_COLUMN = 4096

function rememberString(cache: Map<string, Scalar>, text: string, value: Scalar): void {
  // objects (BINARY, arrays) are not shared between rows
  if (cache.size < STRINGS_PER_COLUMN && (value === null || typeof value !== 'object')) cache.set(text, value)
}

/** INSERT; returns the number of rows inserted. */
export async function insert(s: Insert, table: Table, bc: BindContext, ctx: ExecContext, sink: RowSink = appendNow): Promise<number> {
  const targets = targetColumns(table, s)
  const cols = table.meta.columns
  if (s.source.kind === 'values') {
    const rows = s.source.rows
    const writers = targets.map((t) => new VectorWriter(cols[t]!.type, rows.length, table.dictOf(t)))
    for (const row of rows) {
      if (row.length !== targets.length) throw new SqlError(SqlState.SYNTAX_ERROR, `row value count does not match column count [expected=${targets.length}, actual=${row.length}]`, row[0]?.pos ?? s.pos)
    }
    // each column's string literals converted so far (text -> value)
    const strings: Map<string, Scalar>[] = []
    // made on the first value that is not a plain parameter (most single-row INSERTs have none)
    let env: Parameters<typeof bindExpr>[1] | undefined
    for (let r = 0; r < rows.length; r++) {
      // a bulk INSERT of many thousand rows converts its values in slices (nothing is written
      // until every row converted, so a cancel or timeout here leaves the table as it was)
      if (r % VALUES_ROWS_PER_CHECK === 0) await ctx.maybeYield()
      const row = rows[r]!
      for (let k = 0; k < targets.length; k++) {
        const type = cols[targets[k]!]!.type
        const e = row[k]!
        // a parameter already of the column's type (or a number widening losslessly into it) is its
        // value: no bind, compile or evaluation
        if (e.kind === 'param' && bc.params !== undefined && e.index >= 1 && e.index <= bc.params.length) {
          const value = bc.params[e.index - 1]!
          const from = bc.paramTypes[e.index - 1]
          if (from === type || (typeof value === 'number' && from !== undefined && WIDENS[type]?.includes(from) === true)) {
            writers[k]!.set(r, value)
            continue
          }
        }
        if (e.kind === 'literal') {
          // the commonest cells of a bulk INSERT, converted as below without binding: a plain
          // DOUBLE literal into a DOUBLE column is its number; a string literal converts once per
          // distinct text and column (tags and timestamps repeat from row to row)
          if (e.type === 'double' && type === 'DOUBLE' && e.text.indexOf('_') < 0) { writers[k]!.set(r, Number(e.text)); continue }
          if (e.type === 'string') {
            const cache = strings[k] ??= new Map()
            const seen = cache.get(e.value)
            if (seen !== undefined || cache.has(e.value)) { writers[k]!.set(r, seen!); continue }
          }
        }
        env ??= { scope: new Scope([]), paramTypes: bc.paramTypes, bindSubquery: (q: Parameters<typeof bindQuery>[0]) => bindQuery(q, bc), clause: 'VALUES', ...inferOf(bc) }
        // a literal goes into a DECIMAL column only by the implicit rules: `99.99` (a DOUBLE) is refused, as QuestDB does
        const bound = castTo(bindExpr(e, env), type, e.pos, !(e.kind === 'literal' && isDecimal(type)), bc.onInfer)
        // a literal (already cast) is its value: no compile per cell
        if (bound.kind === 'const') {
          if (e.kind === 'literal' && e.type === 'string') rememberString(strings[k]!, e.value, bound.value)
          writers[k]!.set(r, bound.value)
          continue
        }
        const subqueries = prepareSubqueries(bound, ctx)
        if (subqueries !== undefined) await subqueries
        writers[k]!.set(r, getScalar(compileExpr(bound, ctx)(ONE_ROW), 0))
      }
    }
    const vectors = tableVectors(table, targets, writers.map((w) => w.finish()), rows.length, s.pos)
    await sink(table, vectors, rows.length)
    return rows.length
  }
  const plan = optimize(bindQuery(s.source.query, bc))
  if (plan.output.length !== targets.length) {
    throw new SqlError(SqlState.SYNTAX_ERROR, `select clause must provide values for all columns [expected=${targets.length}, actual=${plan.output.length}]`, s.pos)
  }
  const data = await collectAll(physical(plan, ctx), ctx)
  const given = plan.output.map((_, k) => castColumn(data.vectors[k]!, cols[targets[k]!]!.type, s.pos))
  await sink(table, tableVectors(table, targets, given, data.length, s.pos), data.length)
  return data.length
}

function castColumn(v: Vector, to: ColumnType, pos: number): Vector {
  if (v.type === to) return v
  try { return castVector(v, to) } catch (err) {
    if (err instanceof SqlError) throw new SqlError(err.code, err.message, pos)
    throw err
  }
}

/** Runs a plan to completion, as one batch. */
export async function collectAll(plan: PlanNode, ctx: ExecContext): Promise<Batch> {
  await prepareSubqueries(plan, ctx)
  const parts: Batch[] = []
  // held until the statement ends (the caller writes the rows out)
  const mem = ctx.memory.reservation('materialised rows')
  for await (const b of runPlan(plan, ctx)) { mem.grow(batchBytes(b)); parts.push(b) }
  if (parts.length > 1) mem.grow(mem.bytes)
  let length = 0
  for (const p of parts) length += p.length
  return { length, vectors: plan.output.map((c, i) => concatVectors(c.type, parts.map((p) => p.vectors[i]!))) }
}

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
