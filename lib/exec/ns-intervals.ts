/**
 * Evaluates `ts IN '<interval>'` on TIMESTAMP_NS vectors (plan/bind-ns-interval.ts): each value
 * is split into microseconds and a 0-999 remainder (no BigInt per row) and compared with the
 * intervals' bounds split the same way, by a binary search over the sorted, disjoint intervals
 * (`types/timestamp-ns-interval.ts` normalizes them).
 */
import type { Batch, BoolVector, I64Vector, Vector } from '../types/vector.js'
import { LONG_NULL } from '../types/column-type.js'
import { splitNs } from '../types/timestamp-ns.js'

/** An evaluator of `expr IN intervals` (`not` inverts it; a null is in no interval). */
export function compileNsInIntervals(inner: (b: Batch) => Vector, iv: Float64Array, not: boolean): (b: Batch) => BoolVector {
  const count = iv.length >> 2
  return (b) => {
    const v = inner(b) as I64Vector
    const n = b.length
    const { micros, sub } = splitNs(v, n)
    const s = v.isConst === true ? 0 : 1
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) {
      const m = micros[i * s]!, r = sub[i * s]!
      let hit = false
      if (m !== LONG_NULL) {
        // the last interval starting at or before the value (they are sorted and disjoint)
        let a = 0, z = count - 1, at = -1
        while (a <= z) {
          const mid = (a + z) >> 1
          const lm = iv[4 * mid]!
          if (lm < m || (lm === m && iv[4 * mid + 1]! <= r)) { at = mid; a = mid + 1 } else z = mid - 1
        }
        if (at >= 0) { const hm = iv[4 * at + 2]!; hit = m < hm || (m === hm && r <= iv[4 * at + 3]!) }
      }
      out[i] = hit !== not ? 1 : 0
    }
    return { kind: 'bool', type: 'BOOLEAN', length: n, data: out }
  }
}
