/**
 * Runs a string predicate over a text vector into a BOOLEAN vector. A null value never
 * matches. For SYMBOL vectors the predicate runs once per dictionary key (cached across
 * batches), then rows are answered by key lookup.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { BoolVector, SymbolTable, Vector } from '../../types/vector.js'
import { boolConst, boolOut, textAt } from '../kernel-helpers.js'

/** A compiled string predicate. */
export type Matcher = (s: string) => boolean

/** Per-call cache of predicate results by symbol key. */
export interface SymMatchCache {
  dict: SymbolTable | undefined
  /** -1 unknown, 0 no, 1 yes */
  results: Int8Array
  matcher: Matcher | undefined
}

/** An empty cache. */
export function newSymMatchCache(): SymMatchCache {
  return { dict: undefined, results: new Int8Array(0), matcher: undefined }
}

/** Applies `m` to every row of `v` (STRING, VARCHAR, SYMBOL, CHAR); `negate` flips non-null results. */
export function matchVector(v: Vector, n: number, m: Matcher, negate: boolean, cache: SymMatchCache): BoolVector {
  const hit = negate ? 0 : 1
  if (v.isConst === true) {
    const s = textAt(v, 0)
    return boolConst(s !== null && m(s) === !negate, n)
  }
  const out = boolOut(n), o = out.data
  if (v.kind === 'sym') {
    const dict = v.dict
    if (cache.dict !== dict || cache.matcher !== m) {
      cache.dict = dict
      cache.matcher = m
      cache.results = new Int8Array(dict.size).fill(-1)
    }
    if (cache.results.length < dict.size) {
      const grown = new Int8Array(dict.size).fill(-1)
      grown.set(cache.results)
      cache.results = grown
    }
    const r = cache.results, d = v.data, values = dict.values
    for (let i = 0; i < n; i++) {
      const k = d[i]!
      if (k < 0) continue
      let x = r[k]!
      if (x < 0) { x = m(values[k]!) ? 1 : 0; r[k] = x }
      o[i] = x === 1 ? hit : 1 - hit
    }
    return out
  }
  if (v.kind === 'str') {
    const d = v.data
    for (let i = 0; i < n; i++) { const s = d[i]!; if (s !== null) o[i] = m(s) ? hit : 1 - hit }
    return out
  }
  for (let i = 0; i < n; i++) { const s = textAt(v, i); if (s !== null) o[i] = m(s) ? hit : 1 - hit }
  return out
}
