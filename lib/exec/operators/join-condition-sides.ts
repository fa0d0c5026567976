/**
 * Splits a nested-loop join's ON condition by side: each largest sub-expression that reads the
 * columns of one side only (`b.v - 0.5` in `a.v < b.v - 0.5`, `a.s || 'x'`) becomes a column of its
 * own, computed once per left batch or once over the right side instead of once per pair. What is
 * left reads both sides (or is not movable) and runs per pair.
 *
 * A sub-expression stays per pair when moving it could change the answer: a call of a function
 * whose result changes per call (`rnd_double()`, `deterministic: false`), subqueries, and the
 * parts of a CASE that reads both sides (a branch is evaluated only when some row takes it).
 */
import type { BoundExpr } from '../../plan/plan-node.js'

/** A sub-expression computed per side; the rewritten condition reads it as column `index`. */
export interface SideExpr {
  readonly side: 'left' | 'right'
  /** over the side's own columns (a right expression's column indexes start at 0) */
  readonly expr: BoundExpr
  /** its column in the rewritten condition's input (after the left and right columns) */
  readonly index: number
}

/** The rewritten condition and the sub-expressions it reads as extra columns. */
export interface SplitCondition {
  readonly expr: BoundExpr
  readonly sides: readonly SideExpr[]
}

const LEFT = 1, RIGHT = 2, PINNED = 4

/**
 * Splits `cond`, over joined rows of `leftWidth` left columns then `rightWidth` right columns (see
 * the file comment). The extra columns are numbered from `leftWidth + rightWidth`.
 */
export function splitBySide(cond: BoundExpr, leftWidth: number, rightWidth: number): SplitCondition {
  const sides: SideExpr[] = []
  const width = leftWidth + rightWidth
  const sideOf = (e: BoundExpr): number => {
    switch (e.kind) {
      case 'column': return e.index < leftWidth ? LEFT : RIGHT
      case 'const': case 'param': return 0
      case 'subquery': case 'exists': case 'in_query': return PINNED
      case 'call': return e.args.reduce((m, a) => m | sideOf(a), e.def.deterministic === false ? PINNED : 0)
      case 'cast': case 'isnull': case 'in': case 'in_intervals': return sideOf(e.expr)
      case 'case': return e.whens.reduce((m, w) => m | sideOf(w.when) | sideOf(w.then), sideOf(e.else))
    }
  }
  const split = (e: BoundExpr): BoundExpr => {
    const m = sideOf(e)
    if (m === LEFT || m === RIGHT) {
      if (e.kind === 'column') return e
      const index = width + sides.length
      sides.push({ side: m === LEFT ? 'left' : 'right', expr: m === LEFT ? e : shift(e, leftWidth), index })
      return { kind: 'column', type: e.type, index }
    }
    if (m === 0) return e
    switch (e.kind) {
      case 'call': return { ...e, args: e.args.map(split) }
      case 'cast': case 'isnull': case 'in': case 'in_intervals': return { ...e, expr: split(e.expr) } as BoundExpr
      // a CASE evaluates a branch only when some row takes it: its parts stay per pair
      default: return e
    }
  }
  return { expr: split(cond), sides }
}

/** `e` with every column index lowered by `by` (a right side's expression, over the right input). */
function shift(e: BoundExpr, by: number): BoundExpr {
  switch (e.kind) {
    case 'column': return { ...e, index: e.index - by }
    case 'call': return { ...e, args: e.args.map((a) => shift(a, by)) }
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': return { ...e, expr: shift(e.expr, by) } as BoundExpr
    case 'case': return { ...e, whens: e.whens.map((w) => ({ when: shift(w.when, by), then: shift(w.then, by) })), else: shift(e.else, by) }
    case 'const': case 'param': case 'subquery': case 'exists': return e
  }
}
