/**
 * Perfect-hash grouping for GROUP BY on one integer key (INT, SHORT, BYTE, LONG and other 64-bit
 * values held as safe integers) or SYMBOL key with a small range (as DuckDB's perfect hash
 * aggregate): a batch whose every key is a value in [base, base + {@link PERFECT_SPAN}) already
 * known to the {@link KeyIndex} skips the id assignment altogether and folds into a second set of
 * kernels whose group ids are `value - base` (or the symbol key). With base 0 (an INT key whose
 * first batch held only values in [0, PERFECT_SPAN)) the key column's own `Int32Array` is handed
 * to the kernels as the group ids, so the batch costs one check loop (a compare and a table read
 * per row) and the kernels' update loops; otherwise (negative keys, LONG keys such as
 * 10^12 + k, SHORT / BYTE keys) the check loop also writes `value - base` to one reused `Int32Array`.
 *
 * `base` is set from the first ordinary batch's keys (0 when they fit [0, PERFECT_SPAN), else
 * their minimum) and moves down when a later ordinary batch brings a smaller key while the whole
 * range still fits the span (the perfect kernels are empty then: every ordinary batch is preceded
 * by a flush). A null INT / LONG key, once the ordinary path has seen one, folds at the slot past
 * the covered keys (the batch's slots then copied), so rare nulls do not send every batch to
 * the id assignment. A null SYMBOL key still does (its batch takes the ordinary path).
 *
 * The first batches (new keys), and any batch with another null key, a key outside the span or a
 * key not seen yet, take the ordinary path ({@link KeyIndex.assign} + the ordinary kernels),
 * which hands out ids in order of first appearance as before; {@link PerfectGroups.note} then
 * records the ids of that batch's integer keys. Before every ordinary batch and at the end, the
 * rows folded by key value are merged into the ordinary kernels ({@link PerfectGroups.flush}),
 * so the ordinary kernels see every row in row order: first / last stay exact, and so does any
 * aggregate whose merge is exact. A double sum's running totals are moved to the perfect kernels
 * before their first batch and merged back (added to 0) at the flush, so each group still adds its
 * rows to one total in row order. Only such aggregates take this path ({@link perfectAggregate}).
 */
import type { Vector, SymbolTable } from '../../types/vector.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { BoundAggregate } from '../../plan/plan-node.js'
import { isDecimal } from '../../types/decimal.js'
import type { KeyIndex } from './key-index.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { pairMinMax, type MinMaxPair } from '../../functions/aggregate/fused-min-max.js'
import { DoubleSumKernel } from '../../functions/aggregate/double-sum.js'
import { LongSumKernel } from '../../functions/aggregate/long-sum.js'

/** Batches folded through perfect groups since the process started (for tests and benches). */
export const PERFECT_STATS = { batches: 0 }

/** Key values a perfect kernel set covers: [0, PERFECT_SPAN). */
export const PERFECT_SPAN = 65_536

/**
 * Whether `a` (with ordinary kernel `k`) may fold through perfect groups: its merge is exact and
 * in row order (`count`, `min`, `max`, DECIMAL `sum` / `avg`, the exact integer `sum` of INT /
 * LONG ({@link LongSumKernel}), `first` / `last` and their `_not_null` forms), or it is a double
 * `sum` / `avg` ({@link DoubleSumKernel}), whose running
 * totals move to the perfect kernels and back ({@link PerfectGroups}: merging partial sums would
 * round differently from one running sum, moving them does not).
 */
export function perfectAggregate(a: BoundAggregate, k: AggregateKernel): boolean {
  const name = a.def.name
  return name === 'count' || name === 'min' || name === 'max' || name === 'first' || name === 'last' ||
    name === 'first_not_null' || name === 'last_not_null' ||
    ((name === 'sum' || name === 'avg') && isDecimal(a.site.returns)) || k instanceof DoubleSumKernel ||
    k instanceof LongSumKernel
}

/**
 * True when every one of the first `length` keys `k` of `d` has `k + 1` in (0, n) and
 * `ids[k + 1] >= 0`: a known, non-null key inside the table.
 */
