/**
 * What parallel GROUP BY and parallel SAMPLE BY share: deciding whether an aggregation over a
 * (filtered) table scan can be split across threads, encoding it for the workers, and running
 * the shares part by part, each part's rows split into one contiguous range per thread.
 */
import { PHYSICAL } from '../../types/column-type.js'
import type { Batch } from '../../types/vector.js'
import type { BoundAggregate, BoundExpr, OutputColumn, PlanNode, ScanNode } from '../../plan/plan-node.js'
import { remapExpr } from '../../plan/optimize/walk.js'
import { Table } from '../../storage/table.js'
import type { ExecContext } from '../context.js'
import { DECOMPOSE, PARALLEL_MIN_ROWS, PARALLEL_STATS, aggregateOf, columnsUsed } from './decompose.js'
import { runPartial } from './partial.js'
import { scanSnapshot } from '../operators/basic.js'
import { batchBytes } from '../memory.js'
import { type WorkerPool, workerPool } from './pool.js'
import { WireEncoder, type WireColumn, type WireTask } from './wire.js'

/** An aggregation ready to run in shares. */
export interface Shares {
  readonly pool: WorkerPool
  readonly scan: ScanNode & { readonly table: Table }
  /** keys and aggregates over the scan's columns (remapped through a pruning filter's projection) */
  readonly keys: readonly BoundExpr[]
  readonly aggregates: readonly BoundAggregate[]
  /** the aggregates the shares compute (avg as sum and count, ...) */
  readonly partials: readonly BoundAggregate[]
  /** maps an index of the aggregation's input to the scan's, when a filter passed on only some columns */
  readonly remap: (i: number) => number
  readonly spec: Pick<WireTask, 'keys' | 'filter' | 'aggregates' | 'functions'>
}

/**
 * The shares plan for an aggregation of `input`, or undefined when it does not qualify: a table
 * scan (optionally filtered) of at least PARALLEL_MIN_ROWS rows, decomposable aggregates,
 * deterministic expressions over fixed-width columns. `extraColumns` are further input columns
 * the aggregation reads (SAMPLE BY's timestamp).
 */
export function prepareShares(input: PlanNode, keys: readonly BoundExpr[], aggregates: readonly BoundAggregate[], extraColumns: readonly number[] = []): Shares | undefined {
  const pool = workerPool()
  if (pool === undefined) return undefined
  let scan: PlanNode = input
  let filter: BoundExpr | undefined
  let map: Int32Array | undefined
  if (scan.kind === 'filter') {
    filter = scan.predicate
    if (scan.projection !== undefined) map = Int32Array.from(scan.projection)
    scan = scan.input
  }
  if (scan.kind !== 'scan' || !(scan.table instanceof Table) || scan.intervals !== undefined || scan.table.rowCount < PARALLEL_MIN_ROWS) return undefined
  if (!aggregates.every((a) => DECOMPOSE[a.def.name] !== undefined)) return undefined
  const m = map
  const remapped = (e: BoundExpr) => (m === undefined ? e : remapExpr(e, m))
  const k = keys.map(remapped)
  const aggs = aggregates.map((a) => ({ ...a, args: a.args.map(remapped) }))
  const remap = (i: number) => (m === undefined ? i : m[i]!)
  const used = new Set<number>(extraColumns.map(remap))
  for (const e of [...k, ...aggs.flatMap((a) => a.args), ...(filter === undefined ? [] : [filter])]) columnsUsed(e, used)
  for (const i of used) { const p = PHYSICAL[scan.output[i]!.type]; if (p === 'str' || p === 'bin' || p === 'arr' || p === 'null') return undefined }
  const enc = new WireEncoder()
  const wireKeys = enc.all(k)
  const wireFilter = filter === undefined ? undefined : enc.expr(filter)
  if (wireKeys === undefined || (filter !== undefined && wireFilter === undefined)) return undefined
  const partials: BoundAggregate[] = []
  for (const a of aggs) for (const p of DECOMPOSE[a.def.name]!.partial) partials.push(p === a.def.name ? a : aggregateOf(p, a.args as BoundExpr[]))
  const wireAggs = []
  for (const p of partials) {
    const args = enc.all(p.args)
    if (args === undefined) return undefined
    wireAggs.push({ fn: enc.fn(p.def), site: p.site, args })
  }
  return {
    pool, scan: scan as ScanNode & { readonly table: Table }, keys: k, aggregates: aggs, partials, remap,
    spec: { keys: wireKeys, filter: wireFilter, aggregates: wireAggs, functions: enc.functions },
  }
}

