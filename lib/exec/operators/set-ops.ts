/**
 * DISTINCT and the set operations UNION [ALL], EXCEPT [ALL], INTERSECT [ALL], by hashing a text
 * key of each row. UNION ALL streams; the others keep a set of keys (bounded by distinct rows).
 */
import { type Batch, gather } from '../../types/vector.js'
import type { DistinctNode, SetOpNode } from '../../plan/plan-node.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'
import { collect } from './sort.js'
import { rowKey } from '../keys/row-key.js'
import type { Runner } from './runner.js'
import { MAP_ENTRY_BYTES, type Reservation, STRING_OVERHEAD_BYTES } from '../memory.js'

/** Estimated bytes of one kept row key: its map entry and its text (two bytes a character). */
const keyBytes = (k: string): number => MAP_ENTRY_BYTES + STRING_OVERHEAD_BYTES + 2 * k.length

/** Keeps the first occurrence of each row. */
export async function* runDistinct(node: DistinctNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const seen = new Set<string>()
  const mem = ctx.memory.reservation('DISTINCT')
  for await (const b of run(node.input, ctx)) {
    const sel = new Int32Array(b.length)
    let n = 0
    let bytes = 0
    for (let i = 0; i < b.length; i++) {
      const k = rowKey(b.vectors, i)
      if (!seen.has(k)) { seen.add(k); sel[n++] = i; bytes += keyBytes(k) }
    }
    mem.grow(bytes)
    if (n > 0) yield { length: n, vectors: b.vectors.map((v) => gather(v, sel, n)) }
  }
  mem.close()
}

/**
 * Filters a stream's rows with `keep(key)`, which sees each row's key and returns how many bytes
 * of state it kept for it besides the answer (a positive number keeps the row, as `true` does).
 */
async function* filterRows(input: AsyncGenerator<Batch>, keep: (key: string) => boolean | number, mem: Reservation, ctx: ExecContext): AsyncGenerator<Batch> {
  for await (const b of input) {
    const sel = new Int32Array(b.length)
    let n = 0
    let bytes = 0
    for (let i = 0; i < b.length; i++) {
      const r = keep(rowKey(b.vectors, i))
      if (r === false) continue
      sel[n++] = i
      if (r !== true) bytes += r
    }
    mem.grow(bytes)
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
    const mem = ctx.memory.reservation('UNION')
    const once = (k: string) => (seen.has(k) ? false : (seen.add(k), keyBytes(k)))
    yield* filterRows(run(node.left, ctx), once, mem, ctx)
    yield* filterRows(run(node.right, ctx), once, mem, ctx)
    mem.close()
    return
  }
  const mem = ctx.memory.reservation(node.op === 'except' ? 'EXCEPT' : 'INTERSECT')
  const right = await collect(run, node.right, ctx, node.right.output, mem)
  const counts = new Map<string, number>()
  let pending = 0
  for (let i = 0; i < right.length; i++) {
    if ((i & (YIELD_CHECK_WORK - 1)) === YIELD_CHECK_WORK - 1) await ctx.maybeYield()
    const k = rowKey(right.vectors, i)
    const c = counts.get(k)
    if (c === undefined) pending += keyBytes(k)
    counts.set(k, (c ?? 0) + 1)
    if (pending > 1 << 20) { mem.grow(pending); pending = 0 }
  }
  mem.grow(pending)
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
      return keyBytes(k)
    }, mem, ctx)
    mem.close()
    return
  }
  yield* filterRows(run(node.left, ctx), (k) => {
    const c = counts.get(k) ?? 0
    if (c === 0) return false
    if (node.all) { counts.set(k, c - 1); return true }
    if (emitted.has(k)) return false
    emitted.add(k)
    return keyBytes(k)
  }, mem, ctx)
  mem.close()
}