function allKnown(d: Int32Array, length: number, ids: Int32Array, n: number): boolean {
  let i = 0
  // four rows a step, their table reads joined in one test (1.47 against 1.85 ns/row one at a time)
  for (; i + 3 < length; i += 4) {
    const a = d[i]! + 1, b = d[i + 1]! + 1, c = d[i + 2]! + 1, e = d[i + 3]! + 1
    if (a < 1 || a >= n || b < 1 || b >= n || c < 1 || c >= n || e < 1 || e >= n) return false
    if ((ids[a]! | ids[b]! | ids[c]! | ids[e]!) < 0) return false
  }
  for (; i < length; i++) {
    const k = d[i]! + 1
    if (k < 1 || k >= n || ids[k]! < 0) return false
  }
  return true
}

/**
 * The check loop when every slot of the span is known (a dense key range, the common case): true
 * when each of the first `length` keys of `d` lies in [0, lim]. No table read: per row one
 * subtraction and two ORs into a sign test (a key below 0 or past `lim` leaves a sign bit set);
 * 0.4 against 0.6-1.0 ns/row for {@link allKnown}. Four rows a step into two chains: 0.69
 * against 0.76 ns/row two rows a step (2M rows in 65,536-row batches, load 15).
 */
function inSpan(d: Int32Array, length: number, lim: number): boolean {
  let p = 0, q = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    p |= (x | (lim - x)) | (z | (lim - z))
    q |= (y | (lim - y)) | (w | (lim - w))
  }
  for (; i < length; i++) { const x = d[i]!; p |= x | (lim - x) }
  return (p | q) >= 0
}

/**
 * {@link inSpan} for keys that need their slot written: `out[i] = d[i] - base`, true when every
 * slot lies in [0, lim]. The caller keeps `base` below 2^31 - 2^17, so `d[i] - base` (at least
 * -2^32 + 2^17) never wraps into [0, lim] when truncated to 32 bits.
 */
function shiftedSpan32(d: Int32Array, length: number, base: number, lim: number, out: Int32Array): boolean {
  let p = 0, q = 0, i = 0
  for (; i + 1 < length; i += 2) {
    const a = (d[i]! - base) | 0, b = (d[i + 1]! - base) | 0
    p |= a | (lim - a)
    q |= b | (lim - b)
    out[i] = a; out[i + 1] = b
  }
  if (i < length) { const a = (d[i]! - base) | 0; p |= a | (lim - a); out[i] = a }
  return (p | q) >= 0
}

/**
 * {@link shiftedSpan32} for keys held as doubles (LONG and other 64-bit values). An i64 vector's
 * `Float64Array` holds only safe integers and the null -2^63 (vector.ts), so `d[i] - base` is an
 * integer wherever it is in [0, lim]: the slots' least and greatest values, tracked as doubles
 * (a slot past 2^31 would wrap when truncated), are the whole test. 0.7 against 1.1 ns/row for a
 * test of each truncated slot.
 */
function shiftedSpan64(d: Float64Array, length: number, base: number, lim: number, out: Int32Array): boolean {
  // lo <= 0 <= hi throughout, so a slot past hi is not below lo: one compare per row when it is
  // neither (1.29 against 1.39 ns/row with both compares, 2M rows in 65,536-row batches, load 15)
  let lo = 0, hi = 0, i = 0
  for (; i + 1 < length; i += 2) {
    const s = d[i]! - base, t = d[i + 1]! - base
    if (s > hi) hi = s
    else if (s < lo) lo = s
    if (t > hi) hi = t
    else if (t < lo) lo = t
    out[i] = s | 0; out[i + 1] = t | 0
  }
  if (i < length) { const s = d[i]! - base; if (s < lo) lo = s; if (s > hi) hi = s; out[i] = s | 0 }
  return lo >= 0 && hi <= lim
}

/** Below this base `value - base` of an INT key cannot wrap into the span when truncated to 32 bits ({@link shiftedSpan32}). */
const SAFE_BASE = 2 ** 31 - 2 ** 17

/**
 * The slot of key `x` for the shifted check loops: `x - base` when `x - base + 1` is in [1, n)
 * and `ids` knows it, `n - 1` for a null (`nul`) when `nulls`, else -1.
 */
function slotOf(x: number, ids: Int32Array, n: number, base: number, nul: number, nulls: boolean): number {
  const k = x - base + 1
  if (k >= 1 && k < n) return ids[k | 0]! >= 0 ? k - 1 : -1
  return nulls && x === nul ? n - 1 : -1
}

/**
 * The check loop for keys that need their slot written: for each of the first `length` keys `x`
 * of `d`, `out[i]` = its slot ({@link slotOf}); false at the first key without one. Four rows a
 * step with their table reads joined in one test (1.8 against 3.0 ns/row one at a time); a step
 * with a key outside the span (a null) goes row by row.
 */
