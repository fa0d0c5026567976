/**
 * Perfect-hash grouping for GROUP BY on one INT, SHORT, BYTE or SYMBOL key with a small range (as DuckDB's
 * perfect hash aggregate): a batch whose every key is a non-null value in [0, {@link PERFECT_SPAN})
 * already known to the {@link KeyIndex} skips the id assignment altogether: the key column's own
 * `Int32Array` is handed to a second set of kernels as the group ids (group = key value, or
 * symbol key; a SHORT / BYTE key is first widened into one reused `Int32Array`), so the batch costs one check loop (a compare and a table read per row) and the
 * kernels' update loops, with no id written per row.
 *
 * An INT null key, once the ordinary path has seen one, folds at the slot past the covered keys
 * (the batch's keys then copied to one reused `Int32Array`). The first batches (new keys), and
 * any batch with another null key, a negative key, a key past the
 * span or a key not seen yet, take the ordinary path ({@link KeyIndex.assign} + the ordinary
 * kernels), which hands out ids in order of first appearance as before; {@link PerfectGroups.note}
 * then records the ids of that batch's INT keys. Before every ordinary batch and at the end,
 * the rows folded by key value are merged into the ordinary kernels ({@link PerfectGroups.flush}),
 * so the ordinary kernels see every row in row order: first / last stay exact, and so does any
 * aggregate whose merge is exact. Only such aggregates take this path ({@link perfectAggregate}).
 */
import type { Vector, SymbolTable } from '../../types/vector.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { BoundAggregate } from '../../plan/plan-node.js'
import { isDecimal } from '../../types/decimal.js'
import type { KeyIndex } from './key-index.js'
import { INT_NULL } from '../../types/column-type.js'
import { pairMinMax, type MinMaxPair } from '../../functions/aggregate/fused-min-max.js'

/** Batches folded through perfect groups since the process started (for tests and benches). */
export const PERFECT_STATS = { batches: 0 }

/** Key values a perfect kernel set covers: [0, PERFECT_SPAN). */
export const PERFECT_SPAN = 65_536

/**
 * Whether `a` may fold through perfect groups: its merge is exact and in row order (`count`,
 * `min`, `max`, DECIMAL `sum` / `avg`, `first` / `last` and their `_not_null` forms). A double
 * sum is left out: merging partial sums would round differently from one running sum.
 */
