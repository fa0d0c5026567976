/**
 * Expressions over a whole materialized input (a window's, a sort's keys, a join's build side),
 * evaluated slice by slice with a scheduler check between slices, so that an expensive
 * expression over millions of rows does not hold the event loop for the whole pass.
 */
import { type Batch, type Vector, concatVectors, sliceVector } from '../types/vector.js'
import type { BoundExpr } from '../plan/plan-node.js'
import type { ExecContext } from './context.js'
import { compileExpr } from './evaluate.js'

/** Rows per slice: one step between two scheduler checks. */
export const SLICE_ROWS = 65536

/** The row ranges [start, end) of `n` rows in slices of {@link SLICE_ROWS}. */
export function* slices(n: number): Generator<[number, number]> {
  for (let s = 0; s < n; s += SLICE_ROWS) yield [s, Math.min(n, s + SLICE_ROWS)]
}

/** `expr` over every row of `all`, evaluated slice by slice (a column is its vector: nothing to compute). */
export async function evaluateSliced(expr: BoundExpr, all: Batch, ctx: ExecContext): Promise<Vector> {
  const f = compileExpr(expr, ctx)
  if (expr.kind === 'column' || all.length <= SLICE_ROWS) return f(all)
  const parts: Vector[] = []
  for (const [s, e] of slices(all.length)) {
    parts.push(f({ length: e - s, vectors: all.vectors.map((v) => sliceVector(v, s, e)) }))
    await ctx.maybeYield()
  }
  return concatVectors(expr.type, parts)
}