function shifted32(d: Int32Array, length: number, ids: Int32Array, n: number, base: number, nulls: boolean, out: Int32Array): boolean {
  const m = n - 1
  let i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]! - base, b = d[i + 1]! - base, c = d[i + 2]! - base, e = d[i + 3]! - base
    if (a >= 0 && a < m && b >= 0 && b < m && c >= 0 && c < m && e >= 0 && e < m) {
      if ((ids[a + 1]! | ids[b + 1]! | ids[c + 1]! | ids[e + 1]!) < 0) return false
      out[i] = a; out[i + 1] = b; out[i + 2] = c; out[i + 3] = e
      continue
    }
    for (let j = i; j < i + 4; j++) { const s = slotOf(d[j]!, ids, n, base, INT_NULL, nulls); if (s < 0) return false; out[j] = s }
  }
  for (; i < length; i++) { const s = slotOf(d[i]!, ids, n, base, INT_NULL, nulls); if (s < 0) return false; out[i] = s }
  return true
}

/** {@link shifted32} for keys held as doubles (LONG and other 64-bit values, safe integers; null -2^63): 2.6 against 4.1 ns/row one at a time. */
function shifted64(d: Float64Array, length: number, ids: Int32Array, n: number, base: number, nulls: boolean, out: Int32Array): boolean {
  const m = n - 1
  let i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]! - base, b = d[i + 1]! - base, c = d[i + 2]! - base, e = d[i + 3]! - base
    if (a >= 0 && a < m && b >= 0 && b < m && c >= 0 && c < m && e >= 0 && e < m) {
      const ja = a | 0, jb = b | 0, jc = c | 0, je = e | 0
      if ((ids[ja + 1]! | ids[jb + 1]! | ids[jc + 1]! | ids[je + 1]!) < 0) return false
      out[i] = ja; out[i + 1] = jb; out[i + 2] = jc; out[i + 3] = je
      continue
    }
    for (let j = i; j < i + 4; j++) { const s = slotOf(d[j]!, ids, n, base, LONG_NULL, nulls); if (s < 0) return false; out[j] = s }
  }
  for (; i < length; i++) { const s = slotOf(d[i]!, ids, n, base, LONG_NULL, nulls); if (s < 0) return false; out[i] = s }
  return true
}

/** SHORT / BYTE keys as slots `value - base` (they hold no null): the kernels take group ids as an Int32Array. */
function widen(d: Int16Array | Int8Array, length: number, base: number, out: Int32Array): void {
  for (let i = 0; i < length; i++) out[i] = d[i]! - base
}

/** The perfect-hash side of one GROUP BY (see the module comment). */
export class PerfectGroups {
  /** kernels indexed by key value - base (integer keys) or symbol key (SYMBOL) */
  private kernels: AggregateKernel[]
  /** integer keys: at value - base + 1 the key's id in the index, -1 when not seen (grown up to PERFECT_SPAN + 1; never shorter than {@link intEnd}) */
  private intIds = Int32Array.of(-1)
  /** integer keys: highest value noted - base + 2 (the part of {@link intIds} in use) */
  private intEnd = 1
  /** integer keys: slots in [1, intEnd) of {@link intIds} that hold an id (all of them: a dense key range, checked by {@link inSpan}) */
  private known = 0
  /** integer keys: the value at slot 0, set by the first {@link note} */
  private base = 0
  private based = false
  /** integer keys: the index id of the null key, -1 before one was seen */
  private nullId = -1
  /** what the rows in {@link kernels} are keyed by: 'int', a symbol table, or undefined (empty) */
  private holds: 'int' | SymbolTable | undefined
  /** groups the perfect kernels were sized for */
  private size = 0
  /** slots of a batch's keys, reused */
  private slots = new Int32Array(0)

  /** the kernels' feeds: min/max pairs over one column fed by one loop, and the others */
  private feeds: { pairs: MinMaxPair[]; rest: number[] }

  /** ordinals of the double sums (their running totals move here and back: {@link seed}) */
  private readonly seeded: number[]

