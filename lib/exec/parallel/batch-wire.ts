/**
 * Batches crossing a thread boundary: symbol dictionaries travel as their string values and are
 * rebuilt on the other side (structured clone does not keep class instances).
 */
import { type Batch, type Vector, SymbolTable } from '../../types/vector.js'

/** A batch in structured-cloneable form. */
export interface WireBatch {
  readonly length: number
  readonly vectors: readonly (Vector | { readonly sym: true; readonly type: 'SYMBOL'; readonly length: number; readonly data: Int32Array; readonly values: readonly string[] })[]
}

/** A batch in a form that survives structured clone (symbol dictionaries as arrays). */
export function toWireBatch(b: Batch): WireBatch {
  return {
    length: b.length,
    vectors: b.vectors.map((v) => (v.kind === 'sym' ? { sym: true as const, type: 'SYMBOL' as const, length: v.length, data: v.data, values: v.dict.values } : v)),
  }
}

/** The batch back from its wire form, with symbol dictionaries rebuilt. */
export function fromWireBatch(w: WireBatch): Batch {
  return {
    length: w.length,
    vectors: w.vectors.map((v): Vector => {
      if ('sym' in v) {
        const dict = new SymbolTable()
        for (const s of v.values) dict.intern(s)
        return { kind: 'sym', type: 'SYMBOL', length: v.length, data: v.data, dict }
      }
      return v
    }),
  }
}
