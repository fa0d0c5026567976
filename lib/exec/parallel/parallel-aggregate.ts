/**
 * Parallel GROUP BY over a table scan: part by part (one per durable partition; in-memory tables
 * have one), the part's rows are split into one range per thread, worker
 * threads and the main thread each aggregate their range into partial groups, and the partials
 * are merged by a second GROUP BY (count -> sum of counts, avg -> sum / count, min -> min of mins).
 *
 * Only aggregations that decompose this way, over fixed-width columns, with deterministic
 * expressions, on tables of at least {@link PARALLEL_MIN_ROWS} rows take this path; everything
 * else runs on one thread.
 */
import type { ColumnType } from '../../types/column-type.js'
import { PHYSICAL } from '../../types/column-type.js'
import { type Batch, type Vector, sliceVector } from '../../types/vector.js'
import type { AggregateFunctionDef, CallSite, ScalarFunctionDef } from '../../functions/registry-types.js'
import type { AggregateNode, BoundAggregate, BoundExpr, OutputColumn, PlanNode, ScanNode } from '../../plan/plan-node.js'
import { functionsNamed, resolveOverload } from '../../plan/resolve-function.js'
import { castTo } from '../../plan/bind-expr.js'
import { Table } from '../../storage/table.js'
import { memorySnapshotPart } from '../../storage/table-parts.js'
import type { ExecContext } from '../context.js'
import { runPlan } from '../operators/runner.js'
import { remapExpr } from '../../plan/optimize/walk.js'
import { WireEncoder, type WireColumn, type WireTask } from './wire.js'
import { runPartial } from './partial.js'
import { workerPool } from './pool.js'
import { concatBatches } from '../operators/sort.js'

/** Tables smaller than this aggregate on one thread (the hand-off costs more than it saves). */
export const PARALLEL_MIN_ROWS = 1_000_000

/** Counters for tests and diagnostics. */
export const PARALLEL_STATS = { runs: 0 }

/** How each aggregate splits into partials and how partials merge. */
export const DECOMPOSE: Record<string, { partial: string[]; merge: string[] }> = {
  count: { partial: ['count'], merge: ['sum'] },
  sum: { partial: ['sum'], merge: ['sum'] },
  ksum: { partial: ['ksum'], merge: ['ksum'] },
  nsum: { partial: ['nsum'], merge: ['nsum'] },
  min: { partial: ['min'], merge: ['min'] },
  max: { partial: ['max'], merge: ['max'] },
  avg: { partial: ['sum', 'count'], merge: ['sum', 'sum'] },
}

function aggregateDef(name: string): AggregateFunctionDef {
  const d = functionsNamed(name).find((x) => x.kind === 'aggregate')
  if (d === undefined) throw new Error(`aggregate ${name} is missing`)
  return d as AggregateFunctionDef
}

/** Binds aggregate `name` over `args` (exact-typed casts inserted). */
export function aggregateOf(name: string, args: BoundExpr[]): BoundAggregate {
  const def = aggregateDef(name)
  const res = resolveOverload([def], args.map((a) => a.type), args.map(() => false))
  if (res === undefined) throw new Error(`no overload of ${name}(${args.map((a) => a.type).join(',')})`)
  const cast = args.map((a, i) => {
    const d = res.declared[i]!
    return d === 'ANY' || d === 'NUMERIC' || d === 'TEXT' || d === 'TEMPORAL' ? a : castTo(a, d, -1, false)
  })
  const argTypes = cast.map((a) => a.type)
  const returns = typeof res.signature.returns === 'function' ? res.signature.returns(argTypes) : res.signature.returns
  const site: CallSite = { argTypes, constants: cast.map(() => undefined), returns, argPositions: cast.map(() => -1), pos: -1 }
  return { def, site, args: cast }
}

export function columnsUsed(e: BoundExpr, out: Set<number>): void {
  switch (e.kind) {
    case 'column': out.add(e.index); return
    case 'call': e.args.forEach((a) => columnsUsed(a, out)); return
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': columnsUsed(e.expr, out); return
    case 'case': e.whens.forEach((w) => { columnsUsed(w.when, out); columnsUsed(w.then, out) }); columnsUsed(e.else, out); return
    default: return
  }
}

/** A scan node over an in-memory batch (the merge step's input). */
export function batchNode(b: Batch, output: readonly OutputColumn[]): ScanNode {
  const columns = b.vectors.map((v) => ({ view: (s: number, e: number): Vector => sliceVector(v, s, e) }))
  const table = { snapshot: () => ({ rowCount: b.length, parts: [memorySnapshotPart(columns, b.length, 0, -1)] }) } as unknown as Table
  return { kind: 'scan', table, columns: output.map((_, i) => i), output, timestampIndex: -1 }
}