/**
 * Runs the shares: part by part (a durable table's partitions load as they are reached), each
 * part's rows split into one contiguous range per thread; the main thread takes the first range.
 * Returns the partial results in row order.
 */
export async function runShares(s: Shares, ctx: ExecContext, extra: Pick<WireTask, 'sample'> = {}): Promise<Batch[]> {
  PARALLEL_STATS.runs++
  const snap = scanSnapshot(s.scan)
  // workers stop at the statement's deadline themselves, and when the main thread sets `cancel`
  // (a CancelRequest, a disconnect, or its own share failing)
  const cancel = new Int32Array(new SharedArrayBuffer(4))
  const base = { ...s.spec, ...extra, params: ctx.params, now: ctx.now, user: ctx.user, deadline: ctx.deadline, cancel }
  const watch = setInterval(() => { if (ctx.signal?.cancelled === true) Atomics.store(cancel, 0, 1) }, 20)
  try {
    return await runParts(s, ctx, base, snap)
  } catch (e) {
    Atomics.store(cancel, 0, 1)
    throw e
  } finally {
    clearInterval(watch)
  }
}

async function runParts(s: Shares, ctx: ExecContext, base: Omit<WireTask, 'columns' | 'start' | 'end'>, snap: ReturnType<Shares['scan']['table']['snapshot']>): Promise<Batch[]> {
  const { scan, pool } = s
  const threads = pool.size + 1
  const out: Batch[] = []
  // the partial results come back to this thread and stay until merged (released when the statement ends)
  const mem = ctx.memory.reservation('parallel aggregation')
  for (const part of snap.parts) {
    if (part.rows === 0) continue
    const reader = part.open(scan.columns)
    const columns: WireColumn[] = scan.columns.map((_, i) => {
      const v = reader.view(i, 0, part.rows)
      const data = v.kind === 'null' || v.kind === 'str' || v.kind === 'bin' ? new Float64Array(0) : (v.data as Float64Array)
      return v.kind === 'sym' ? { type: v.type, data, dict: v.dict.values.slice() } : { type: v.type, data }
    })
    const per = Math.ceil(part.rows / threads)
    const task = { ...base, columns }
    const jobs: Promise<Batch>[] = []
    for (let t = 1; t < threads; t++) if (t * per < part.rows) jobs.push(pool.run({ ...task, start: t * per, end: Math.min((t + 1) * per, part.rows) }))
    // when the main thread's share fails first, the workers' (cancelled) shares reject unobserved
    for (const j of jobs) j.catch(() => undefined)
    const results = [await runPartial({ ...task, start: 0, end: Math.min(per, part.rows) }, ctx), ...(await Promise.all(jobs))]
    for (const r of results) mem.grow(2 * batchBytes(r)) // the results, and their concatenation for the merge
    out.push(...results)
  }
  return out.filter((b) => b.length > 0)
}

/** The layout of the shares' results: keys, then partials. */
export function partialOutput(keys: readonly BoundExpr[], partials: readonly BoundAggregate[]): OutputColumn[] {
  return [...keys.map((e, i) => ({ name: `k${i}`, type: e.type })), ...partials.map((p, i) => ({ name: `p${i}`, type: p.site.returns }))]
}
