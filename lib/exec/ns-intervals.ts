/**
 * Evaluates `ts IN '<interval>'` on TIMESTAMP_NS vectors (plan/bind-ns-interval.ts): each value
 * is split into microseconds and a 0-999 remainder (no BigInt per row) and compared with the
 * intervals' bounds split the same way.
 */
import type { Batch, BoolVector, I64Vector, Vector } from '../types/vector.js'
import { LONG_NULL } from '../types/column-type.js'
import { splitNs } from '../types/timestamp-ns.js'

/** An evaluator of `expr IN intervals` (`not` inverts it; a null is in no interval). */
export function compileNsInIntervals(inner: (b: Batch) => Vector, iv: Float64Array, not: boolean): (b: Batch) => BoolVector {
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
        for (let k = 0; k < iv.length && !hit; k += 4) {
          const lm = iv[k]!, ls = iv[k + 1]!, hm = iv[k + 2]!, hs = iv[k + 3]!
          hit = (m > lm || (m === lm && r >= ls)) && (m < hm || (m === hm && r <= hs))
        }
      }
      out[i] = hit !== not ? 1 : 0
    }
    return { kind: 'bool', type: 'BOOLEAN', length: n, data: out }
  }
}
