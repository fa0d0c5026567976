/**
 * SAMPLE BY in nanosecond strides (`SAMPLE BY 100n`) over a TIMESTAMP_NS designated timestamp.
 * The bucket arithmetic of sample-by-buckets.ts runs on doubles, which cannot hold today's
 * nanosecond values exactly, so each row is mapped to its bucket's number instead: `k` such that
 * the row lies in `[origin + k * stride, origin + (k + 1) * stride)`, an exact integer double. The
 * origin is FROM (under TIME ZONE, FROM as local time) plus WITH OFFSET; else the first row's bucket
 * on the grid of the stride from the epoch plus WITH OFFSET (minus the zone's standard offset under
 * TIME ZONE, as sub-day microsecond strides do); else, under ALIGN TO FIRST OBSERVATION, the first
 * row. The generic machinery then sees buckets of size 1 from 0: FILL (also FROM-TO ranges) works
 * unchanged on them, and bucket numbers are turned back into nanoseconds on the way out.
 *
 * The division is done on each value's split microseconds and remainder (no BigInt per row), so any
 * span works as long as bucket numbers stay below 2^53 (with `1n` about 104 days, with `1000n`
 * longer than TIMESTAMP_NS's range). Past that (strides below ~2 µs over long spans) a query
 * without FILL goes on with dense bucket numbers: each new bucket, met in time order, takes the
 * next number after every earlier one and its start is kept in a table; FILL, which needs the
 * gaps, and input out of time order are refused there (0A000). FROM-TO clipping compares the split
 * values, exactly.
 */
import { SqlError, SqlState } from '../../errors.js'
import { type Batch, type I64Vector, type Scalar, type Vector, materialize } from '../../types/vector.js'
import { joinNs, nsParts, splitNs } from '../../types/timestamp-ns.js'
import { localToUtc } from '../../types/time-zone.js'
import { type SamplerSpec, standardOffset } from './sample-by-buckets.js'
import { clipWhere } from './sample-by-clip.js'

const MAX_SAFE = Number.MAX_SAFE_INTEGER
/** Below this many microseconds from the origin, `micros * 1000 + sub` is an exact double. */
const FAST = 4e12

/** What a nanosecond SAMPLE BY needs beyond its sampler spec: stride, FROM and TO in nanoseconds. */
export interface NsSampleArgs {
  /** the bucket size in nanoseconds */
  readonly stride: number
  /** the evaluated sampler spec (microsecond offset, time zone, alignment; its `from` is ignored) */
  readonly spec: SamplerSpec
  /** FROM as TIMESTAMP_NS (local time under TIME ZONE), or null */
  readonly from: Scalar
  /** TO as TIMESTAMP_NS (local time under TIME ZONE), or null */
  readonly to: Scalar
  /** whether the query fills (bucket numbers must then keep the gaps) */
  readonly fill: boolean
}

/** A split nanosecond value: whole microseconds and the 0–999 remainder. */
interface Split { readonly micros: number; readonly sub: number }

/** A nanosecond SAMPLE BY's origin (found at FROM or at the first row), bounds and bucket numbers. */
export class NsShift {
  readonly stride: number
  private originMicros = 0
  private originSub = 0
  private found = false
  /** the stride as `hi * 1000 + lo` nanoseconds */
  private readonly sh: number
  private readonly sl: number
  private readonly lo: Split | undefined
  private readonly hi: Split | undefined
  /** the remainder of the last {@link divide} */
  private rem = 0
  /** the largest bucket number given so far */
  private maxK = -Infinity
  /** past 2^53 buckets: the first dense bucket number, and the dense buckets' starts */
  private denseBase = Infinity
  private readonly denseMicros: number[] = []
  private readonly denseSub: number[] = []

