/**
 * Dense ids for key tuples — the one owner of "which group / which key is this row" for GROUP BY,
 * SAMPLE BY, LATEST ON, the time joins (ASOF / LT / SPLICE) and the merge of parallel partial
 * aggregations. Ids are handed out 0, 1, 2, ... in order of first appearance, and the same index
 * can serve several inputs (both sides of a join, the shares of a parallel aggregation): equal
 * values get the same id whatever vector carries them. Nulls are a key of their own.
 *
 * Fast paths, chosen per batch from the key vectors:
 * - no keys: every row is key 0 (count is 1 from the start);
 * - one text key: a SYMBOL vector maps through a remap array per dictionary (no string work per
 *   row, {@link TextIds}); STRING / VARCHAR values go through the same ids by value;
 * - one numeric key: a Map on the number, integer keys through a direct-mapped cache in front of
 *   it ({@link DenseIntIds}: one array read per row for keys in a compact range); a 64-bit key whose first batch is a TIMESTAMP_NS or holds
 *   values past 2^53 goes to {@link I64Ids} (a hash table over the values' 32-bit halves, no
 *   BigInt per row) for every batch after;
 * - anything else: a composite text key per row ({@link rowKey}).
 */
import { LONG_NULL } from '../../types/column-type.js'
import { type Scalar, type SymbolTable, type Vector, VectorWriter, getScalar, materialize } from '../../types/vector.js'
import type { OutputColumn } from '../../plan/plan-node.js'
import { BOXED_BYTES, MAP_ENTRY_BYTES } from '../memory.js'
import { TextIds } from './text-ids.js'
import { I64Ids } from './i64-ids.js'
import { keyPart } from './row-key.js'
import { DenseIntIds, type IntKeyData } from './dense-int-ids.js'

/** Dense ids for key tuples in order of first appearance, and (optionally) their values. */
export class KeyIndex {
  private readonly byText = new Map<string, number>()
  private readonly byNumber = new Map<number | bigint, number>()
  /** ids of a single text key (this index then holds only text keys) */
  private readonly textIds = new TextIds()
  /** ids of a single 64-bit key, once chosen (this index then holds only those) */
  private i64: I64Ids | undefined
  /** the direct-mapped cache of a single integer key's ids, once met */
  private dense: DenseIntIds | undefined
  private readonly values: Scalar[][] | undefined
  /** characters of the composite text keys, for {@link bytes} */
  private chars = 0
  /** number of ids handed out (ids are 0 .. count-1) */
  count: number

  /**
   * @param width the number of key columns
   * @param keepValues whether to keep each id's key values (for {@link vector}); the time
   *   operators only need the ids
   */
  constructor(private readonly width: number, keepValues = true) {
    this.values = keepValues ? Array.from({ length: width }, () => []) : undefined
    this.count = width === 0 ? 1 : 0
  }

  /** Writes the key id of rows 0..length-1 of `keys` to `out`. */
  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    if (this.width === 0) { out.fill(0, 0, length); return }
    const vs = keys.map(materialize)
    const v = vs[0]!
    if (this.width === 1 && v.kind === 'sym') return this.assignSymbol(v.data, v.dict, length, out)
    if (this.width === 1 && v.kind === 'str') {
      for (let i = 0; i < length; i++) out[i] = this.textId(v.data[i] ?? null)
      return
    }
    if (this.width === 1 && v.kind === 'i64' && (this.i64 !== undefined || (this.count === 0 && (v.type === 'TIMESTAMP_NS' || v.data instanceof BigInt64Array)))) {
      this.i64 ??= new I64Ids()
      this.i64.assign(v, length, out)
      this.count = this.i64.count
      return
    }
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
    if (this.width === 1 && (v.kind === 'i32' || v.kind === 'i16' || v.kind === 'i8' || v.kind === 'i64')) {
      // integer keys: a direct-mapped cache in front of the Map (dense-int-ids.ts)
      const map = this.byNumber
      this.dense ??= new DenseIntIds()
      this.dense.assign(v.data as IntKeyData, length, out, this.count, (x, i) => {
        if (x !== x) x = LONG_NULL
        return map.get(x) ?? this.add(map, x, [getScalar(v, i)])
      })
      return
    }
    if (this.width === 1 && v.kind === 'f64') {
      const d = v.data
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
        text += keyPart(s)
      }
      let id = this.byText.get(text)
      if (id === undefined) { id = this.add(this.byText, text, parts); this.chars += text.length }
      out[i] = id
    }
  }

  private assignSymbol(d: Int32Array, dict: SymbolTable, length: number, out: Int32Array): void {
    const ids = this.textIds
    const before = ids.count
    ids.assignSymbols(d, dict, length, out)
    this.tookTextIds(before)
  }

  /**
   * For one SYMBOL key: the remap array of `dict` ({@link TextIds.remapOf}: at symbol key + 1
   * the key's id, -1 when not seen yet; {@link symbolId} fills it), so a caller's own row loop
   * reads ids with one array read; undefined when this index is not a one-text-key index.
   */
  symbolRemap(dict: SymbolTable): Int32Array | undefined {
    if (this.width !== 1 || this.i64 !== undefined || this.byNumber.size > 0) return undefined
    return this.textIds.remapOf(dict)
  }

  /** The id of symbol key `key` of `dict` (-1 = null) in a one-text-key index, given on first sight. */
  symbolId(dict: SymbolTable, key: number): number {
    const before = this.textIds.count
    const id = this.textIds.symbolId(dict, key)
    if (this.textIds.count !== before) this.tookTextIds(before)
    return id
  }

  private textId(s: string | null): number {
    const before = this.textIds.count
    const id = this.textIds.idOf(s)
    if (this.textIds.count !== before) this.tookTextIds(before)
    return id
  }

  /** Records the values of text ids handed out since `before`. */
  private tookTextIds(before: number): void {
    const ids = this.textIds
    if (this.values !== undefined) for (let id = before; id < ids.count; id++) this.values[0]!.push(ids.values[id]!)
    this.count = ids.count
  }

  private add<K>(map: Map<K, number>, key: K, parts: readonly Scalar[]): number {
    const id = this.count++
    map.set(key, id)
    if (this.values !== undefined) for (let k = 0; k < this.width; k++) this.values[k]!.push(parts[k]!)
    return id
  }

  /** Key column `k` as a vector indexed by key id (needs `keepValues`). */
  vector(k: number, col: Pick<OutputColumn, 'type' | 'dict'>): Vector {
    if (this.i64 !== undefined && this.values !== undefined) return this.i64.vector(col.type)
    const w = new VectorWriter(col.type, this.count, col.dict)
    const vs = this.values?.[k] ?? []
    for (let i = 0; i < this.count; i++) w.set(i, vs[i] ?? null)
    return w.finish()
  }

  /** Estimated bytes the index holds: its map entries, the key values, the composite keys' text. */
  get bytes(): number {
    if (this.i64 !== undefined) return this.i64.bytes
    return this.count * (MAP_ENTRY_BYTES + 8 + this.width * (8 + BOXED_BYTES)) + this.chars * 2 + (this.dense?.bytes ?? 0)
  }
}
