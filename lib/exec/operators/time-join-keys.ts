/**
 * Dense key ids for the time-series operators (ASOF / LT / SPLICE JOIN, LATEST ON): each distinct
 * key value gets a small integer id, so per-key state lives in typed arrays indexed by id.
 *
 * The same index serves both sides of a join, so equal values from the left and the right get
 * the same id. Nulls are a key of their own (QuestDB: `NULL = NULL` is true, reference §1.3).
 *
 * - no keys: every row is key 0;
 * - one text key (SYMBOL, STRING, VARCHAR): a symbol vector is mapped through a remap array per
 *   dictionary (the symbol int id, no string work per row); string vectors through a Map by
 *   value, so SYMBOL and STRING keys compare by value;
 * - one numeric key (not BigInt-backed): a Map on the number;
 * - anything else: a composite text key per row.
 */
import { type ColumnType, isText } from '../../types/column-type.js'
import { type Scalar, type Vector, getScalar, materialize } from '../../types/vector.js'
import { TextIds } from './text-ids.js'
import { objectKey } from '../../types/array.js'

/** Assigns dense key ids to rows. */
export interface KeyIndex {
  /** Writes the key id of rows [0, length) of `keys` into `out`. */
  assign(keys: readonly Vector[], length: number, out: Int32Array): void
  /** Number of ids handed out so far (ids are 0 .. count-1). */
  readonly count: number
}

/** A key index for keys of the given types (both sides of a join must use the same one). */
export function keyIndexFor(types: readonly ColumnType[]): KeyIndex {
  if (types.length === 0) return new NoKeys()
  if (types.length === 1 && isText(types[0]!)) return new TextKeys()
  if (types.length === 1 && types[0] !== 'LONG256' && types[0] !== 'UUID' && types[0] !== 'BINARY' && !isText(types[0]!, true)) return new NumberKeys()
  return new CompositeKeys(types.length)
}

class NoKeys implements KeyIndex {
  readonly count = 1
  assign(_keys: readonly Vector[], length: number, out: Int32Array): void {
    out.fill(0, 0, length)
  }
}

/** One text key: symbol ids through a remap per dictionary, strings by value. */
class TextKeys implements KeyIndex {
  private readonly ids = new TextIds()

  get count(): number {
    return this.ids.count
  }

  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    const v = materialize(keys[0]!)
    if (v.kind === 'sym') { this.ids.assignSymbols(v.data, v.dict, length, out); return }
    for (let i = 0; i < length; i++) out[i] = this.ids.idOf(getScalar(v, i) as string | null)
  }
}

/** One numeric key: a Map from the number (null sentinels and NaN included) to the id. */
class NumberKeys implements KeyIndex {
  private readonly map = new Map<number | bigint, number>()
  count = 0

  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    const v = materialize(keys[0]!)
    const d = v.data as ArrayLike<number | bigint> | null
    if (d === null) { out.fill(this.idOf(0), 0, length); return }
    const big = d instanceof BigInt64Array
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      out[i] = this.idOf(big && (x as bigint) >= -9007199254740991n && (x as bigint) <= 9007199254740991n ? Number(x) : x)
    }
  }

  private idOf(x: number | bigint): number {
    let g = this.map.get(x)
    if (g === undefined) {
      g = this.count++
      this.map.set(x, g)
    }
    return g
  }
}

/** Any keys: a composite text key per row (values compare by their scalar form). */
class CompositeKeys implements KeyIndex {
  private readonly map = new Map<string, number>()
  count = 0

  constructor(private readonly width: number) {}

  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    const vs = keys.map(materialize)
    for (let i = 0; i < length; i++) {
      let key = ''
      for (let k = 0; k < this.width; k++) key += part(getScalar(vs[k]!, i))
      let g = this.map.get(key)
      if (g === undefined) {
        g = this.count++
        this.map.set(key, g)
      }
      out[i] = g
    }
  }
}

function part(s: Scalar): string {
  if (s === null) return '\u0001\u0003'
  if (typeof s === 'object') return `\u0002${objectKey(s)}\u0003`
  return `${typeof s === 'bigint' ? 'number' : typeof s}:${String(s)}\u0003`
}
