/**
 * DISTINCT and the set operations UNION [ALL], EXCEPT [ALL], INTERSECT [ALL], by hashing a text
 * key of each row. UNION ALL streams; the others keep a set of keys (bounded by distinct rows).
 */
import { type Batch, gather } from '../../types/vector.js'
import type { DistinctNode, SetOpNode } from '../../plan/plan-node.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'
import { collect, rowKey } from './sort.js'
import type { Runner } from './runner.js'

/** Keeps the first occurrence of each row. */
export async function* runDistinct(node: DistinctNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const seen = new Set<string>()
  for await (const b of run(node.input, ctx)) {
    const sel = new Int32Array(b.length)
    let n = 0
    for (let i = 0; i < b.length; i++) {
      const k = rowKey(b.vectors, i)
      if (!seen.has(k)) { seen.add(k); sel[n++] = i }
    }
    if (n > 0) yield { length: n, vectors: b.vectors.map((v) => gather(v, sel, n)) }
  }
}

/** Filters a stream's rows with `keep(key)`, which sees each row's key. */
async function* filterRows(input: AsyncGenerator<Batch>, keep: (key: string) => boolean, ctx: ExecContext): AsyncGenerator<Batch> {
  for await (const b of input) {
    const sel = new Int32Array(b.length)
    let n = 0
    for (let i = 0; i < b.length; i++) if (keep(rowKey(b.vectors, i))) sel[n++] = i
    if (n > 0) yield { length: n, vectors: b.vectors.map((v) => gather(v, sel, n)) }
    await ctx.maybeYield()
  }
}

/** Runs UNION / EXCEPT / INTERSECT (ALL or distinct). */
export async function* runSetOp(node: SetOpNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  if (node.op === 'union') {
    if (node.all) {
      yield* run(node.left, ctx)
      yield* run(node.right, ctx)
      return
    }
    const seen = new Set<string>()
    const once = (k: string) => (seen.has(k) ? false : (seen.add(k), true))
    yield* filterRows(run(node.left, ctx), once, ctx)
    yield* filterRows(run(node.right, ctx), once, ctx)
    return
  }
  const right = await collect(run, node.right, ctx, node.right.output)
  const counts = new Map<string, number>()
  for (let i = 0; i < right.length; i++) {
    if ((i & (YIELD_CHECK_WORK - 1)) === YIELD_CHECK_WORK - 1) await ctx.maybeYield()
    const k = rowKey(right.vectors, i)
    counts.set(k, (counts.get(k) ?? 0) + 1)
  }
  const emitted = new Set<string>()
  if (node.op === 'except') {
    yield* filterRows(run(node.left, ctx), (k) => {
      if (node.all) {
        const c = counts.get(k) ?? 0
        if (c > 0) { counts.set(k, c - 1); return false }
        return true
      }
      if (counts.has(k) || emitted.has(k)) return false
      emitted.add(k)
      return true
    }, ctx)
    return
  }
  yield* filterRows(run(node.left, ctx), (k) => {
    const c = counts.get(k) ?? 0
    if (c === 0) return false
    if (node.all) { counts.set(k, c - 1); return true }
    if (emitted.has(k)) return false
    emitted.add(k)
    return true
  }, ctx)
}
