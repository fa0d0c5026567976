/**
 * Worker-thread entry point of the Parquet export's compression threads (worker-pool.ts): takes
 * one column chunk, either as its pages (encoded by the writer) or as the vectors of a
 * fixed-width or SYMBOL column (encoded here, plain-chunk.ts), and answers the chunk's pages and
 * their compressed bodies. Arrays are moved, not copied.
 */
import { parentPort } from 'node:worker_threads'
import type { Vector } from '../types/vector.js'
import type { ChunkColumn, ChunkPlan } from './chunk-plan.js'
import { type ParquetCodec, pageCodec } from './codecs.js'
import { planPlainChunk, planSymbolChunk } from './plain-chunk.js'
import { zstdCompressor } from './zstd.js'

/** One column chunk to compress: its pages, or the vectors to encode first. */
export interface CompressTask {
  readonly id: number
  readonly codec: ParquetCodec
  readonly level: number | undefined
  readonly plan?: ChunkPlan
  /** vectors to encode: a SYMBOL column's (`symbols`; their tables carry only `values`) or a fixed-width one's */
  readonly encode?: { readonly col: Omit<ChunkColumn, 'compress'>; readonly parts: Vector[]; readonly rows: number; readonly symbols: boolean }
}

/** A chunk's pages (undefined: the fast path refused the vectors) and their compressed bodies. */
export interface CompressResult {
  readonly plan: ChunkPlan | undefined
  readonly bodies: Uint8Array[]
}

/** The buffers of a plan's pages. */
export function planBuffers(plan: ChunkPlan | undefined): ArrayBuffer[] {
  return plan === undefined ? [] : buffersOf(plan.pages.flatMap((p) => [p.levels, p.values]).filter((b) => b.length > 0))
}

const EMPTY = new Uint8Array(0)

/** The buffers under `arrays`, each once. */
export function buffersOf(arrays: readonly Uint8Array[]): ArrayBuffer[] {
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))]
}

async function run(task: CompressTask): Promise<CompressResult> {
  const codec = pageCodec(task.codec, task.level, task.codec === 'zstd' ? await zstdCompressor() : undefined)
  const compress = codec.compress
  const e = task.encode
  const plan = task.plan ?? (e!.symbols ? planSymbolChunk : planPlainChunk)({ ...e!.col, compress }, e!.parts, e!.rows)
  if (plan === undefined) return { plan, bodies: [] }
  const bodies = plan.pages.map((p) => (compress === undefined ? p.values : compress(p.values)))
  // the writer needs only the values' length: the bytes stay here (garbage on this thread's heap)
  const pages = plan.pages.map((p, i) => (bodies[i] === p.values ? p : { ...p, values: EMPTY, valuesLength: p.values.length }))
  return { plan: { ...plan, pages }, bodies }
}

function fail(id: number, err: unknown): void {
  parentPort!.postMessage({ id, error: err instanceof Error ? { message: err.message, code: (err as { code?: string }).code } : { message: String(err) } })
}

parentPort?.on('message', (task: CompressTask) => {
  run(task).then(
    (result) => {
      // snappy and zstd bodies are arrays of their own: moved; zlib's may share Node's pool: copied
      const own = task.codec === 'snappy' || task.codec === 'zstd' ? buffersOf(result.bodies) : []
      const back = planBuffers(result.plan).filter((b) => !own.includes(b))
      parentPort!.postMessage({ id: task.id, result }, [...own, ...back])
    },
    (err: unknown) => fail(task.id, err),
  )
})
