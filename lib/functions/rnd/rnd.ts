/**
 * QuestDB's random generator (`io.questdb.std.Rnd`), bit-exact.
 *
 * A xorshift128+ variant over two signed 64-bit words whose right shifts are arithmetic
 * (sign-extending). Each 64-bit word is kept as two Int32 halves so that the hot draws
 * (`nextInt`, `nextDouble`, ...) run on small integers without BigInt; only {@link Rnd.nextLong}
 * builds a bigint, for callers that need all 64 bits as one value.
 *
 * The default seeds are the Java *int* literals 0xdeadbeef and 0xdee4c0ed sign-extended to 64
 * bits, as in QuestDB's `new Rnd()` (which the test harness uses at the start of every test).
 *
 * Browser-safe: imports nothing from `node:*`.
 */

const TWO_32 = 4294967296
const DOUBLE_UNIT = 2 ** -53
const FLOAT_UNIT = 2 ** -24
const INT_MIN = -2147483648
const INT_MAX = 2147483647

/** The xorshift128+ generator of QuestDB, with its derived draws. */
export class Rnd {
  private s0h = 0
  private s0l = 0
  private s1h = 0
  private s1l = 0
  /** high 32 bits (signed) of the last raw draw, see {@link Rnd.nextLongHiLo} */
  hi = 0
  /** low 32 bits (signed) of the last raw draw, see {@link Rnd.nextLongHiLo} */
  lo = 0

  /** Seeds with (s0, s1), or with QuestDB's default seeds when none are given. */
  constructor(s0?: bigint | number, s1?: bigint | number) {
    if (s0 === undefined || s1 === undefined) this.resetDefault()
    else this.reset(s0, s1)
  }

  /** Re-seeds the generator with two signed 64-bit seeds. */
  reset(s0: bigint | number, s1: bigint | number): void {
    const a = BigInt.asIntN(64, BigInt(s0))
    const b = BigInt.asIntN(64, BigInt(s1))
    this.s0h = Number(BigInt.asIntN(32, a >> 32n))
    this.s0l = Number(BigInt.asIntN(32, a))
    this.s1h = Number(BigInt.asIntN(32, b >> 32n))
    this.s1l = Number(BigInt.asIntN(32, b))
  }

  /** Re-seeds with QuestDB's default seeds (0xdeadbeef, 0xdee4c0ed as sign-extended ints). */
  resetDefault(): void {
    this.s0h = -1
    this.s0l = 0xdeadbeef | 0
    this.s1h = -1
    this.s1l = 0xdee4c0ed | 0
  }

  /** Copies the state of `other`. */
  syncWith(other: Rnd): void {
    this.s0h = other.s0h
    this.s0l = other.s0l
    this.s1h = other.s1h
    this.s1l = other.s1l
  }

  /** The current seeds as bigints (for tests and diagnostics). */
  seeds(): [bigint, bigint] {
    const join = (h: number, l: number): bigint => BigInt.asIntN(64, (BigInt(h) << 32n) | BigInt(l >>> 0))
    return [join(this.s0h, this.s0l), join(this.s1h, this.s1l)]
  }

  /** Advances the generator; the 64-bit result is left in {@link Rnd.hi} / {@link Rnd.lo}. */
  nextLongHiLo(): void {
    // l1 = s0; l0 = s1; s0 = l0
    let ah = this.s0h
    let al = this.s0l
    const bh = this.s1h
    const bl = this.s1l
    this.s0h = bh
    this.s0l = bl
    // l1 ^= l1 << 23
    ah ^= (ah << 23) | (al >>> 9)
    al ^= al << 23
    // s1 = l1 ^ l0 ^ (l1 >> 17) ^ (l0 >> 26), arithmetic shifts
    const nh = ah ^ bh ^ (ah >> 17) ^ (bh >> 26)
    const nl = al ^ bl ^ ((al >>> 17) | (ah << 15)) ^ ((bl >>> 26) | (bh << 6))
    this.s1h = nh
    this.s1l = nl
    // return s1 + l0 (wrapping)
    const low = (nl >>> 0) + (bl >>> 0)
    this.lo = low | 0
    this.hi = (nh + bh + (low >= TWO_32 ? 1 : 0)) | 0
  }

