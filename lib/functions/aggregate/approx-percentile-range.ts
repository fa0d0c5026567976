/**
 * The covered range of QuestDB's auto-resizing double HdrHistogram (`PackedDoubleHistogram(1000,
 * precision)` with auto-resize, behind `approx_percentile` / `approx_median` of a DOUBLE), kept so
 * that a group refuses the same values QuestDB's histogram refuses, with its message.
 *
 * The histogram counts values as integers `v * h / lowest` (h = 2^hMag, the sub-bucket half count)
 * in a counts array covering integers below 2^bits. A value below `lowest` moves the range down
 * (the recorded integers shift left), one at or above `highest` moves it up (they shift right),
 * in steps capped by the configured highest-to-lowest ratio (1000, doubled on each growth). When
 * the recorded integers cannot shift (the largest would leave the array, or the smallest would
 * fall below h), the array grows by the step instead; past 2^63 it cannot, and the value is
 * refused: that is the dynamic range limit (about 2^(63 - hMag - 1) between a group's smallest and
 * largest positive values). Negative values, values above 2^1022 and tiny subnormal values (that
 * would take the range's lowest value to 0, where HdrHistogram's arithmetic breaks) are refused too.
 *
 * Only what decides those refusals is kept: the range, the array's size in bits, and the bit
 * lengths of the smallest and largest recorded integers (a shift by n octaves moves both by n).
 * The steps are QuestDB's, quirks included: a successful upward shift moves the range by twice
 * the step (its `shiftCoveredRangeToTheLeft` scales the range inside and after the shift).
 * The kernel replays values in row order; a parallel merge replays the other share's smallest
 * and largest values, so near the limit a parallel plan may differ from the sequential order.
 */
import { SqlError, SqlState } from '../../errors.js'
import { formatDouble } from '../../types/number-format.js'

/** QuestDB's `highestAllowedValueEver`: the first power of two at or above Double.MAX_VALUE / 4. */
const HIGHEST_ALLOWED = 2 ** 1022
/** The configured highest-to-lowest value ratio QuestDB's approx_percentile creates the histogram with. */
const INITIAL_RATIO = 1000
/** Range moves a single value may take before it is refused (a bound; real values need at most ~230). */
const MAX_STEPS = 4096

/** The exponent e with 2^e <= v < 2^(e+1), for a finite v > 0. */
function exponent(v: number): number {
  let e = Math.floor(Math.log2(v))
  if (2 ** e > v) e--
  else if (2 ** (e + 1) <= v) e++
  return e
}

/** Java's 64 - Long.numberOfLeadingZeros(n) for an integer 0 <= n < 2^63 given as a double. */
function bitLength(n: number): number {
  return n < 1 ? 0 : exponent(n) + 1
}

/** Java's Math.ulp for a positive finite double. */
function ulp(v: number): number {
  return 2 ** (Math.max(exponent(v), -1022) - 52)
}

/** A refusal inside the range machinery; the recorder wraps it in QuestDB's message. */
class Refused extends Error {}

/** One group's covered range (see the module comment). */
export class HistogramRange {
  private lowest = 2 ** 800
  private highest: number
  private ratio = INITIAL_RATIO
  /** the counts array covers integers below 2^bits */
  private bits: number
  /** bit lengths of the smallest and largest recorded non-zero integers (0: none recorded) */
  private minBits = 0
  private maxBits = 0
  /** integers v * toInteger in [minLow, maxHigh) leave minBits and maxBits as they are */
  private minLow = Infinity
  private maxHigh = 0
  /** the integer conversion ratio, h / lowest; infinite once the range sits among the subnormals */
  private toInteger: number
  /** the smallest and largest positive values recorded, for a merge */
  minValue = Infinity
  maxValue = 0

  /** `hMag`: log2 of the sub-bucket half count (10 at precision 3); `digits`: the precision. */
  constructor(private readonly hMag: number, private readonly digits: number) {
    const internal = 2 ** (bitLength(INITIAL_RATIO) + 1)
    this.highest = this.lowest * internal
    this.bits = bitLength(2 ** hMag * internal - 1)
    this.toInteger = 1 / (this.lowest / 2 ** hMag)
  }

  /** Recomputes what the range and the recorded bit lengths imply, after they change. */
  private sync(): void {
    this.toInteger = 1 / (this.lowest / 2 ** this.hMag)
    this.minLow = this.minBits === 0 ? Infinity : 2 ** (this.minBits - 1)
    this.maxHigh = 2 ** this.maxBits
  }

