/**
 * Running the shares of a parallel aggregation: encoding the share's aggregation for the
 * workers, and running it part by part (a durable table's partitions load as they are reached),
 * each part's rows cut into pieces that the statement's thread and the workers take on demand
 * (pieces.ts). The partial groups come back in row order, one per piece.
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
import { partRanges } from './ranges.js'
import { PIECE_STATS, pieceBounds, pieceCounter, piecesPerThread, streamedShare, takePieces } from './pieces.js'
import type { SnapshotPart } from '../../storage/table-parts.js'
import type { Partial } from './partial.js'
import type { WorkerPool } from './pool.js'
import { WireEncoder, type WireColumn, type WirePartial, type WirePieces, type WireSample, type WireTask } from './wire.js'

/** Counters for tests and diagnostics. */
export const PARALLEL_STATS = { runs: 0, filters: 0 }

/** Runs the shares of `node` on `pool` and this thread; returns the partial groups in row order. */
export async function runShares(node: ParallelAggregateNode, pool: WorkerPool, ctx: ExecContext, anchor?: number): Promise<Partial[]> {
  PARALLEL_STATS.runs++
  const flag = cancelFlag(ctx)
  try {
    return await runParts(node, pool, ctx, { ...encode(node, ctx, anchor), ...taskContext(ctx), cancel: flag.cancel })
  } catch (e) {
    flag.set()
    throw e
  } finally {
    flag.stop()
  }
}

/** What every task of a statement carries of its context. */
export function taskContext(ctx: ExecContext): Pick<WireTask, 'params' | 'now' | 'nowSub' | 'startedAt' | 'user' | 'deadline'> {
  return { params: ctx.params, now: ctx.now, nowSub: ctx.nowSub, startedAt: ctx.startedAt, user: ctx.user, deadline: ctx.deadline }
}

/**
 * The flag workers watch: they stop at the statement's deadline themselves, and when this thread
 * sets the flag (a CancelRequest, a disconnect, its own share failing, the consumer stopping).
 * `stop()` ends the watch of the statement's cancellation.
 */
export function cancelFlag(ctx: ExecContext): { readonly cancel: Int32Array; set(): void; stop(): void } {
  const cancel = new Int32Array(new SharedArrayBuffer(4))
  const set = () => { Atomics.store(cancel, 0, 1) }
  const watch = setInterval(() => { if (ctx.signal?.cancelled === true) set() }, 20)
  return { cancel, set, stop: () => clearInterval(watch) }
}

/** The share's aggregation as plain data (`anchor`: a SAMPLE BY's first observation, when aligned to it). */
function encode(node: ParallelAggregateNode, ctx: ExecContext, anchor: number | undefined): Pick<WireTask, 'keys' | 'filter' | 'aggregates' | 'functions' | 'sample'> {
  const enc = new WireEncoder()
  const share = node.share
  const keys = enc.all(share.keys)
  const filter = node.filter === undefined ? undefined : enc.expr(node.filter)
  const aggregates = share.aggregates.map((a) => ({ fn: enc.fn(a.def), site: a.site, args: enc.all(a.args) }))
  let sample: WireSample | undefined
  if (share.kind === 'sample_by') {
    const text = (e: BoundExpr | undefined) => { const v = e === undefined ? null : evalConstant(e, ctx); return v === null ? undefined : String(v) }
    const where = { timestampColumn: share.timestampColumn, bucketKey: share.bucketKey, stride: share.stride, unit: share.unit }
    if (share.align.kind === 'calendar') sample = { ...where, timeZone: text(share.align.timeZone), offset: text(share.align.offset) }
    else if (anchor !== undefined) sample = { ...where, anchor, timeZone: undefined, offset: undefined }
    else throw internalError('parallel SAMPLE BY aligned to the first observation without it')
  }
  return { keys, filter, aggregates, functions: enc.functions, ...(sample === undefined ? {} : { sample }) }
}

async function runParts(node: ParallelAggregateNode, pool: WorkerPool, ctx: ExecContext, base: Omit<WireTask, 'columns' | 'start' | 'end'>): Promise<Partial[]> {
  const scan: ScanNode = node.scan
  const snap = scanSnapshot(scan)
  const out: Partial[] = []
  // the partial groups stay on this thread until merged (released when the statement ends)
  const mem = ctx.memory.reservation('parallel aggregation')
  const fromWire = (w: WirePartial): Partial => ({ count: w.count, keys: fromWireBatch(w.keys).vectors, kernels: w.states.map((s, i) => kernelFrom(node.share.aggregates[i]!, s)) })
  for (const part of snap.parts) {
    const ranges = partRanges(scan, part, snap.meta.timestampIndex)
    if (ranges.length === 0) continue
    // the part's rows in pieces that this thread and the workers take on demand (pieces.ts)
    const bounds = pieceBounds(ranges, pool.size + 1, piecesPerThread(node.share))
    const stream = streamedShare(node.share)
    const task: WireTask = { ...base, columns: sharedColumns(scan, part), start: 0, end: 0, pieces: { bounds, next: pieceCounter(), stream } }
    const count = bounds.length / 2
    const workers = Math.min(pool.size, count - 1)
    const jobs = Array.from({ length: workers }, () => pool.run<WirePieces>(task))
    // when this thread's share fails first, the workers' (cancelled) shares reject unobserved
    for (const j of jobs) j.catch(() => undefined)
    // a partial per piece, in row order; a streamed task's: one per thread that took pieces, in any order
    const byPiece: Partial[] = []
    const mine = await takePieces(task, ctx)
    const keep = (ordinals: readonly number[], partials: readonly Partial[]): void => {
      if (stream) byPiece.push(...partials)
      else ordinals.forEach((i, k) => { byPiece[i] = partials[k]! })
    }
    keep(mine.ordinals, mine.partials)
    PIECE_STATS.mine += mine.ordinals.length
    // the workers' results matter only when this thread left them pieces
    if (mine.ordinals.length < count) {
      for (const w of await Promise.all(jobs)) {
        keep(w.ordinals, w.partials.map(fromWire))
        PIECE_STATS.workers += w.ordinals.length
      }
    }
    for (const p of byPiece) {
      mem.grow(batchBytes({ length: p.count, vectors: [...p.keys] }) + kernelBytes(p.kernels, p.count))
      out.push(p)
    }
  }
  return out
}

/** The scan's columns of `part` as views the workers share (text, binary and array columns, which workers never read, as empty arrays). */
export function sharedColumns(scan: ScanNode, part: SnapshotPart): WireColumn[] {
  const reader = part.open(scan.columns)
  return scan.columns.map((_, i) => {
    const v = reader.view(i, 0, part.rows)
    const data = v.kind === 'null' || v.kind === 'str' || v.kind === 'bin' || v.kind === 'arr' ? new Float64Array(0) : (v.data as Float64Array)
    return v.kind === 'sym' ? { type: v.type, data, dict: v.dict.values.slice() } : { type: v.type, data }
  })
}
