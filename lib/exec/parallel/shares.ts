/**
 * Running the shares of a parallel aggregation: encoding the share's aggregation for the
 * workers, and running it part by part (a durable table's partitions load as they are reached),
 * each part's rows split into one contiguous range per thread; the statement's thread takes the
 * first range. The partial groups come back in row order.
 */
import { internalError } from '../../errors.js'
import type { BoundExpr, ParallelAggregateNode, ScanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { evalConstant } from '../evaluate.js'
import { scanSnapshot } from '../operators/basic.js'
import { kernelBytes } from '../operators/hash-aggregate.js'
import { batchBytes } from '../memory.js'
import { fromWireBatch } from './batch-wire.js'
import { kernelFrom } from './kernel-state.js'
import { type Partial, runPartial } from './partial.js'
import type { WorkerPool } from './pool.js'
import { WireEncoder, type WireColumn, type WirePartial, type WireSample, type WireTask } from './wire.js'

/** Counters for tests and diagnostics. */
export const PARALLEL_STATS = { runs: 0 }

/** Runs the shares of `node` on `pool` and this thread; returns the partial groups in row order. */
export async function runShares(node: ParallelAggregateNode, pool: WorkerPool, ctx: ExecContext): Promise<Partial[]> {
  PARALLEL_STATS.runs++
  const spec = encode(node, ctx)
  // workers stop at the statement's deadline themselves, and when this thread sets `cancel`
  // (a CancelRequest, a disconnect, or its own share failing)
  const cancel = new Int32Array(new SharedArrayBuffer(4))
  const base = { ...spec, params: ctx.params, now: ctx.now, user: ctx.user, deadline: ctx.deadline, cancel }
  const watch = setInterval(() => { if (ctx.signal?.cancelled === true) Atomics.store(cancel, 0, 1) }, 20)
  try {
    return await runParts(node, pool, ctx, base)
  } catch (e) {
    Atomics.store(cancel, 0, 1)
    throw e
  } finally {
    clearInterval(watch)
  }
}

/** The share's aggregation as plain data. */
function encode(node: ParallelAggregateNode, ctx: ExecContext): Pick<WireTask, 'keys' | 'filter' | 'aggregates' | 'functions' | 'sample'> {
  const enc = new WireEncoder()
  const share = node.share
  const keys = enc.all(share.keys)
  const filter = node.filter === undefined ? undefined : enc.expr(node.filter)
  const aggregates = share.aggregates.map((a) => ({ fn: enc.fn(a.def), site: a.site, args: enc.all(a.args) }))
  let sample: WireSample | undefined
  if (share.kind === 'sample_by') {
    if (share.align.kind !== 'calendar') throw internalError('parallel SAMPLE BY aligned to the first observation')
    const text = (e: BoundExpr | undefined) => { const v = e === undefined ? null : evalConstant(e, ctx); return v === null ? undefined : String(v) }
    sample = { timestampColumn: share.timestampColumn, bucketKey: share.bucketKey, stride: share.stride, unit: share.unit, timeZone: text(share.align.timeZone), offset: text(share.align.offset) }
  }
  return { keys, filter, aggregates, functions: enc.functions, ...(sample === undefined ? {} : { sample }) }
}

async function runParts(node: ParallelAggregateNode, pool: WorkerPool, ctx: ExecContext, base: Omit<WireTask, 'columns' | 'start' | 'end'>): Promise<Partial[]> {
  const scan: ScanNode = node.scan
  const snap = scanSnapshot(scan)
  const threads = pool.size + 1
  const out: Partial[] = []
  // the partial groups stay on this thread until merged (released when the statement ends)
  const mem = ctx.memory.reservation('parallel aggregation')
  const fromWire = (w: WirePartial): Partial => ({ count: w.count, keys: fromWireBatch(w.keys).vectors, kernels: w.states.map((s, i) => kernelFrom(node.share.aggregates[i]!, s)) })
  for (const part of snap.parts) {
    if (part.rows === 0) continue
    const reader = part.open(scan.columns)
    const columns: WireColumn[] = scan.columns.map((_, i) => {
      const v = reader.view(i, 0, part.rows)
      const data = v.kind === 'null' || v.kind === 'str' || v.kind === 'bin' || v.kind === 'arr' ? new Float64Array(0) : (v.data as Float64Array)
      return v.kind === 'sym' ? { type: v.type, data, dict: v.dict.values.slice() } : { type: v.type, data }
    })
    const per = Math.ceil(part.rows / threads)
    const task = { ...base, columns }
    const jobs: Promise<WirePartial>[] = []
    for (let t = 1; t < threads; t++) if (t * per < part.rows) jobs.push(pool.run({ ...task, start: t * per, end: Math.min((t + 1) * per, part.rows) }))
    // when this thread's share fails first, the workers' (cancelled) shares reject unobserved
    for (const j of jobs) j.catch(() => undefined)
    const results = [await runPartial({ ...task, start: 0, end: Math.min(per, part.rows) }, ctx), ...(await Promise.all(jobs)).map(fromWire)]
    for (const r of results) mem.grow(batchBytes({ length: r.count, vectors: [...r.keys] }) + kernelBytes(r.kernels, r.count))
    out.push(...results)
  }
  return out
}