  /**
   * @param create makes an empty kernel per aggregate
   * @param aggregates the aggregates (their arguments tell which min / max share a column)
   * @param ordinary the ordinary path's kernels (flushes merge into them; double sums are seeded from them)
   */
  constructor(private readonly create: () => AggregateKernel[], private readonly index: KeyIndex, private readonly aggregates: readonly BoundAggregate[], private readonly ordinary: readonly AggregateKernel[]) {
    this.kernels = create()
    this.feeds = this.feedsOf(this.kernels)
    this.seeded = ordinary.flatMap((k, a) => (k instanceof DoubleSumKernel ? [a] : []))
  }

  private feedsOf(kernels: readonly AggregateKernel[]): { pairs: MinMaxPair[]; rest: number[] } {
    return pairMinMax(kernels, this.aggregates, kernels.map((_, a) => a))
  }

  /** The reused slot array, at least `length` long. */
  private scratch(length: number): Int32Array {
    if (this.slots.length < length) this.slots = new Int32Array(length)
    return this.slots
  }

  /**
   * Folds the batch through the perfect kernels when its key vector `key` allows (see the module
   * comment), with `args(a)` the arguments of aggregate a; false when the batch must take the
   * ordinary path (nothing was folded).
   */
  take(key: Vector, length: number, args: (a: number) => readonly Vector[]): boolean {
    let by: 'int' | SymbolTable, d: Int32Array, n: number
    if (key.kind === 'sym') {
      const ids = this.index.symbolRemap(key.dict)
      if (ids === undefined || ids.length > PERFECT_SPAN + 1) return false
      n = ids.length
      by = key.dict
      d = key.data
      if (!allKnown(d, length, ids, n)) return false
    } else {
      if (!this.based) return false
      const ids = this.intIds, base = this.base, nulls = this.nullId >= 0
      n = this.intEnd
      by = 'int'
      // every slot of the span known: a range test alone proves a batch's keys known
      const dense = this.known === n - 1
      if (key.kind === 'i32') {
        d = key.data
        // INT nulls: their group sits at slot n - 1 (n only changes at an ordinary batch, after a flush)
        const fits = base === 0 && (dense ? inSpan(d, length, n - 2) : allKnown(d, length, ids, n))
        if (!fits) {
          d = this.scratch(length)
          const spanned = base !== 0 && dense && base < SAFE_BASE && shiftedSpan32(key.data, length, base, n - 2, d)
          if (!spanned && !shifted32(key.data, length, ids, n, base, nulls, d)) return false
        }
      } else if (key.kind === 'i16' || key.kind === 'i8') {
        d = this.scratch(length)
        widen(key.data, length, base, d)
        if (!(dense ? inSpan(d, length, n - 2) : allKnown(d, length, ids, n))) return false
      } else if (key.kind === 'i64' && key.data instanceof Float64Array) {
        d = this.scratch(length)
        if (!(dense && shiftedSpan64(key.data, length, base, n - 2, d)) &&
          !shifted64(key.data, length, ids, n, base, nulls, d)) return false
      } else return false
    }
    // rows keyed by another dictionary wait for a flush (the ordinary path does one)
    if (this.holds !== undefined && this.holds !== by) return false
    if (this.size < n) {
      this.size = n
      for (const k of this.kernels) k.resize(this.size)
    }
    if (this.holds === undefined) this.seed(by)
    this.holds = by
    for (const a of this.feeds.rest) this.kernels[a]!.update(d, args(a), length)
    for (const p of this.feeds.pairs) p.fused.update(d, args(p.of[0]), length)
    PERFECT_STATS.batches++
    return true
  }

