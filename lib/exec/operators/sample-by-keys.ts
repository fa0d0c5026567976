/**
 * Keyed SAMPLE BY: dense group ids for (bucket, key) pairs ({@link GroupTable}), the key ids
 * coming from the shared KeyIndex (exec/keys/key-index.ts). Within one bucket a key's group is found through
 * an array indexed by key id and stamped with the bucket, so ordered input never hashes a pair.
 * With one SYMBOL key ({@link GroupTable.assignSymbolRows}) the bucket, the key id and the
 * group come from one pass over the rows (TSBS double-groupby: hour x hostname).
 */
import type { BucketTable } from './sample-by-buckets.js'
import type { KeyIndex } from '../keys/key-index.js'
import type { SymbolTable } from '../../types/vector.js'

const KEY_SPACE = 2 ** 26

/** Dense group ids for (bucket ordinal, key id) pairs, with each group's bucket and key. */
export class GroupTable {
  bucketOf = new Int32Array(1024)
  keyOf = new Int32Array(1024)
  count = 0
  private slot = new Int32Array(64)
  private stamp = new Int32Array(64)
  private maxBucket = -1
  /** set once a row goes back to an earlier bucket (input not in timestamp order) */
  private pairs: Map<number, number> | undefined

  /** Writes the group of each row (bucket `buckets[i]`, key `keys[i]`) to `out`. */
  assign(buckets: Int32Array, keys: Int32Array, length: number, out: Int32Array): void {
    for (let i = 0; i < length; i++) {
      const b = buckets[i]!
      const k = keys[i]!
      if (this.pairs === undefined && b < this.maxBucket) this.enterMapMode()
      if (this.pairs !== undefined) { out[i] = this.pairGroup(b, k); continue }
      this.maxBucket = b
      if (k >= this.slot.length) this.growSlots(k + 1)
      if (this.stamp[k] === b + 1) { out[i] = this.slot[k]!; continue }
      const g = this.add(b, k)
      this.stamp[k] = b + 1
      this.slot[k] = g
      out[i] = g
    }
  }

  /**
   * Writes the group of each row to `out` in one pass, for one SYMBOL key: row i's bucket is
   * `buckets`' ordinal of `ts[i]` and its key the id `keys` gives symbol key `syms[i]` of `dict`
   * — the same groups (and bucket and key ids) as `buckets.assign`, `keys.assign` and
   * {@link assign} one after the other. False, with nothing done, when `keys` is not a
   * one-text-key index.
   */
  assignSymbolRows(ts: Float64Array, syms: Int32Array, dict: SymbolTable, length: number, buckets: BucketTable, keys: KeyIndex, out: Int32Array): boolean {
    let remap = keys.symbolRemap(dict)
    if (remap === undefined) return false
    if (this.slot.length < keys.count) this.growSlots(keys.count)
    let slot = this.slot, stamp = this.stamp
    let cur = buckets.cur, lo = buckets.lo, hi = buckets.hi
    for (let i = 0; i < length; i++) {
      const t = ts[i]!
      if (!(t < hi && t >= lo)) {
        cur = buckets.enter(t)
        lo = buckets.lo; hi = buckets.hi
        if (this.pairs === undefined && cur < this.maxBucket) this.enterMapMode()
        else if (this.pairs === undefined) this.maxBucket = cur
      }
      let k = remap[syms[i]! + 1]!
      if (k < 0) {
        k = keys.symbolId(dict, syms[i]!)
        remap = keys.symbolRemap(dict)!
        if (k >= slot.length) { this.growSlots(k + 1); slot = this.slot; stamp = this.stamp }
      }
      if (this.pairs !== undefined) { out[i] = this.pairGroup(cur, k); continue }
      if (stamp[k] === cur + 1) { out[i] = slot[k]!; continue }
      const g = this.add(cur, k)
      stamp[k] = cur + 1
      slot[k] = g
      out[i] = g
    }
    return true
  }

  /** The group of (bucket `b`, key `k`) once in map mode. */
  private pairGroup(b: number, k: number): number {
    const p = b * KEY_SPACE + k
    let g = this.pairs!.get(p)
    if (g === undefined) { g = this.add(b, k); this.pairs!.set(p, g) }
    return g
  }

  private add(b: number, k: number): number {
    if (this.count === this.bucketOf.length) {
      const nb = new Int32Array(this.count * 2); nb.set(this.bucketOf); this.bucketOf = nb
      const nk = new Int32Array(this.count * 2); nk.set(this.keyOf); this.keyOf = nk
    }
    this.bucketOf[this.count] = b
    this.keyOf[this.count] = k
    return this.count++
  }

  private growSlots(n: number): void {
    const size = Math.max(n, this.slot.length * 2)
    const s = new Int32Array(size); s.set(this.slot); this.slot = s
    const t = new Int32Array(size); t.set(this.stamp); this.stamp = t
  }

  private enterMapMode(): void {
    const pairs = new Map<number, number>()
    for (let g = 0; g < this.count; g++) pairs.set(this.bucketOf[g]! * KEY_SPACE + this.keyOf[g]!, g)
    this.pairs = pairs
  }
}
