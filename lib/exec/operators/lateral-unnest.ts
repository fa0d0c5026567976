/**
 * The fast path of a LATERAL join whose right side is a table function reading its arguments
 * when it runs (`FROM t, UNNEST(t.arr)`, plan/bind-unnest.ts): instead of running the right plan
 * once per left row and emitting one small batch per row, the function's arguments are compiled
 * once against a parameter array refilled per row, the function is opened directly, and the
 * joined rows of many left rows go out together (left columns gathered by one selection vector).
 * A single 1-D array argument skips even that: the argument runs over the whole left batch and
 * its flat elements are the output column ({@link vectorUnnest}).
 */
import { type Batch, type Scalar, type Vector, BATCH_SIZE, concatVectors, gather, getScalar, materialize } from '../../types/vector.js'
import type { BoundExpr, LateralJoinNode, TableFunctionNode } from '../../plan/plan-node.js'
import type { ArrVector } from '../../types/array-vector.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import type { Runner } from './runner.js'

/** The right side's table function when the fast path applies: an inner join, no residual, the bare function. */
export function lateralTableFunction(node: LateralJoinNode): TableFunctionNode | undefined {
  const r = node.right
  if (node.type !== 'inner' || node.residual !== undefined || r.kind !== 'table_function') return undefined
  return r.def.runtimeArgs === true && r.args !== undefined && r.columns === undefined ? r : undefined
}

/**
 * `e` with the LATERAL join's parameter slots replaced by the outer expressions they stand for,
 * so it can run over a whole left batch; undefined when `e` holds anything else that reads a
 * parameter slot or a subquery.
 */
function overLeft(e: BoundExpr, node: LateralJoinNode): BoundExpr | undefined {
  switch (e.kind) {
    case 'param': {
      const k = e.index - node.paramBase
      return k >= 0 && k < node.outerRefs.length ? node.outerRefs[k] : undefined
    }
    case 'const': return e
    case 'call': {
      const args = e.args.map((a) => overLeft(a, node))
      return args.every((a) => a !== undefined) ? { ...e, args: args as BoundExpr[] } : undefined
    }
    case 'cast': { const x = overLeft(e.expr, node); return x === undefined ? undefined : { ...e, expr: x } }
    default: return undefined
  }
}

/**
 * The vector path of `FROM t, UNNEST(t.arr)` for one 1-D array argument: the argument is evaluated
 * over the whole left batch and its elements become the rows (left rows repeated by a selection
 * vector, an ordinality counting per left row) — no UNNEST call per row. Undefined when it does not apply.
 */
function vectorUnnest(node: LateralJoinNode, fn: TableFunctionNode): BoundExpr | undefined {
  const name = fn.def.name
  if ((name !== 'unnest' && name !== 'unnest_with_ordinality') || fn.args!.length !== 1 || fn.site.argTypes[0] !== 'DOUBLE[]') return undefined
  return overLeft(fn.args![0]!, node)
}

function expand(b: Batch, v: Vector, ordinality: boolean): Batch {
  const a = materialize(v) as ArrVector
  let total = 0
  for (let i = 0; i < b.length; i++) if (a.shapes[i]! >= 0) total += a.offsets[i + 1]! - a.offsets[i]!
  const sel = new Int32Array(total)
  const values = new Float64Array(total)
  const ord = ordinality ? new Float64Array(total) : undefined
  let o = 0
  for (let i = 0; i < b.length; i++) {
    if (a.shapes[i]! < 0) continue
    const lo = a.offsets[i]!, hi = a.offsets[i + 1]!
    values.set(a.data.subarray(lo, hi), o)
    for (let k = lo; k < hi; k++) { sel[o] = i; if (ord !== undefined) ord[o] = k - lo + 1; o++ }
  }
  const right: Vector[] = [{ kind: 'f64', type: 'DOUBLE', length: total, data: values }]
  if (ord !== undefined) right.push({ kind: 'i64', type: 'LONG', length: total, data: ord })
  return { length: total, vectors: [...b.vectors.map((x) => gather(x, sel, total)), ...right] }
}

/** Runs the LATERAL join `node` over the table function `fn` (see {@link lateralTableFunction}). */
export async function* runLateralTableFunction(node: LateralJoinNode, fn: TableFunctionNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const whole = vectorUnnest(node, fn)
  if (whole !== undefined) {
    const arr = compileExpr(whole, ctx)
    const ordinality = fn.def.name === 'unnest_with_ordinality'
    for await (const b of run(node.left, ctx)) {
      const out = expand(b, arr(b), ordinality)
      if (out.length > 0) yield out
      await ctx.maybeYield()
    }
    return
  }
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