  /**
   * After an ordinary batch (its ids in `groups`): remembers the ids of its integer keys in the
   * span, setting or lowering the base first (see the module comment).
   */
  note(key: Vector, groups: Int32Array, length: number): void {
    let d: Int32Array | Int16Array | Int8Array | Float64Array, nul: number
    if (key.kind === 'i32') { d = key.data; nul = INT_NULL }
    else if (key.kind === 'i16' || key.kind === 'i8') { d = key.data; nul = NaN }
    else if (key.kind === 'i64' && key.data instanceof Float64Array) { d = key.data; nul = LONG_NULL }
    else return
    if (!this.based && !this.start(d, length, nul)) return
    let ids = this.intIds, end = this.intEnd
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x === nul) { this.nullId = groups[i]!; continue }
      let k = x - this.base + 1
      if (k < 1) {
        this.intEnd = end
        if (!this.lower(x)) continue
        ids = this.intIds
        end = this.intEnd
        k = 1
      }
      if (k > PERFECT_SPAN) continue
      if (k >= ids.length) { this.intEnd = end; this.room(k + 1); ids = this.intIds }
      if (ids[k]! < 0) {
        ids[k] = groups[i]!
        this.known++
        if (k + 1 > end) end = k + 1
      }
    }
    this.intEnd = end
  }

  /** Sets the base from the first batch's non-null keys: 0 when they fit [0, PERFECT_SPAN), else their minimum; false when all are null. */
  private start(d: Int32Array | Int16Array | Int8Array | Float64Array, length: number, nul: number): boolean {
    let lo = Infinity, hi = -Infinity
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x === nul) continue
      if (x < lo) lo = x
      if (x > hi) hi = x
    }
    if (lo === Infinity) return false
    this.base = lo >= 0 && hi < PERFECT_SPAN ? 0 : lo
    this.based = true
    return true
  }

  /** Moves the base down to `x` when the covered keys then still fit the span and nothing is folded; false otherwise. */
  private lower(x: number): boolean {
    const s = this.base - x
    if (this.holds !== undefined || this.intEnd - 1 + s > PERFECT_SPAN) return false
    this.room(this.intEnd + s)
    this.intIds.copyWithin(1 + s, 1, this.intEnd)
    this.intIds.fill(-1, 1, 1 + s)
    this.intEnd += s
    this.base = x
    return true
  }

  /** Grows {@link intIds} to at least `n` slots (at most PERFECT_SPAN + 1), new ones -1. */
  private room(n: number): void {
    const old = this.intIds
    if (old.length >= n) return
    const next = new Int32Array(Math.min(PERFECT_SPAN + 1, Math.max(n, 2 * old.length, 257))).fill(-1)
    next.set(old)
    this.intIds = next
  }

  /**
   * Merges the rows folded by key into `into` (the ordinary kernels, groups by index id), then
   * starts the perfect kernels empty; a no-op when they hold no rows.
   */
  flush(into: readonly AggregateKernel[]): void {
    const by = this.holds
    if (by === undefined) return
    this.mergeInto(by, this.kernels, into)
    this.kernels = this.create()
    this.feeds = this.feedsOf(this.kernels)
    this.holds = undefined
    this.size = 0
  }

  /** The perfect kernels' slots keyed by `by` and the index ids they stand for, side by side. */
  private slotsToIds(by: 'int' | SymbolTable): { from: Int32Array; to: Int32Array; slots: number } {
    const ids = by === 'int' ? this.intIds.subarray(0, this.intEnd) : this.index.symbolRemap(by)!
    const from: number[] = [], to: number[] = []
    for (let k = 1; k < ids.length; k++) if (ids[k]! >= 0) { from.push(k - 1); to.push(ids[k]!) }
    if (by === 'int' && this.nullId >= 0) { from.push(ids.length - 1); to.push(this.nullId) }
    return { from: Int32Array.from(from), to: Int32Array.from(to), slots: ids.length }
  }

  private mergeInto(by: 'int' | SymbolTable, kernels: readonly AggregateKernel[], into: readonly AggregateKernel[]): void {
    const { from: f, to: t, slots } = this.slotsToIds(by)
    if (f.length === 0) return
    for (let a = 0; a < into.length; a++) {
      into[a]!.resize(this.index.count)
      kernels[a]!.resize(slots)
      into[a]!.merge(kernels[a]!, f, t, f.length)
    }
  }

  /**
   * Before the first batch folded after a flush: moves the ordinary double sums' totals and
   * counts to the perfect kernels' slots (the ordinary ones left at 0), so a group's rows keep
   * adding to one running total in row order and the flush's merge (0 + total) gives back exactly
   * what the ordinary path alone computes.
   */
  private seed(by: 'int' | SymbolTable): void {
    if (this.seeded.length === 0) return
    const { from, to } = this.slotsToIds(by)
    for (const a of this.seeded) {
      const p = this.kernels[a] as DoubleSumKernel, o = this.ordinary[a] as DoubleSumKernel
      o.resize(this.index.count)
      const ps = p.st, os = o.st
      for (let i = 0; i < from.length; i++) {
        const f = from[i]! << 1, t = to[i]! << 1
        ps[f] = os[t]!
        ps[f + 1] = os[t + 1]!
        os[t] = 0
        os[t + 1] = 0
      }
    }
  }


  /** Groups the perfect kernels hold state for (for the memory estimate). */
  get groups(): number {
    return this.size
  }
}
