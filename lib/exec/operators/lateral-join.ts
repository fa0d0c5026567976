/**
 * `JOIN LATERAL`: runs the right plan once per left row, with the left columns it names as
 * parameters (see plan/bind-lateral.ts), and joins each left row with the rows it returned.
 * Left rows stream in; each run's rows are emitted before the next left row is read, and the
 * statement's cancellation and timeout are checked per left row.
 */
import { type Batch, type Scalar, type Vector, constVector, gather, getScalar, materialize } from '../../types/vector.js'
import type { LateralJoinNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import type { Runner } from './runner.js'
import { runApply } from './apply.js'
import { runHashApply } from './apply-hash.js'
import { lateralTableFunction, runLateralTableFunction } from './lateral-unnest.js'

/** Runs a LATERAL join. */
export async function* runLateralJoin(node: LateralJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  if (node.hash !== undefined) { yield* runHashApply(node, ctx, run); return }
  if (node.apply !== undefined) { yield* runApply(node, ctx, run); return }
  const fn = lateralTableFunction(node)
  if (fn !== undefined) { yield* runLateralTableFunction(node, fn, ctx, run); return }
  const refs = node.outerRefs.map((e) => compileExpr(e, ctx))
  const residual = node.residual === undefined ? undefined : compileExpr(node.residual, ctx)
  const rightTypes = node.right.output.map((c) => c.type)
  for await (const b of run(node.left, ctx)) {
    const refVectors = refs.map((f) => materialize(f(b)))
    for (let i = 0; i < b.length; i++) {
      await ctx.maybeYield()
      const params: Scalar[] = [...ctx.params]
      for (let k = params.length; k < node.paramBase; k++) params.push(null)
      refVectors.forEach((v, k) => { params[node.paramBase + k] = getScalar(v, i) })
      const child = Object.create(ctx, { params: { value: params } }) as ExecContext
      let matched = false
      for await (const r of run(node.right, child)) {
        if (r.length === 0) continue
        const sel = new Int32Array(r.length).fill(i)
        let joined: Batch = { length: r.length, vectors: [...b.vectors.map((v) => gather(v, sel, r.length)), ...r.vectors] }
        if (residual !== undefined) joined = keepWhere(joined, residual(joined))
        if (joined.length === 0) continue
        matched = true
        yield joined
      }
      if (!matched && node.type === 'left') {
        const one = Int32Array.of(i)
        yield { length: 1, vectors: [...b.vectors.map((v) => gather(v, one, 1)), ...rightTypes.map((t) => constVector(t, null, 1))] }
      }
    }
  }
}

/** The rows of `b` where `mask` is true. */
function keepWhere(b: Batch, mask: Vector): Batch {
  const m = materialize(mask)
  const sel: number[] = []
  for (let i = 0; i < b.length; i++) if (getScalar(m, i) === true) sel.push(i)
  if (sel.length === b.length) return b
  const s = Int32Array.from(sel)
  return { length: s.length, vectors: b.vectors.map((v) => gather(v, s, s.length)) }
}