/** The parallel plan for `node`, or undefined when it does not qualify. */
export function parallelAggregate(node: AggregateNode, ctx: ExecContext): AsyncGenerator<Batch> | undefined {
  const pool = workerPool()
  if (pool === undefined) return undefined
  let scan: PlanNode = node.input
  let filter: BoundExpr | undefined
  // a filter that passes on only some columns: keys and arguments refer to its output; map them to the scan's
  let map: Int32Array | undefined
  if (scan.kind === 'filter') {
    filter = scan.predicate
    if (scan.projection !== undefined) map = Int32Array.from(scan.projection)
    scan = scan.input
  }
  if (scan.kind !== 'scan' || !(scan.table instanceof Table) || scan.intervals !== undefined || scan.table.rowCount < PARALLEL_MIN_ROWS) return undefined
  if (!node.aggregates.every((a) => DECOMPOSE[a.def.name] !== undefined)) return undefined
  if (map !== undefined) {
    const m = map
    node = { ...node, keys: node.keys.map((e) => remapExpr(e, m)), aggregates: node.aggregates.map((a) => ({ ...a, args: a.args.map((e) => remapExpr(e, m)) })) }
  }
  const used = new Set<number>()
  for (const e of [...node.keys, ...node.aggregates.flatMap((a) => a.args), ...(filter === undefined ? [] : [filter])]) columnsUsed(e, used)
  for (const i of used) { const k = PHYSICAL[scan.output[i]!.type]; if (k === 'str' || k === 'bin' || k === 'null') return undefined }

  const enc = new WireEncoder()
  const keys = enc.all(node.keys)
  const wireFilter = filter === undefined ? undefined : enc.expr(filter)
  if (keys === undefined || (filter !== undefined && wireFilter === undefined)) return undefined
  const partials: BoundAggregate[] = []
  for (const a of node.aggregates) {
    const d = DECOMPOSE[a.def.name]!
    for (const p of d.partial) partials.push(p === a.def.name ? a : aggregateOf(p, a.args as BoundExpr[]))
  }
  const wireAggs = []
  for (const p of partials) {
    const args = enc.all(p.args)
    if (args === undefined) return undefined
    wireAggs.push({ fn: enc.fn(p.def), site: p.site, args })
  }
  return runParallel(node, scan, pool, ctx, { keys, filter: wireFilter, aggregates: wireAggs, functions: enc.functions }, partials)
}

async function* runParallel(
  node: AggregateNode, scan: ScanNode, pool: NonNullable<ReturnType<typeof workerPool>>, ctx: ExecContext,
  spec: Pick<WireTask, 'keys' | 'filter' | 'aggregates' | 'functions'>, partials: BoundAggregate[],
): AsyncGenerator<Batch> {
  PARALLEL_STATS.runs++
  const snap = scan.table.snapshot()
  const threads = pool.size + 1
  const base = { ...spec, params: ctx.params, now: ctx.now, user: ctx.user }
  const all: Batch[] = []
  // part by part (a durable table's partitions load as they are reached), each split across the threads
  for (const part of snap.parts) {
    if (part.rows === 0) continue
    const reader = part.open(scan.columns)
    const columns: WireColumn[] = scan.columns.map((_, i) => {
      const v = reader.view(i, 0, part.rows)
      const data = PHYSICAL[v.type] === 'str' || PHYSICAL[v.type] === 'bin' || v.kind === 'null' ? new Float64Array(0) : (v.data as Float64Array)
      return v.kind === 'sym' && scan.output[i] !== undefined ? { type: v.type, data, dict: v.dict.values.slice() } : { type: v.type, data }
    })
    const per = Math.ceil(part.rows / threads)
    const task = { ...base, columns }
    const jobs: Promise<Batch>[] = []
    for (let t = 1; t < threads; t++) if (t * per < part.rows) jobs.push(pool.run({ ...task, start: t * per, end: Math.min((t + 1) * per, part.rows) }))
    all.push(await runPartial({ ...task, start: 0, end: Math.min(per, part.rows) }, ctx), ...(await Promise.all(jobs)))
  }
  const k = node.keys.length
  const partialOutput: OutputColumn[] = [
    ...node.keys.map((e, i) => ({ name: `k${i}`, type: e.type })),
    ...partials.map((p, i) => ({ name: `p${i}`, type: p.site.returns })),
  ]
  const merged = concatBatches(all, partialOutput)
  const input = batchNode(merged, partialOutput)
  const col = (i: number): BoundExpr => ({ kind: 'column', type: partialOutput[i]!.type, index: i })
  const mergeAggs: BoundAggregate[] = []
  let j = 0
  for (const a of node.aggregates) for (const m of DECOMPOSE[a.def.name]!.merge) { mergeAggs.push(aggregateOf(m, [col(k + j)])); j++ }
  const mergeOutput: OutputColumn[] = [...partialOutput.slice(0, k), ...mergeAggs.map((m, i) => ({ name: `m${i}`, type: m.site.returns }))]
  const mergeNode: AggregateNode = { kind: 'aggregate', input, keys: node.keys.map((_, i) => col(i)), aggregates: mergeAggs, output: mergeOutput, timestampIndex: -1 }
  // final values in the original aggregates' shapes
  const exprs: BoundExpr[] = node.keys.map((e, i) => ({ kind: 'column', type: e.type, index: i }))
  j = k
  for (const a of node.aggregates) {
    const mcol = (x: number): BoundExpr => ({ kind: 'column', type: mergeOutput[x]!.type, index: x })
    if (a.def.name === 'avg') { exprs.push(divide(mcol(j), mcol(j + 1))); j += 2 }
    else { exprs.push(castTo(mcol(j), a.site.returns, -1, true)); j++ }
  }
  const project: PlanNode = { kind: 'project', input: mergeNode, exprs, output: node.output, timestampIndex: -1 }
  yield* runPlan(project, ctx)
}

export function divide(a: BoundExpr, b: BoundExpr): BoundExpr {
  const defs = functionsNamed('/').filter((d) => d.kind === 'scalar') as ScalarFunctionDef[]
  const types: ColumnType[] = ['DOUBLE', 'DOUBLE']
  const res = resolveOverload(defs, types, [false, false])
  if (res === undefined) throw new Error('operator / is missing')
  const args = [castTo(a, 'DOUBLE', -1, true), castTo(b, 'DOUBLE', -1, true)]
  return { kind: 'call', type: 'DOUBLE', def: res.def as ScalarFunctionDef, site: { argTypes: types, constants: [undefined, undefined], returns: 'DOUBLE', argPositions: [-1, -1], pos: -1 }, args }
}
