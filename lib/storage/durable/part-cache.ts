/**
 * The memory budget of durable storage: loaded partition columns, least recently used first out.
 *
 * Each loaded column of a checkpointed partition is one entry. When the loaded bytes exceed the
 * budget, the least recently used entries are dropped (the partition reloads that column from
 * its file on next read). A scan that holds a column's array keeps it alive past eviction, so
 * dropping never disturbs a running query; the budget bounds what storage itself keeps.
 *
 * A table's rows not yet checkpointed live in memory too, in buffers that grow until the next
 * checkpoint: each checkpoint reserves for them as many bytes as they held at their peak
 * ({@link PartCache.reserve}), and loaded columns get what is left ({@link PartCache.room}), so
 * the budget bounds both.
 */
import type { Vector } from '../../types/vector.js'
import { retainedBytes } from './compact-vector.js'

/** Something whose loaded columns the cache can drop. */
export interface Evictable {
  /** forgets the loaded column `c` */
  evict(c: number): void
  /** the loaded column `c`, if loaded (for {@link PartCache.retainedBytes}) */
  loaded?(c: number): Vector | undefined
}

/** Counters for tests and diagnostics (process-wide, since the last {@link resetStorageStats}). */
export const STORAGE_STATS = {
  /** column files read */
  columnLoads: 0,
  /** bytes of loaded column data */
  bytesLoaded: 0,
  /** partitions read from disk (a partition counts once each time its first column loads after none was loaded) */
  partitionLoads: 0,
  /** symbol indexes of partitions read from their index files (whole) */
  indexReads: 0,
  /** symbol indexes of partitions built or completed from the key column */
  indexBuilds: 0,
  /** columns read from a row on only, for an out-of-order merge (`FilePart.cut`) */
  tailLoads: 0,
  /** rows those reads held */
  tailRows: 0,
}

/** Zeroes {@link STORAGE_STATS}. */
export function resetStorageStats(): void {
  STORAGE_STATS.columnLoads = 0
  STORAGE_STATS.bytesLoaded = 0
  STORAGE_STATS.partitionLoads = 0
  STORAGE_STATS.indexReads = 0
  STORAGE_STATS.indexBuilds = 0
  STORAGE_STATS.tailLoads = 0
  STORAGE_STATS.tailRows = 0
}

interface Entry { readonly owner: Evictable; readonly c: number; readonly bytes: number }

/** An LRU of loaded columns under a byte budget. */
export class PartCache {
  private readonly entries = new Map<string, Entry>()
  private ids = new WeakMap<Evictable, number>()
  private nextId = 0
  /** bytes held now */
  bytes = 0
  /** the most bytes held at once */
  peakBytes = 0

  /** bytes reserved per owner (a table's rows in memory) */
  private readonly reservations = new Map<object, number>()
  private reservedBytes = 0

  constructor(readonly budget: number) {}

  /** Bytes loaded columns may hold: the budget less the reservations (never below 0). */
  get room(): number {
    return Math.max(0, this.budget - this.reservedBytes)
  }

  /**
   * Reserves `bytes` of the budget for `owner` (replacing its previous reservation; 0 removes it)
   * and evicts loaded columns, least recently used first, until they fit in the {@link PartCache.room} left.
   */
  reserve(owner: object, bytes: number): void {
    this.reservedBytes += bytes - (this.reservations.get(owner) ?? 0)
    if (bytes > 0) this.reservations.set(owner, bytes)
    else this.reservations.delete(owner)
    this.evictOver(this.room, undefined)
  }

  /** Evicts entries other than `spare`, least recently used first, while the bytes exceed `limit`. */
  private evictOver(limit: number, spare: string | undefined): void {
    for (const [key, e] of this.entries) {
      if (this.bytes <= limit) break
      if (key === spare) continue
      this.entries.delete(key)
      this.bytes -= e.bytes
      e.owner.evict(e.c)
    }
  }

  private key(owner: Evictable, c: number): string {
    let id = this.ids.get(owner)
    if (id === undefined) { id = this.nextId++; this.ids.set(owner, id) }
    return `${id}:${c}`
  }

  /** Records a loaded column, then evicts others (least recently used first) while over the {@link PartCache.room}. */
  add(owner: Evictable, c: number, bytes: number): void {
    const k = this.key(owner, c)
    const old = this.entries.get(k)
    if (old !== undefined) { this.bytes -= old.bytes; this.entries.delete(k) }
    this.entries.set(k, { owner, c, bytes })
    this.bytes += bytes
    this.evictOver(this.room, k)
    this.peakBytes = Math.max(this.peakBytes, this.bytes)
  }

  /** Marks column `c` of `owner` as just used. */
  touch(owner: Evictable, c: number): void {
    const k = this.key(owner, c)
    const e = this.entries.get(k)
    if (e === undefined) return
    this.entries.delete(k)
    this.entries.set(k, e)
  }

  /**
   * Bytes the counted columns keep alive: the distinct buffers behind them, each whole (a view
   * keeps its entire buffer; text and binary columns count as {@link vectorBytes} counts them).
   * Equal to {@link PartCache.bytes} when every column has buffers of its own size, as
   * checkpoints and loads give them (compact-vector.ts). Walks every entry.
   */
  retainedBytes(): number {
    const vectors: Vector[] = []
    let lists = 0
    for (const e of this.entries.values()) {
      const v = e.owner.loaded?.(e.c)
      if (v === undefined) continue
      if (Array.isArray(v.data)) lists += vectorBytes(v)
      else vectors.push(v)
    }
    return lists + retainedBytes(vectors)
  }

  /** Stops accounting for every column of `owner` (it keeps them itself, or is gone). */
  forget(owner: Evictable, columns: number): void {
    for (let c = 0; c < columns; c++) {
      const k = this.key(owner, c)
      const e = this.entries.get(k)
      if (e === undefined) continue
      this.entries.delete(k)
      this.bytes -= e.bytes
    }
  }
}

/** Approximate bytes of a vector's values (typed arrays exactly, text by length). */
export function vectorBytes(v: Vector): number {
  if (v.data === null) return 0
  if (!Array.isArray(v.data)) return (v.data as Float64Array).byteLength
  let n = 0
  for (const x of v.data as unknown[]) n += 16 + (x == null ? 0 : (x as string | Uint8Array).length)
  return n
}