  /**
   * Moves the range to take `v` (finite) as QuestDB's histogram does, or throws its refusal
   * (22003, at `pos`).
   */
  record(v: number, pos: number): void {
    if (v === 0) return
    if (v < this.lowest || v >= this.highest || this.toInteger === Infinity) {
      try {
        this.adjust(v)
        this.sync()
        if (this.toInteger === Infinity) throw new Refused('Value outside of histogram covered range.')
      } catch (e) {
        this.sync()
        if (!(e instanceof Refused)) throw e
        let msg = `The value ${formatDouble(v)} is out of bounds for histogram, current covered range [${formatDouble(this.lowest)}, ${formatDouble(this.highest)}) cannot be extended any further.\nCaused by: ${e.message}`
        msg += '\nHint: Try normalizing your values to fit into the covered range'
        if (this.digits > 0) msg += '\nOr lower the histogram precision (for example, use approx_median(x, 0))'
        throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, msg, pos)
      }
    }
    if (v < this.minValue) this.minValue = v
    if (v > this.maxValue) this.maxValue = v
    const x = v * this.toInteger
    if (x >= this.minLow && x < this.maxHigh) return // the usual case: no new extreme bit length
    const bits = bitLength(Math.trunc(x))
    if (this.minBits === 0 || bits < this.minBits) this.minBits = bits
    if (bits > this.maxBits) this.maxBits = bits
    this.sync()
  }

  private adjust(v: number): void {
    let steps = 0
    if (v >= this.lowest && v < this.highest) return
    if (v < this.lowest) {
      if (v < 0) throw new Refused('Negative values cannot be recorded')
      do {
        if (++steps > MAX_STEPS) throw new Refused('Value outside of histogram covered range.')
        this.moveDown(this.cappedOrder(Math.ceil(this.lowest / v) - 1))
      } while (v < this.lowest)
    } else {
      if (v > HIGHEST_ALLOWED) throw new Refused(`Values above ${formatDouble(HIGHEST_ALLOWED)} cannot be recorded`)
      do {
        if (++steps > MAX_STEPS) throw new Refused('Value outside of histogram covered range.')
        this.moveUp(this.cappedOrder(Math.ceil((v + ulp(v)) / this.highest) - 1))
      } while (v >= this.highest)
    }
  }

  /** QuestDB's findCappedContainingBinaryOrderOfMagnitude. */
  private cappedOrder(x: number): number {
    if (x > this.ratio) return Math.trunc(Math.log(this.ratio) / Math.log(2))
    if (x > 2 ** 50) return 50
    return bitLength(Math.ceil(x))
  }

  /** The array grows by n octaves instead of a shift, or the value is refused. */
  private grow(n: number, why: string): void {
    if (this.bits + n > 63) {
      throw new Refused(`Cannot resize histogram covered range beyond (1L << 63) / (1L << ${this.hMag}) - 1.\nCaused by: ${why}`)
    }
    this.bits += n
    this.ratio *= 2 ** n
  }

  /** shiftCoveredRangeToTheRight: the range moves down n octaves, recorded integers shift left. */
  private moveDown(n: number): void {
    const m = 1 / 2 ** n
    let high = this.highest
    if (this.maxBits > 0) {
      if (this.maxBits + n > this.bits) {
        this.grow(n, 'Operation would overflow, would discard recorded value counts')
        high /= m
      }
      this.minBits += n
      this.maxBits += n
    }
    // a subnormal value can take the range below the smallest double: HdrHistogram cannot count it
    if (this.lowest * m === 0) throw new Refused('Value outside of histogram covered range.')
    this.lowest *= m
    this.highest = high * m
  }

  /** shiftCoveredRangeToTheLeft: the range moves up n octaves, recorded integers shift right. */
  private moveUp(n: number): void {
    const m = 2 ** n
    let low = this.lowest
    let high = this.highest
    if (this.maxBits > 0) {
      if (this.minBits >= this.hMag + 1 + n) {
        this.minBits -= n
        this.maxBits -= n
        // QuestDB scales the range here and again below
        low *= m
        high *= m
      } else {
        this.grow(n, 'Operation would underflow and lose precision of already recorded value counts')
        low /= m
      }
    }
    this.lowest = low * m
    this.highest = high * m
  }
}