  constructor(private readonly args: NsSampleArgs) {
    this.stride = args.stride
    this.sh = Math.floor(args.stride / 1000)
    this.sl = args.stride - this.sh * 1000
    const tz = args.spec.timeZone
    const utc = (v: Scalar): Split | undefined => {
      if (v === null) return undefined
      const p = nsParts(v as number | bigint)
      return tz === undefined ? p : { micros: localToUtc(tz, p.micros), sub: p.sub }
    }
    this.lo = utc(args.from)
    this.hi = utc(args.to)
    // FROM fixes the grid before any row: FILL over FROM-TO needs it even with no rows
    if (this.lo !== undefined) this.setOrigin(this.lo.micros, this.lo.sub, args.spec.offset * 1000)
  }

  /** The sampler spec buckets use in shifted units: buckets of size 1 from 0. */
  spec(spec: SamplerSpec): SamplerSpec {
    return { ...spec, unit: 'U', stride: 1, firstObservation: false, timeZone: undefined, offset: 0, from: undefined }
  }

  /** Rows of `b` whose timestamp (column `col`) is in [FROM, TO), compared at nanosecond precision. */
  clip(b: Batch, col: number): Batch {
    const { lo, hi } = this
    if ((lo === undefined && hi === undefined) || b.length === 0) return b
    const { micros, sub } = splitNs(materialize(b.vectors[col]!) as I64Vector, b.length)
    return clipWhere(b, (i) => {
      const m = micros[i]!, s = sub[i]!
      if (lo !== undefined && (m < lo.micros || (m === lo.micros && s < lo.sub))) return false
      return hi === undefined || m < hi.micros || (m === hi.micros && s < hi.sub)
    })
  }

  /**
   * FROM / TO as bucket numbers for the fill: the bucket holding FROM, and one past the last bucket
   * starting before TO. Undefined where absent (or, for TO, when no row fixed the origin).
   */
  bounds(): { lo: number | undefined; hi: number | undefined } {
    const lo = this.lo === undefined ? undefined : this.divide(this.lo.micros, this.lo.sub)
    let hi: number | undefined
    if (this.hi !== undefined && this.found) {
      hi = this.divide(this.hi.micros, this.hi.sub)
      if (this.rem > 0) hi++
    }
    return { lo, hi }
  }

  /** The bucket number of each timestamp of `v` (TIMESTAMP_NS), fixing the origin at the first call. */
  shifted(v: Vector, n: number): Float64Array {
    const { micros, sub } = splitNs(materialize(v) as I64Vector, n)
    if (!this.found && n > 0) this.anchor(micros[0]!, sub[0]!)
    const out = new Float64Array(n)
    const om = this.originMicros, os = this.originSub, s = this.stride
    let maxK = this.maxK
    for (let i = 0; i < n; i++) {
      if (this.denseBase !== Infinity) { out[i] = this.dense(micros[i]!, sub[i]!); continue }
      const d = micros[i]! - om
      let q: number
      if (d < FAST && d > -FAST) {
        // exact: |x| < 4e15, and q * s stays within a stride of x
        const x = d * 1000 + (sub[i]! - os)
        q = Math.floor(x / s)
        const r = x - q * s
        if (r < 0) q--
        else if (r >= s) q++
      } else {
        q = this.divide(micros[i]!, sub[i]!)
        if (Number.isNaN(q)) { this.maxK = maxK; out[i] = this.dense(micros[i]!, sub[i]!); continue }
      }
      if (q > maxK) maxK = q
      out[i] = q
    }
    if (this.denseBase === Infinity) this.maxK = maxK
    return out
  }

  /**
   * The dense bucket number of a row past 2^53 buckets from the origin: the current dense bucket,
   * or a new one after every number given so far (rows must come in time order).
   */
  private dense(m: number, s: number): number {
    const count = this.denseMicros.length
    if (count > 0) {
      const cm = this.denseMicros[count - 1]!, cs = this.denseSub[count - 1]!
      // ns - start, exact: the micros differ by little when it is within a bucket (stride < 2048 here)
      const dm = m - cm
      if (dm >= -1 && dm <= 4) {
        const x = dm * 1000 + s - cs
        if (x >= 0 && x < this.stride) return this.denseBase + count - 1
        if (x < 0) throw this.unordered()
      } else if (dm < 0) throw this.unordered()
    } else {
      this.denseBase = Math.max(this.maxK, -1) + 1
    }
    // the bucket start: ns - ((ns - origin) mod stride), from split parts (the stride is below 2048)
    const st = this.stride
    const d = m - this.originMicros
    let dq = Math.floor(d / st)
    let dr = d - dq * st
    if (dr < 0) { dq--; dr += st } else if (dr >= st) { dq++; dr -= st }
    let r = (dr * (1000 % st) + s - this.originSub) % st
    if (r < 0) r += st
    let sm = m, ss = s - r
    while (ss < 0) { ss += 1000; sm-- }
    this.denseMicros.push(sm)
    this.denseSub.push(ss)
    return this.denseBase + count
  }

