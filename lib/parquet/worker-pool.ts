/**
 * The Parquet export's compression threads: up to two workers (worker.ts) that encode and
 * compress a row group's pages while the writer's thread reads and encodes the next group.
 * Compression is most of an export's CPU time (snappy: about three quarters), so this is what
 * lets an export use both cores, as DuckDB's COPY does. A page compresses to the same bytes on
 * any thread (codecs.ts), so the file is the one the single-threaded writer writes.
 *
 * Workers start on first use, are shared by all exports of the process, and never keep it alive
 * while idle. `EPOCHDB_WORKERS=0` (or parallelism switched off) keeps compression on the
 * writer's thread.
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { SqlError, SqlState, type SqlStateCode } from '../errors.js'
import { parallelWorkers } from '../exec/parallel/pool.js'
import type { ParquetCodec } from './codecs.js'
import type { ChunkColumn, ChunkPlan } from './chunk-plan.js'
import type { Vector } from '../types/vector.js'
import { type CompressResult, type CompressTask, buffersOf, planBuffers } from './worker.js'
import { startModuleWorker } from '../exec/parallel/start-worker.js'

/** Column chunks compressed by the workers since the process started (tests check the threads were used). */
export const COMPRESS_STATS = { chunks: 0 }

/** At most this many compression threads (the writer's thread encodes for about two). */
export const MAX_COMPRESS_THREADS = 2

interface Pending {
  resolve: (r: never) => void
  reject: (e: unknown) => void
  worker: number
  bytes: number
}

/** A few workers compressing column chunks' pages; each task goes to the least loaded one. */
class CompressPool {
  private readonly workers: Worker[] = []
  /** bytes queued per worker */
  private readonly load: number[] = []
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  /** a worker died (it should not): the next export starts a new pool */
  broken = false

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) {
      const w = startModuleWorker(import.meta.url, 'worker')
      w.on('message', (m: { id: number; result?: CompressResult; error?: { message: string; code?: string } }) => {
        const p = this.pending.get(m.id)
        if (p === undefined) return
        this.settle(m.id, p)
        if (m.error !== undefined) p.reject(new SqlError((m.error.code ?? SqlState.INTERNAL_ERROR) as SqlStateCode, m.error.message, 0))
        else { COMPRESS_STATS.chunks++; p.resolve(m.result as never) }
      })
      w.on('error', (err) => {
        this.broken = true
        for (const [id, p] of this.pending) if (p.worker === i) { this.settle(id, p); p.reject(err) }
      })
      w.unref()
      this.workers.push(w)
      this.load.push(0)
    }
  }

  private settle(id: number, p: Pending): void {
    this.pending.delete(id)
    this.load[p.worker]! -= p.bytes
    if (this.load[p.worker] === 0) this.workers[p.worker]!.unref()
  }

  /** Compresses the pages of `plan` with `codec`; its arrays are moved to the worker and come back in the result. */
  compressPlan(codec: ParquetCodec, level: number | undefined, plan: ChunkPlan): Promise<CompressResult> {
    let bytes = 1
    for (const p of plan.pages) bytes += p.values.length
    return this.post({ id: 0, codec, level, plan }, bytes, planBuffers(plan))
  }

  /**
   * Encodes (plain-chunk.ts planPlainChunk, or planSymbolChunk when `symbols`) and compresses a
   * column's chunk from `parts`, vectors with arrays of their own (plain-chunk.ts
   * portableParts / portableSymbols), which are moved to the worker.
   */
  encode(codec: ParquetCodec, level: number | undefined, col: ChunkColumn, parts: Vector[], rows: number, symbols: boolean): Promise<CompressResult> {
    const { compress: _, ...spec } = col
    const arrays = parts.map((v) => v.data as unknown as Uint8Array)
    let bytes = 1
    for (const a of arrays) bytes += a.byteLength
    return this.post({ id: 0, codec, level, encode: { col: spec, parts, rows, symbols } }, bytes, buffersOf(arrays))
  }

  private post<R>(task: CompressTask, bytes: number, transfer: ArrayBuffer[]): Promise<R> {
    let worker = 0
    for (let i = 1; i < this.load.length; i++) if (this.load[i]! < this.load[worker]!) worker = i
    const id = this.nextId++
    const w = this.workers[worker]!
    return new Promise((resolve, reject) => {
      if (this.load[worker] === 0) w.ref() // a busy worker keeps the process alive
      this.load[worker]! += bytes
      this.pending.set(id, { resolve: resolve as (r: never) => void, reject, worker, bytes })
      w.postMessage({ ...task, id }, transfer)
    })
  }
}

let pool: CompressPool | undefined

/** The compression threads an export uses by default: none without parallelism, else up to {@link MAX_COMPRESS_THREADS}. */
export function defaultCompressThreads(): number {
  return parallelWorkers() === 0 ? 0 : Math.min(MAX_COMPRESS_THREADS, availableParallelism())
}

/** The shared pool of `threads` workers (0: undefined, compress on the caller's thread). */
export function parquetWorkers(threads: number): CompressPool | undefined {
  if (threads <= 0) return undefined
  if (pool === undefined || pool.broken) pool = new CompressPool(Math.min(MAX_COMPRESS_THREADS, threads))
  return pool
}

export type { CompressPool }