export function perfectAggregate(a: BoundAggregate): boolean {
  const name = a.def.name
  return name === 'count' || name === 'min' || name === 'max' || name === 'first' || name === 'last' ||
    name === 'first_not_null' || name === 'last_not_null' ||
    ((name === 'sum' || name === 'avg') && isDecimal(a.site.returns))
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
 * {@link allKnown} for INT keys that may hold nulls: copies the keys to `out`, a null as `n - 1`
 * (the slot past every key the table covers); false at the first other key it cannot take.
 */
function knownOrNull(d: Int32Array, length: number, ids: Int32Array, n: number, out: Int32Array): boolean {
  const slot = n - 1
  for (let i = 0; i < length; i++) {
    const x = d[i]!, k = x + 1
    if (k >= 1 && k < n && ids[k]! >= 0) out[i] = x
    else if (x === INT_NULL) out[i] = slot
    else return false
  }
  return true
}

/** The perfect-hash side of one GROUP BY (see the module comment). */
export class PerfectGroups {
  /** kernels indexed by key value (INT) or symbol key (SYMBOL) */
  private kernels: AggregateKernel[]
  /** INT keys: at value + 1 the key's id in the index, -1 when not seen */
  private readonly intIds = new Int32Array(PERFECT_SPAN + 1).fill(-1)
  /** INT keys: highest value noted + 2 (the part of {@link intIds} in use) */
  private intEnd = 1
  /** what the rows in {@link kernels} are keyed by: 'int', a symbol table, or undefined (empty) */
  private holds: 'int' | SymbolTable | undefined
  /** groups the perfect kernels were sized for */
  private size = 0

  /** the kernels' feeds: min/max pairs over one column fed by one loop, and the others */
  private feeds: { pairs: MinMaxPair[]; rest: number[] }

  /**
   * @param create makes an empty kernel per aggregate
   * @param aggregates the aggregates (their arguments tell which min / max share a column)
   */
  constructor(private readonly create: () => AggregateKernel[], private readonly index: KeyIndex, private readonly aggregates: readonly BoundAggregate[]) {
    this.kernels = create()
    this.feeds = this.feedsOf(this.kernels)
  }

  private feedsOf(kernels: readonly AggregateKernel[]): { pairs: MinMaxPair[]; rest: number[] } {
    return pairMinMax(kernels, this.aggregates, kernels.map((_, a) => a))
  }

  /**
   * Folds the batch through the perfect kernels when its key vector `key` allows (see the module
   * comment), with `args(a)` the arguments of aggregate a; false when the batch must take the
   * ordinary path (nothing was folded).
   */
  take(key: Vector, length: number, args: (a: number) => readonly Vector[]): boolean {
    let ids: Int32Array | undefined, n = 0, by: 'int' | SymbolTable, d: Int32Array
    if (key.kind === 'i32') { ids = this.intIds; n = this.intEnd; by = 'int'; d = key.data }
    else if (key.kind === 'i16' || key.kind === 'i8') { ids = this.intIds; n = this.intEnd; by = 'int'; d = this.widen(key.data, length) }
    else if (key.kind === 'sym') {
      ids = this.index.symbolRemap(key.dict)
      if (ids === undefined || ids.length > PERFECT_SPAN + 1) return false
      n = ids.length
      by = key.dict
      d = key.data
    } else return false
    if (!allKnown(d, length, ids, n)) {
      // INT nulls: their group sits at slot n - 1 (n only changes at an ordinary batch, after a flush)
      if (key.kind !== 'i32' || this.nullId < 0) return false
      if (this.wide.length < length) this.wide = new Int32Array(length)
      if (!knownOrNull(d, length, ids, n, this.wide)) return false
      d = this.wide
    }
    // rows keyed by another dictionary wait for a flush (the ordinary path does one)
    if (this.holds !== undefined && this.holds !== by) return false
    this.holds = by
    if (this.size < n) {
      this.size = n
      for (const k of this.kernels) k.resize(this.size)
    }
    for (const a of this.feeds.rest) this.kernels[a]!.update(d, args(a), length)
    for (const p of this.feeds.pairs) p.fused.update(d, args(p.of[0]), length)
    PERFECT_STATS.batches++
    return true
  }

  /** SHORT / BYTE keys copied into an Int32Array (the kernels take group ids as one). */
  private widen(data: Int16Array | Int8Array, length: number): Int32Array {
    if (this.wide.length < length) this.wide = new Int32Array(length)
    const w = this.wide
    for (let i = 0; i < length; i++) w[i] = data[i]!
    return w
  }

  private wide = new Int32Array(0)
  /** INT keys: the index id of the null key, -1 before one was seen */
  private nullId = -1

  /** After an ordinary batch (its ids in `groups`): remembers the ids of its INT / SHORT / BYTE keys in the span. */
  note(key: Vector, groups: Int32Array, length: number): void {
    if (key.kind !== 'i32' && key.kind !== 'i16' && key.kind !== 'i8') return
    const d = key.data, ids = this.intIds
    let end = this.intEnd
    for (let i = 0; i < length; i++) {
      if (d[i] === INT_NULL && key.kind === 'i32') this.nullId = groups[i]!
      const k = d[i]! + 1
      if (k >= 1 && k <= PERFECT_SPAN && ids[k]! < 0) {
        ids[k] = groups[i]!
        if (k + 1 > end) end = k + 1
      }
    }
    this.intEnd = end
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

  private mergeInto(by: 'int' | SymbolTable, kernels: readonly AggregateKernel[], into: readonly AggregateKernel[]): void {
    const ids = by === 'int' ? this.intIds.subarray(0, this.intEnd) : this.index.symbolRemap(by)!
    const from: number[] = [], to: number[] = []
    for (let k = 1; k < ids.length; k++) if (ids[k]! >= 0) { from.push(k - 1); to.push(ids[k]!) }
    if (by === 'int' && this.nullId >= 0) { from.push(ids.length - 1); to.push(this.nullId) }
    if (from.length === 0) return
    const f = Int32Array.from(from), t = Int32Array.from(to)
    for (let a = 0; a < into.length; a++) {
      into[a]!.resize(this.index.count)
      kernels[a]!.resize(ids.length)
      into[a]!.merge(kernels[a]!, f, t, f.length)
    }
  }

  /** Groups the perfect kernels hold state for (for the memory estimate). */
  get groups(): number {
    return this.size
  }
}