  private unordered(): SqlError {
    return new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `SAMPLE BY ${this.stride}n over more than 2^53 buckets needs its rows in time order`)
  }

  /**
   * floor((ns - origin) / stride) of `micros * 1000 + sub`, exactly, from split parts; the
   * remainder is left in `rem`. Past 2^53 buckets: NaN without FILL (the caller goes dense), else
   * 0A000.
   */
  private divide(micros: number, sub: number): number {
    const s = this.stride, sh = this.sh, sl = this.sl
    const d = micros - this.originMicros
    const e = sub - this.originSub
    let q = Math.floor((d * 1000 + e) / s)
    if (!(Math.abs(q) < MAX_SAFE - 16)) {
      // past 2^53 buckets after the origin: dense numbers go on (before it: input out of order)
      if (!this.args.fill && q > 0) return NaN
      if (!this.args.fill) throw this.unordered()
      throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `SAMPLE BY ${s}n with FILL spans more than 2^53 buckets; use a larger stride or a narrower time range`)
    }
    // q * s = (q * sh + qh * sl) * 1000 + ql * sl with every product below 2^53
    const qh = Math.floor(q / 1000), ql = q - qh * 1000
    let r = (d - q * sh - qh * sl) * 1000 + e - ql * sl
    while (r < 0) { q--; r += s }
    while (r >= s) { q++; r -= s }
    this.rem = r
    return q
  }

  private anchor(m: number, s: number): void {
    const spec = this.args.spec
    if (spec.firstObservation) { this.setOrigin(m, s, 0); return }
    // the bucket holding the first row, on the grid k * stride + offset from the epoch; under TIME
    // ZONE shifted by the zone's standard offset, as sub-day microsecond strides are (makeSampler)
    const off = BigInt(spec.offset) * 1000n - (spec.timeZone === undefined ? 0n : BigInt(standardOffset(spec.timeZone, m)) * 1000n)
    const ns = BigInt(m) * 1000n + BigInt(s)
    const stride = BigInt(this.stride)
    let q = (ns - off) / stride
    if (q * stride > ns - off) q -= 1n
    const p = nsParts(q * stride + off)
    this.setOrigin(p.micros, p.sub, 0)
  }

  private setOrigin(m: number, s: number, offsetNs: number): void {
    this.found = true
    const p = nsParts(BigInt(m) * 1000n + BigInt(s) + BigInt(offsetNs))
    this.originMicros = p.micros
    this.originSub = p.sub
  }

  /** Bucket numbers as a TIMESTAMP_NS vector of the buckets' starts. */
  starts(shifted: Float64Array, length: number): Vector {
    const micros = new Float64Array(length)
    const sub = new Uint16Array(length)
    const om = this.originMicros, os = this.originSub, sh = this.sh, sl = this.sl
    for (let i = 0; i < length; i++) {
      const k = shifted[i]!
      if (k >= this.denseBase) { micros[i] = this.denseMicros[k - this.denseBase]!; sub[i] = this.denseSub[k - this.denseBase]!; continue }
      // origin + k * stride = om + k * sh + kh * sl (µs) + os + kl * sl (ns), k = kh * 1000 + kl
      const kh = Math.floor(k / 1000), kl = k - kh * 1000
      const t = os + kl * sl
      const c = Math.floor(t / 1000)
      micros[i] = om + k * sh + kh * sl + c
      sub[i] = t - c * 1000
    }
    return joinNs(micros, sub, length)
  }
}
