/**
 * LIMIT with QuestDB's semantics:
 * - `LIMIT n`: the first n rows; `LIMIT -n`: the last n rows;
 * - `LIMIT lo, hi`: rows (lo, hi] (0-based lo exclusive; bounds swapped when lo > hi);
 * - `LIMIT -lo, -hi`: the last lo rows minus the last hi; `LIMIT lo, -hi`: drop the first lo and the last hi;
 * - `LIMIT n, 0` and `LIMIT -n, 0` are `LIMIT n` and `LIMIT -n`; a NULL bound counts as not written,
 *   so `LIMIT null` is no limit.
 * A positive range streams and stops early; anything counted from the end buffers the input.
 */
import { type Batch, gather } from '../../types/vector.js'
import type { LimitNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { evalConstant } from '../evaluate.js'
import { collect, emitSelected } from './sort.js'
import type { Runner } from './runner.js'
import { SqlError, SqlState } from '../../errors.js'
import { batchBytes } from '../memory.js'

/** A bound's value; undefined when it is NULL, which counts as a bound not written. */
function limitValue(node: LimitNode, which: 'lo' | 'hi', ctx: ExecContext): number | undefined {
  const e = which === 'lo' ? node.lo : node.hi!
  const v = evalConstant(e, ctx)
  if (v === null) return undefined
  const n = Number(v)
  if (!Number.isFinite(n)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'LIMIT must be a number')
  return Math.trunc(n)
}

/** Runs a LIMIT node (see the file header for the forms). */
export async function* runLimit(node: LimitNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const first = limitValue(node, 'lo', ctx)
  const second = node.hi === undefined ? undefined : limitValue(node, 'hi', ctx)
  // `LIMIT null` is no limit; `LIMIT n, 0` = `LIMIT -n, 0` = `LIMIT n, null` = `LIMIT n`,
  // `LIMIT null, n` = `LIMIT n` (QuestDB's LIMIT page, "edge-case variants")
  if (first === undefined && second === undefined) { yield* run(node.input, ctx); return }
  let lo = first ?? second!
  let hi = first === undefined || second === 0 ? undefined : second
  if (hi === undefined) {
    if (lo >= 0) { yield* take(run(node.input, ctx), 0, lo); return }
    yield* fromEnd(node, ctx, run, (total) => [Math.max(0, total + lo), total])
    return
  }
  if (lo >= 0 && hi >= 0) {
    if (lo > hi) [lo, hi] = [hi, lo]
    yield* take(run(node.input, ctx), lo, hi)
    return
  }
  const l = lo
  const h = hi
  yield* fromEnd(node, ctx, run, (total) => {
    if (l < 0 && h < 0) {
      const a = Math.min(-l, -h)
      const b = Math.max(-l, -h)
      return [Math.max(0, total - b), Math.max(0, total - a)]
    }
    if (l >= 0 && h < 0) return [Math.min(l, total), Math.max(0, total + h)]
    return [Math.max(0, total + l), Math.min(h, total)]
  })
}

/** Rows [from, to) of a stream; stops pulling once `to` is reached. */
async function* take(input: AsyncGenerator<Batch>, from: number, to: number): AsyncGenerator<Batch> {
  if (to <= from) { await input.return(undefined); return }
  let seen = 0
  for await (const b of input) {
    const start = Math.max(from - seen, 0)
    const end = Math.min(to - seen, b.length)
    seen += b.length
    if (end > start) {
      if (start === 0 && end === b.length) yield b
      else {
        const n = end - start
        const sel = new Int32Array(n)
        for (let i = 0; i < n; i++) sel[i] = start + i
        yield { length: n, vectors: b.vectors.map((v) => gather(v, sel, n)) }
      }
    }
    if (seen >= to) break
  }
}

async function* fromEnd(node: LimitNode, ctx: ExecContext, run: Runner, range: (total: number) => [number, number]): AsyncGenerator<Batch> {
  const mem = ctx.memory.reservation('LIMIT from the end')
  const all = await collect(run, node.input, ctx, node.input.output, mem)
  const [from, to] = range(all.length)
  if (to <= from) return
  mem.grow(4 * (to - from) + Math.ceil((batchBytes(all) * (to - from)) / all.length))
  const n = to - from
  const sel = new Int32Array(n)
  for (let i = 0; i < n; i++) sel[i] = from + i
  // gathered batch by batch as they leave, not all at once
  yield* emitSelected(all, sel, ctx)
  mem.close()
}
