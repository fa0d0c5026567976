/**
 * Keyed SAMPLE BY: dense ids for the non-timestamp keys ({@link KeyIndex}) and dense group ids
 * for (bucket, key) pairs ({@link GroupTable}). Within one bucket a key's group is found through
 * an array indexed by key id and stamped with the bucket, so ordered input never hashes a pair.
 */
import { LONG_NULL } from '../../types/column-type.js'
import { type Scalar, type SymbolTable, type Vector, VectorWriter, getScalar, materialize } from '../../types/vector.js'
import type { OutputColumn } from '../../plan/plan-node.js'
import { TextIds } from './text-ids.js'
import { objectKey } from '../../types/array.js'

/** Dense ids for key tuples in order of first appearance, and their values. */
export class KeyIndex {
  private readonly byText = new Map<string, number>()
  private readonly byNumber = new Map<number | bigint, number>()
  /** ids of a single SYMBOL key (this index then holds only symbol keys) */
  private readonly symbolIds = new TextIds()
  private readonly values: Scalar[][]
  count = 0

  constructor(private readonly width: number) {
    this.values = Array.from({ length: width }, () => [])
  }

  /** Writes the key id of rows 0..length-1 to `out`. */
  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    const vs = keys.map(materialize)
    const v = vs[0]!
    if (this.width === 1 && v.kind === 'sym') return this.assignSymbol(v.data, v.dict, length, out)
    if (this.width === 1 && v.kind === 'i64' && v.data instanceof BigInt64Array) {
      // 64-bit keys beyond 2^53 in this batch: exact keys (safe ones stay numbers, as in other batches)
      for (let i = 0; i < length; i++) {
        const s = getScalar(v, i)
        const x = s === null ? LONG_NULL : (s as number | bigint)
        let id = this.byNumber.get(x)
        if (id === undefined) id = this.add(this.byNumber, x, [s])
        out[i] = id
      }
      return
    }
    if (this.width === 1 && (v.kind === 'f64' || v.kind === 'i32' || v.kind === 'i16' || v.kind === 'i8' || v.kind === 'i64')) {
      const d = v.data as Float64Array
      for (let i = 0; i < length; i++) {
        let x = d[i]!
        if (x !== x) x = LONG_NULL
        let id = this.byNumber.get(x)
        if (id === undefined) id = this.add(this.byNumber, x, [getScalar(v, i)])
        out[i] = id
      }
      return
    }
    const parts: Scalar[] = new Array(this.width)
    for (let i = 0; i < length; i++) {
      let text = ''
      for (let k = 0; k < this.width; k++) {
        const s = getScalar(vs[k]!, i)
        parts[k] = s
        text += s === null ? '\u0001' : typeof s === 'object' ? `\u0002${objectKey(s)}` : `\u0000${typeof s}:${String(s)}`
        text += '\u0003'
      }
      let id = this.byText.get(text)
      if (id === undefined) id = this.add(this.byText, text, parts)
      out[i] = id
    }
  }

  private assignSymbol(d: Int32Array, dict: SymbolTable, length: number, out: Int32Array): void {
    const ids = this.symbolIds
    const before = ids.count
    ids.assignSymbols(d, dict, length, out)
    for (let id = before; id < ids.count; id++) this.values[0]!.push(ids.values[id]!)
    this.count = ids.count
  }

  private add<K>(map: Map<K, number>, key: K, parts: readonly Scalar[]): number {
    const id = this.count++
    map.set(key, id)
    for (let k = 0; k < this.width; k++) this.values[k]!.push(parts[k]!)
    return id
  }

  /** Key column `k` as a vector indexed by key id. */
  vector(k: number, col: OutputColumn): Vector {
    const w = new VectorWriter(col.type, this.count, col.dict)
    const vs = this.values[k]!
    for (let i = 0; i < this.count; i++) w.set(i, vs[i]!)
    return w.finish()
  }
}

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
