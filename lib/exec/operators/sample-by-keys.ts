/**
 * Keyed SAMPLE BY: dense group ids for (bucket, key) pairs ({@link GroupTable}), the key ids
 * coming from the shared KeyIndex (exec/keys/key-index.ts). Within one bucket a key's group is found through
 * an array indexed by key id and stamped with the bucket, so ordered input never hashes a pair.
 */

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
      if (this.pairs !== undefined) {
        const p = b * KEY_SPACE + k
        let g = this.pairs.get(p)
        if (g === undefined) { g = this.add(b, k); this.pairs.set(p, g) }
        out[i] = g
        continue
      }
      this.maxBucket = b
      if (k >= this.slot.length) this.growSlots(k + 1)
      if (this.stamp[k] === b + 1) { out[i] = this.slot[k]!; continue }
      const g = this.add(b, k)
      this.stamp[k] = b + 1
      this.slot[k] = g
      out[i] = g
    }
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
