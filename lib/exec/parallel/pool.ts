/**
 * The worker-thread pool for parallel operators: one worker per core beyond the first
 * (`EPOCHDB_WORKERS` overrides; 0 disables). Workers start loading when the pool is first
 * created: at the first parallel query, or earlier when a table grows large enough for one
 * (warm.ts). A worker takes its first task once its modules are loaded (seconds from TypeScript
 * sources on a loaded machine); until then the statement's thread takes every piece (pieces.ts),
 * and a worker that becomes ready in the middle of a statement takes the pieces left. Workers
 * never keep the process alive.
 */
import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { SqlError, SqlState, type SqlStateCode } from '../../errors.js'
import type { WirePartial, WirePieces, WireSelected, WireTask } from './wire.js'
import { startModuleWorker } from './start-worker.js'

interface Pending { resolve: (result: unknown) => void; reject: (e: unknown) => void }

/** Counters for tests and diagnostics: pools created, and workers that finished loading (said they are ready). */
export const POOL_STATS = { pools: 0, ready: 0 }

/** A fixed set of workers that run shares of parallel aggregations. */
export class WorkerPool {
  private readonly workers: Worker[] = []
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private turn = 0
  private readyCount = 0
  private readonly readyWaiters: (() => void)[] = []

  constructor(readonly size: number) {
    POOL_STATS.pools++
    for (let i = 0; i < size; i++) {
      const w = startModuleWorker(import.meta.url, 'worker')
      w.on('message', (m: { id: number; ready?: true; result?: unknown; error?: { message: string; code?: string; position?: number } }) => {
        if (m.ready === true) { this.workerReady(); return }
        const p = this.pending.get(m.id)
        if (p === undefined) return
        this.pending.delete(m.id)
        if (this.pending.size === 0) for (const x of this.workers) x.unref()
        if (m.error !== undefined) p.reject(new SqlError((m.error.code ?? SqlState.INTERNAL_ERROR) as SqlStateCode, m.error.message, m.error.position ?? -1))
        else p.resolve(m.result)
      })
      w.on('error', (err) => {
        for (const [id, p] of this.pending) { this.pending.delete(id); p.reject(err) }
        for (const x of this.workers) x.unref()
      })
      w.unref() // idle workers never keep the process alive (after the listeners, which ref it)
      this.workers.push(w)
    }
  }

  /** Workers that finished loading their modules (they take tasks at once). */
  get ready(): number {
    return this.readyCount
  }

  /** Resolves once every worker finished loading (for tests and benches; statements never wait for it). */
  whenReady(): Promise<void> {
    if (this.readyCount >= this.size) return Promise.resolve()
    for (const x of this.workers) x.ref() // a waiter keeps the process alive until they are
    return new Promise((resolve) => { this.readyWaiters.push(resolve) })
  }

  private workerReady(): void {
    this.readyCount++
    POOL_STATS.ready++
    if (this.readyCount < this.size || this.readyWaiters.length === 0) return
    if (this.pending.size === 0) for (const x of this.workers) x.unref()
    for (const w of this.readyWaiters.splice(0)) w()
  }

  /** Runs a task on the next worker; resolves to its result (a {@link WirePartial}, {@link WirePieces} for a task with `pieces`, or a {@link WireSelected} for a `select` task). */
  run<T extends WirePartial | WirePieces | WireSelected>(task: WireTask): Promise<T> {
    const id = this.nextId++
    const w = this.workers[this.turn++ % this.workers.length]!
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) for (const x of this.workers) x.ref() // busy workers keep the process alive
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject })
      w.postMessage({ id, task })
    })
  }
}

let pool: WorkerPool | null | undefined

/** At most this many workers, whatever the machine. */
const MAX_WORKERS = 16

/** Turns parallel execution off and on at run time (tests compare both paths' results). */
export const PARALLELISM = { enabled: true }

/** The worker threads parallel operators can use now (0: none), without starting them. */
export function parallelWorkers(): number {
  if (!PARALLELISM.enabled) return 0
  if (pool !== undefined) return pool?.size ?? 0
  const env = typeof process !== 'undefined' ? process.env['EPOCHDB_WORKERS'] : undefined
  const n = env !== undefined && env !== '' ? Number(env) : availableParallelism() - 1
  return Number.isFinite(n) && n > 0 ? Math.min(n, MAX_WORKERS) : 0
}

/** The shared pool, or undefined when parallelism is off (one core, EPOCHDB_WORKERS=0, or PARALLELISM.enabled false). */
export function workerPool(): WorkerPool | undefined {
  if (!PARALLELISM.enabled) return undefined
  if (pool === undefined) {
    const n = parallelWorkers()
    pool = n > 0 ? new WorkerPool(n) : null
  }
  return pool ?? undefined
}
