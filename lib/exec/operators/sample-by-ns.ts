/**
 * SAMPLE BY in nanosecond strides (`SAMPLE BY 100n`) over a TIMESTAMP_NS designated timestamp.
 * The bucket arithmetic of sample-by-buckets.ts runs on doubles, which cannot hold today's
 * nanosecond values exactly, so the timestamps are shifted first: nanoseconds past an origin (the
 * first row's bucket start, on the grid of the stride from the epoch plus WITH OFFSET, or the
 * first row under ALIGN TO FIRST OBSERVATION) are exact doubles for about 104 days past it. The
 * buckets are then plain `stride`-sized buckets from 0, FILL works unchanged on them, and the
 * bucket starts are shifted back to nanoseconds on the way out. The shift is done on each value's
 * split microseconds and remainder (no BigInt per row).
 */
import { SqlError, SqlState } from '../../errors.js'
import type { I64Vector, Vector } from '../../types/vector.js'
import { materialize } from '../../types/vector.js'
import { joinNs, nsParts, splitNs } from '../../types/timestamp-ns.js'
import type { SamplerSpec } from './sample-by-buckets.js'

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** A nanosecond SAMPLE BY's origin (found at the first row) and grid. */
export class NsShift {
  private originMicros = 0
  private originSub = 0
  private found = false

  /**
   * @param stride the bucket size in nanoseconds
   * @param offsetNs WITH OFFSET in nanoseconds (calendar alignment)
   * @param firstObservation whether buckets start at the first row
   */
  constructor(readonly stride: number, private readonly offsetNs: number, private readonly firstObservation: boolean) {}

  /** The sampler spec buckets use in shifted units: `stride`-sized buckets from 0. */
  spec(spec: SamplerSpec): SamplerSpec {
    return { ...spec, unit: 'U', firstObservation: false, timeZone: undefined, offset: 0, from: undefined }
  }

  /**
   * The timestamps of `v` (TIMESTAMP_NS) as nanoseconds past the origin, fixing the origin at the
   * first call. Throws 0A000 past the exact range of doubles.
   */
  shifted(v: Vector, n: number): Float64Array {
    const { micros, sub } = splitNs(materialize(v) as I64Vector, n)
    if (!this.found && n > 0) this.anchor(micros[0]!, sub[0]!)
    const out = new Float64Array(n)
    const om = this.originMicros, os = this.originSub
    for (let i = 0; i < n; i++) {
      const x = (micros[i]! - om) * 1000 + (sub[i]! - os)
      if (x > MAX_SAFE || x < -MAX_SAFE) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'SAMPLE BY in nanosecond units spans at most 104 days')
      out[i] = x
    }
    return out
  }

  private anchor(m: number, s: number): void {
    this.found = true
    if (this.firstObservation) { this.originMicros = m; this.originSub = s; return }
    // the bucket holding the first row, on the grid k * stride + offset from the epoch
    const ns = BigInt(m) * 1000n + BigInt(s)
    const stride = BigInt(this.stride), off = BigInt(this.offsetNs)
    let q = (ns - off) / stride
    if (q * stride > ns - off) q -= 1n
    const p = nsParts(q * stride + off)
    this.originMicros = p.micros
    this.originSub = p.sub
  }

  /** Bucket starts in shifted units as a TIMESTAMP_NS vector. */
  starts(shifted: Float64Array, length: number): Vector {
    const micros = new Float64Array(length)
    const sub = new Uint16Array(length)
    for (let i = 0; i < length; i++) {
      const t = shifted[i]! + this.originSub
      const q = Math.floor(t / 1000)
      micros[i] = this.originMicros + q
      sub[i] = t - q * 1000
    }
    return joinNs(micros, sub, length)
  }
}