  /** The next raw 64-bit value as a bigint (slow path; prefer {@link Rnd.nextLongHiLo}). */
  nextLong(): bigint {
    this.nextLongHiLo()
    return BigInt.asIntN(64, (BigInt(this.hi) << 32n) | BigInt(this.lo >>> 0))
  }

  /** The low 32 bits of the next draw, signed. */
  nextInt(): number {
    this.nextLongHiLo()
    return this.lo
  }

  /** |nextInt()|, with -2^31 mapped to 2^31-1. */
  nextPositiveInt(): number {
    this.nextLongHiLo()
    const n = this.lo
    return n > 0 ? n : n === INT_MIN ? INT_MAX : -n
  }

  /** `nextPositiveInt() % boundary`. */
  nextIntBounded(boundary: number): number {
    return this.nextPositiveInt() % boundary
  }

  /**
   * Draws `nextPositiveLong()` and leaves it in {@link Rnd.hi} / {@link Rnd.lo} (hi >= 0):
   * |nextLong()|, with -2^63 mapped to 2^63-1.
   */
  nextPositiveLongHiLo(): void {
    this.nextLongHiLo()
    const h = this.hi
    if (h >= 0) return
    if (h === INT_MIN && this.lo === 0) {
      this.hi = INT_MAX
      this.lo = -1
      return
    }
    // two's complement negation of (h, lo)
    const nl = (~this.lo + 1) | 0
    this.hi = (~h + (nl === 0 ? 1 : 0)) | 0
    this.lo = nl
  }

  /** `nextPositiveLong()` as a bigint. */
  nextPositiveLong(): bigint {
    this.nextPositiveLongHiLo()
    return (BigInt(this.hi) << 32n) | BigInt(this.lo >>> 0)
  }

  /**
   * `nextPositiveLong() % range` for a positive `range`, exact. Uses float arithmetic when
   * `range <= 2^37` (every intermediate stays below 2^53) and BigInt otherwise.
   */
  nextPositiveLongMod(range: number | bigint): number | bigint {
    if (typeof range === 'number' && range <= 137438953472) {
      this.nextPositiveLongHiLo()
      let t = this.hi % range
      t = (t * 65536) % range
      t = (t * 65536) % range
      return (t + (this.lo >>> 0)) % range
    }
    return this.nextPositiveLong() % BigInt(range)
  }

  /** The sign bit of the next draw. */
  nextBoolean(): boolean {
    this.nextLongHiLo()
    return this.hi < 0
  }

  /** The low 16 bits of the next draw, signed. */
  nextShort(): number {
    this.nextLongHiLo()
    return (this.lo << 16) >> 16
  }

  /** The low 8 bits of the next draw, signed. */
  nextByte(): number {
    this.nextLongHiLo()
    return (this.lo << 24) >> 24
  }

  /** A letter 'B'..'Z' as a UTF-16 code unit. */
  nextCharCode(): number {
    return 66 + (this.nextPositiveInt() % 25)
  }

  /** A string of `len` letters 'B'..'Z'. */
  nextChars(len: number): string {
    let s = ''
    for (let i = 0; i < len; i++) s += String.fromCharCode(66 + (this.nextPositiveInt() % 25))
    return s
  }

  /** The top `bits` bits of the low 48 bits of the next draw. */
  private nextBits48(bits: number): number {
    this.nextLongHiLo()
    const low48 = (this.hi & 0xffff) * TWO_32 + (this.lo >>> 0)
    return Math.floor(low48 / 2 ** (48 - bits))
  }

  /** A double in [0, 1) from two draws (26 + 27 bits). */
  nextDouble(): number {
    const a = this.nextBits48(26)
    const b = this.nextBits48(27)
    return (a * 134217728 + b) * DOUBLE_UNIT
  }

  /** A float in [0, 1) from 24 bits of one draw. */
  nextFloat(): number {
    return Math.fround(this.nextBits48(24) * FLOAT_UNIT)
  }

  /** QuestDB's null-rate gate: one `nextInt()` draw; true when `value % (rate + 1) == 1`. */
  nullGate(rate: number): boolean {
    this.nextLongHiLo()
    return this.lo % (rate + 1) === 1
  }

  /** QuestDB's `nextUtf8AsciiStr`: `len` printable ASCII characters (one draw each). */
  nextAsciiStr(len: number): string {
    let s = ''
    for (let i = 0; i < len; i++) s += String.fromCharCode(32 + (this.nextPositiveInt() % 95))
    return s
  }
}
