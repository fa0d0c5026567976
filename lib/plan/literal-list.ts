/**
 * A long `IN (...)` list of literals, bound without converting its items: the items are turned
 * into values of the list's type when the statement runs, in slices that yield to the event loop
 * ({@link LiteralList.prepare}, called where uncorrelated subqueries are computed), so a
 * 30,000-item list (or a million-item one, the parse limit) does not hold the event loop while it
 * binds. A short list is converted while it binds, as before; a bad item fails with the same
 * error and position either way, a long list's only when the statement runs.
 */
import type { Expr, Literal } from '../sql/ast.js'
import type { ColumnType } from '../types/column-type.js'
import type { Scalar } from '../types/vector.js'

/** Lists with at least this many items are converted when they run, in slices; shorter ones while they bind. */
export const LITERAL_LIST_MIN_ITEMS = 256

/** Items converted between two pauses of {@link LiteralList.prepare}. */
const SLICE_ITEMS = 2048

/** Converts one literal item (a literal, or `-` a numeric literal) to a value of `to`; throws its SqlError at its position. */
export type ConvertItem = (item: Expr, to: ColumnType) => Scalar

/** True when `e` is a literal or a negated numeric literal: an item a {@link LiteralList} holds. */
export function isLiteralItem(e: Expr): boolean {
  if (e.kind === 'literal') return true
  return e.kind === 'unary' && e.op === '-' && e.operand.kind === 'literal' && isNumeric(e.operand)
}

function isNumeric(l: Literal): boolean {
  return l.type === 'int' || l.type === 'long' || l.type === 'double'
}

/** The values of an IN list as a membership test: the non-null values (LONGs beyond 2^53 as their text) and whether null is one. */
export interface InLookup {
  readonly set: ReadonlySet<unknown>
  readonly hasNull: boolean
}

/** Adds `values[from, to)` to a lookup under construction; returns whether a null was among them. */
function addToLookup(set: Set<unknown>, values: readonly Scalar[], from: number, to: number): boolean {
  let hasNull = false
  for (let i = from; i < to; i++) {
    const v = values[i]!
    if (v === null) hasNull = true
    else set.add(typeof v === 'bigint' ? v.toString() : v)
  }
  return hasNull
}

/** The lookup of a short list, built at once. */
export function inLookup(values: readonly Scalar[]): InLookup {
  const set = new Set<unknown>()
  return { set, hasNull: addToLookup(set, values, 0, values.length) }
}

/** The items of an IN list and the type they become, converted once (a cached plan keeps the values and their lookup). */
export class LiteralList {
  private converted: readonly Scalar[] | undefined
  private built: InLookup | undefined

  constructor(
    /** the list's items (see {@link isLiteralItem}) */
    readonly items: readonly Expr[],
    /** the type every item is converted to */
    readonly to: ColumnType,
    private readonly convert: ConvertItem,
  ) {}

  /** True once the values and their lookup are known. */
  get ready(): boolean {
    return this.built !== undefined
  }

  /** The values, converting the rest at once when {@link LiteralList.prepare} has not run. */
  get values(): readonly Scalar[] {
    if (this.converted === undefined) {
      const out = new Array<Scalar>(this.items.length)
      for (let i = 0; i < out.length; i++) out[i] = this.convert(this.items[i]!, this.to)
      this.converted = out
    }
    return this.converted
  }

  /** The values as a membership test, built at once when {@link LiteralList.prepare} has not run. */
  get lookup(): InLookup {
    return this.built ??= inLookup(this.values)
  }

  /**
   * Converts the items and builds their lookup in slices, awaiting `pause` (the statement's
   * scheduler: it yields and checks cancellation) between them.
   */
  async prepare(pause: () => Promise<void>): Promise<void> {
    if (this.built !== undefined) return
    const n = this.items.length
    if (this.converted === undefined) {
      const out = new Array<Scalar>(n)
      for (let i = 0; i < n; i++) {
        if (i % SLICE_ITEMS === 0) await pause()
        out[i] = this.convert(this.items[i]!, this.to)
      }
      this.converted ??= out
    }
    const values = this.converted
    const set = new Set<unknown>()
    let hasNull = false
    for (let i = 0; i < n; i += SLICE_ITEMS) {
      await pause()
      if (addToLookup(set, values, i, Math.min(n, i + SLICE_ITEMS))) hasNull = true
    }
    this.built ??= { set, hasNull }
  }
}
