/**
 * Dense ids for text keys (GROUP BY, SAMPLE BY and join keys). Symbol columns arrive as int keys
 * into a dictionary: each dictionary gets a remap array from symbol key to id, so the hot loop
 * is one array read per row; the string itself is looked up only the first time a symbol key is
 * seen. Plain strings go straight to the value map. Ids are unified by value across
 * dictionaries (two SYMBOL columns, or computed symbols, with different dictionaries).
 */
import type { SymbolTable } from '../../types/vector.js'

/** Dense ids for text values, from symbol keys (via per-dictionary remaps) or strings. */
export class TextIds {
  private readonly byValue = new Map<string | null, number>()
  private readonly remaps = new Map<SymbolTable, Int32Array>()
  /** the value of each id */
  readonly values: (string | null)[] = []

  /** Number of ids handed out. */
  get count(): number {
    return this.values.length
  }

  /** The id of `value` (null included), assigned on first sight. */
  idOf(value: string | null): number {
    let id = this.byValue.get(value)
    if (id === undefined) {
      id = this.values.length
      this.byValue.set(value, id)
      this.values.push(value)
    }
    return id
  }

  /** Writes the id of each of `length` symbol keys of `dict` (-1 = null) to `out`. */
  assignSymbols(keys: Int32Array, dict: SymbolTable, length: number, out: Int32Array): void {
    const remap = this.remapOf(dict)
    for (let i = 0; i < length; i++) {
      const k = keys[i]! + 1
      let id = remap[k]!
      if (id < 0) id = this.symbolId(dict, k - 1)
      out[i] = id
    }
  }

  /**
   * The remap array of `dict`: at symbol key + 1 (0: null) the key's id, or -1 before
   * {@link symbolId} gives it one. Covers every key `dict` holds now.
   */
  remapOf(dict: SymbolTable): Int32Array {
    let remap = this.remaps.get(dict)
    if (remap === undefined || remap.length < dict.size + 1) {
      const next = new Int32Array(Math.max((remap?.length ?? 32) * 2, dict.size + 1)).fill(-1)
      if (remap !== undefined) next.set(remap)
      remap = next
      this.remaps.set(dict, remap)
    }
    return remap
  }

  /** The id of symbol key `key` of `dict` (-1 = null), given on first sight and kept in its remap. */
  symbolId(dict: SymbolTable, key: number): number {
    const remap = this.remapOf(dict)
    let id = remap[key + 1]!
    if (id < 0) {
      id = this.idOf(key < 0 ? null : dict.values[key]!)
      remap[key + 1] = id
    }
    return id
  }
}
