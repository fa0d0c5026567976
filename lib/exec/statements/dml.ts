/**
 * DML: INSERT (VALUES and SELECT) and the data half of CREATE TABLE AS SELECT (UPDATE: update.ts).
 * Every row of a statement is computed and converted before the table changes, so a statement
 * that fails leaves the table as it was.
 */
import { isDecimal } from '../../types/decimal.js'
import { SqlError, SqlState } from '../../errors.js'
import type { Insert } from '../../sql/ast.js'
import { type ColumnType, typeName } from '../../types/column-type.js'
import { isGeohash } from '../../types/geohash.js'
import { checkGeohashInsert } from '../../types/geohash-cast.js'
import { type Batch, type Scalar, type Vector, VectorWriter, allocate, concatVectors, getScalar, materialize } from '../../types/vector.js'
import { castVector } from '../../types/cast.js'
import type { Table } from '../../storage/table.js'
import type { PlanNode } from '../../plan/plan-node.js'
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

/** The parameter-inference hook of a bind context, for hand-built expression environments (INSERT, UPDATE). */
export function inferOf(bc: BindContext): { onInfer?: NonNullable<BindContext['onInfer']> } {
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
        const value = bindExpr(e, env)
        if (isGeohash(type)) checkGeohashInsert(value.type, type, e.kind === 'literal' && e.type === 'geohash' ? e.text : typeName(value.type), cols[targets[k]!]!.name, e.pos)
        const bound = castTo(value, type, e.pos, !(e.kind === 'literal' && isDecimal(type)), bc.onInfer)
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
