/**
 * Memory budgets of running statements. Every operator that accumulates rows (sort buffers, hash
 * tables of GROUP BY / DISTINCT / joins / set operations, window buffers, LATEST ON and SAMPLE BY
 * state, materialised results, subquery values) reserves the bytes it is about to hold from its
 * statement's {@link QueryMemory}, which charges them both to the statement's own limit and to the
 * {@link MemoryPool} shared by every statement of the database. A reservation over either limit
 * throws 53200 before the memory is taken; everything a statement holds is released when it ends,
 * fails or is cancelled.
 *
 * Accounting is per batch or per buffer growth, never per row: typed arrays count exactly
 * (`byteLength`), JS-heap structures (strings, Maps, arrays of values) by estimate.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Batch, Vector } from '../types/vector.js'

/** The per-query limit's configuration key, named in 53200 messages. */
export const QUERY_LIMIT_KEY = 'cairo.query.memory.limit.bytes'
/** The server-wide limit's configuration keys, named in 53200 messages. */
export const POOL_LIMIT_KEY = 'ram.usage.limit.bytes / ram.usage.limit.percent'

/** Estimated bytes of a JS Map or Set entry (hash table slot, bucket, key and value words). */
export const MAP_ENTRY_BYTES = 48
/** Estimated bytes of a JS string beyond its characters (header, hash, length). */
export const STRING_OVERHEAD_BYTES = 24
/** Estimated bytes of a boxed JS value (a heap number, a bigint, a small array header). */
export const BOXED_BYTES = 16

/** The memory every running statement of one database shares (the server-wide budget). */
export class MemoryPool {
  /** bytes reserved by running statements */
  used = 0

  /** @param limit bytes all running statements may hold together; `Infinity` for no limit */
  constructor(readonly limit: number) {}
}

/** One statement's memory: a limit of its own, charged also to the shared {@link MemoryPool}. */
export class QueryMemory {
  /** bytes reserved now */
  used = 0
  /** the most bytes reserved at once */
  peak = 0

  /**
   * @param limit bytes this statement may hold; `Infinity` for no limit
   * @param pool the database's shared budget, when there is one
   */
  constructor(readonly limit: number, readonly pool?: MemoryPool) {}

  /** A reservation for one operator's buffers; `what` names it in errors (`ORDER BY`, `GROUP BY`). */
  reservation(what: string): Reservation {
    return new Reservation(this, what)
  }

  /** Reserves `bytes` for `what`, or throws 53200 when the statement's or the pool's limit would be passed. */
  reserve(bytes: number, what: string): void {
    if (!(bytes > 0)) return
    const used = this.used + bytes
    if (used > this.limit) {
      throw new SqlError(SqlState.OUT_OF_MEMORY,
        `query memory limit exceeded: ${what} needs more than the ${formatBytes(this.limit)} one query may use; raise ${QUERY_LIMIT_KEY} (Database.open option queryMemoryLimit) or make the query hold fewer rows`,
        -1, { hint: `the query held ${formatBytes(this.used)} when ${what} asked for ${formatBytes(bytes)} more` })
    }
    const pool = this.pool
    if (pool !== undefined) {
      if (pool.used + bytes > pool.limit) {
        throw new SqlError(SqlState.OUT_OF_MEMORY,
          `server memory limit exceeded: ${what} needs ${formatBytes(bytes)} more, but running queries hold ${formatBytes(pool.used)} of the ${formatBytes(pool.limit)} they share; retry later or raise ${POOL_LIMIT_KEY} (Database.open option totalQueryMemoryLimit)`,
          -1)
      }
      pool.used += bytes
    }
    this.used = used
    if (used > this.peak) this.peak = used
  }

  /** Returns `bytes` (at most what is reserved) to the statement and the pool. */
  release(bytes: number): void {
    const n = Math.min(bytes, this.used)
    if (!(n > 0)) return
    this.used -= n
    if (this.pool !== undefined) this.pool.used = Math.max(0, this.pool.used - n)
  }

  /** Returns everything still reserved (the statement ended, failed or was cancelled). */
  releaseAll(): void {
    this.release(this.used)
  }
}

/** What one operator holds: grows with its buffers, given back when the operator is done. */
export class Reservation {
  /** bytes this reservation holds */
  bytes = 0

  constructor(private readonly memory: QueryMemory, readonly what: string) {}

  /** Reserves `bytes` more, or throws 53200 (and then holds nothing more). */
  grow(bytes: number): void {
    if (!(bytes > 0)) return
    this.memory.reserve(bytes, this.what)
    this.bytes += bytes
  }

  /** Gives back `bytes` (at most what it holds). */
  shrink(bytes: number): void {
    const n = Math.min(bytes, this.bytes)
    if (!(n > 0)) return
    this.bytes -= n
    this.memory.release(n)
  }

  /** Grows or shrinks to hold exactly `bytes`. */
  resize(bytes: number): void {
    if (bytes > this.bytes) this.grow(bytes - this.bytes)
    else this.shrink(this.bytes - bytes)
  }

  /** Gives back everything. */
  close(): void {
    this.shrink(this.bytes)
  }
}

/** A statement without a budget (internal statements, worker-thread shares): reserves never fail. */
export function unlimitedMemory(): QueryMemory {
  return new QueryMemory(Infinity)
}

const SAMPLES = 32

/** Estimated bytes of JS-heap strings (or byte arrays) in `data`: sampled, so per-batch cost stays small. */
export function arrayOfValuesBytes(data: readonly (string | Uint8Array | null)[], length: number): number {
  if (length === 0) return 0
  const step = Math.max(1, Math.floor(length / SAMPLES))
  let sampled = 0
  let bytes = 0
  for (let i = 0; i < length; i += step) {
    const x = data[i]
    sampled++
    if (x === null || x === undefined) continue
    bytes += typeof x === 'string' ? x.length * 2 + STRING_OVERHEAD_BYTES : x.byteLength + 64
  }
  return 8 * length + Math.ceil((bytes / sampled) * length)
}

/** Estimated bytes of a vector's values: exact for typed arrays, sampled for strings and binaries. */
export function vectorBytes(v: Vector): number {
  if (v.isConst === true) return BOXED_BYTES
  switch (v.kind) {
    case 'null': return 0
    case 'str': case 'bin': return arrayOfValuesBytes(v.data, Math.min(v.length, v.data.length))
    default: return v.data.byteLength
  }
}

/** Estimated bytes of a batch's vectors. */
export function batchBytes(b: Batch): number {
  let n = 0
  for (const v of b.vectors) n += vectorBytes(v)
  return n
}

/** `1536` -> `1.5 KiB`. */
export function formatBytes(n: number): string {
  if (n === Infinity) return 'unlimited'
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB']
  let u = 0
  let x = n
  while (x >= 1024 && u < units.length - 1) { x /= 1024; u++ }
  return u === 0 ? `${n} bytes` : `${x.toFixed(1)} ${units[u]}`
}
