/**
 * The fast path of a LATERAL join whose right side is a table function reading its arguments
 * when it runs (`FROM t, UNNEST(t.arr)`, plan/bind-unnest.ts): instead of running the right plan
 * once per left row and emitting one small batch per row, the function's arguments are compiled
 * once against a parameter array refilled per row, the function is opened directly, and the
 * joined rows of many left rows go out together (left columns gathered by one selection vector).
 */
import { type Batch, type Scalar, type Vector, BATCH_SIZE, concatVectors, gather, getScalar, materialize } from '../../types/vector.js'
import type { LateralJoinNode, TableFunctionNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import type { Runner } from './runner.js'

/** The right side's table function when the fast path applies: an inner join, no residual, the bare function. */
export function lateralTableFunction(node: LateralJoinNode): TableFunctionNode | undefined {
  const r = node.right
  if (node.type !== 'inner' || node.residual !== undefined || r.kind !== 'table_function') return undefined
  return r.def.runtimeArgs === true && r.args !== undefined && r.columns === undefined ? r : undefined
}

/** Runs the LATERAL join `node` over the table function `fn` (see {@link lateralTableFunction}). */
export async function* runLateralTableFunction(node: LateralJoinNode, fn: TableFunctionNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const refs = node.outerRefs.map((e) => compileExpr(e, ctx))
  const params: Scalar[] = [...ctx.params]
  while (params.length < node.paramBase + refs.length) params.push(null)
  const child = Object.create(ctx, { params: { value: params } }) as ExecContext
  const args = fn.args!.map((a, k) => (fn.site.constants[k] !== undefined ? undefined : compileExpr(a, child)))
  const one: Batch = { length: 1, vectors: [] }
  const types = fn.output.map((c) => c.type)
  for await (const b of run(node.left, ctx)) {
    const refVectors = refs.map((f) => materialize(f(b)))
    let sel: number[] = []
    let parts: Batch[] = []
    const flush = (): Batch => {
      const s = Int32Array.from(sel)
      const right: Vector[] = types.map((t, c) => (parts.length === 1 ? parts[0]!.vectors[c]! : concatVectors(t, parts.map((p) => p.vectors[c]!))))
      const out = { length: s.length, vectors: [...b.vectors.map((v) => gather(v, s, s.length)), ...right] }
      sel = []
      parts = []
      return out
    }
    for (let i = 0; i < b.length; i++) {
      if ((i & 1023) === 1023) await ctx.maybeYield()
      refVectors.forEach((v, k) => { params[node.paramBase + k] = getScalar(v, i) })
      const site = { ...fn.site, constants: fn.site.constants.map((c, k) => (c !== undefined ? c : getScalar(args[k]!(one), 0))) }
      const out = fn.def.open(site, child)
      const take = (r: Batch): void => {
        if (r.length === 0) return
        parts.push(r)
        for (let j = 0; j < r.length; j++) sel.push(i)
      }
      // UNNEST answers an array: no await (a microtask) per left row
      if (Symbol.iterator in out) for (const r of out as Iterable<Batch>) take(r)
      else for await (const r of out) take(r)
      if (sel.length >= BATCH_SIZE) yield flush()
    }
    if (sel.length > 0) yield flush()
  }
}
