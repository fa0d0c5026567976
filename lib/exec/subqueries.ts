/**
 * Uncorrelated subqueries (scalar `(SELECT ...)`, `EXISTS`, `IN (SELECT ...)`) are computed once,
 * before the pipeline that uses them runs; their values go to `ctx.subqueryValues`, where the
 * compiled expressions read them. Long IN lists of literals are converted here too, in slices
 * (see plan/literal-list.ts).
 */
import { SqlError, SqlState } from '../errors.js'
import { getScalar, type Scalar } from '../types/vector.js'
import type { BoundExpr, PlanNode } from '../plan/plan-node.js'
import { LiteralList } from '../plan/literal-list.js'
import type { ExecContext } from './context.js'
import { runPlan } from './operators/runner.js'
import { batchBytes } from './memory.js'

/**
 * Computes every subquery under `root` (a plan or an expression) that has not been computed yet;
 * undefined when `root` has none, so the common case costs no await.
 */
export function prepareSubqueries(root: PlanNode | BoundExpr, ctx: ExecContext): Promise<void> | undefined {
  const pending = findSubqueries(root)
  return pending.length === 0 ? undefined : computeSubqueries(pending, ctx)
}

/** The uncorrelated subqueries under `root`, in the order they are computed (a cached plan keeps its list). */
export function findSubqueries(root: PlanNode | BoundExpr): BoundExpr[] {
  const found: BoundExpr[] = []
  collect(root, found)
  return found
}

/** Computes the subqueries `pending` (from {@link findSubqueries}) not computed yet in `ctx`. */
export async function computeSubqueries(pending: readonly BoundExpr[], ctx: ExecContext): Promise<void> {
  for (const e of pending) {
    if (ctx.subqueryValues.has(e)) continue
    if (e.kind === 'subquery') {
      await prepareSubqueries(e.plan, ctx)
      let value: Scalar = null
      let rows = 0
      for await (const b of runPlan(ctx.physical(e.plan), ctx)) {
        if (b.length === 0) continue
        rows += b.length
        if (rows > 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'more than one row returned by a subquery used as an expression', e.pos)
        value = getScalar(b.vectors[0]!, 0)
      }
      ctx.subqueryValues.set(e, value)
    } else if (e.kind === 'exists') {
      await prepareSubqueries(e.plan, ctx)
      let any = false
      for await (const b of runPlan(ctx.physical(e.plan), ctx)) if (b.length > 0) { any = true; break }
      ctx.subqueryValues.set(e, any !== e.not)
    } else if (e.kind === 'in' && e.values instanceof LiteralList) {
      await e.values.prepare(() => ctx.maybeYield())
    } else if (e.kind === 'in_query') {
      await prepareSubqueries(e.plan, ctx)
      const values: Scalar[] = []
      // held for the whole statement: released when it ends
      const mem = ctx.memory.reservation('IN (SELECT ...) values')
      for await (const b of runPlan(ctx.physical(e.plan), ctx)) {
        mem.grow(8 * b.length + batchBytes(b))
        for (let i = 0; i < b.length; i++) values.push(getScalar(b.vectors[0]!, i))
      }
      ctx.subqueryValues.set(e, values)
    }
  }
}

function collect(x: PlanNode | BoundExpr, out: BoundExpr[]): void {
  switch (x.kind) {
    case 'subquery': case 'exists': out.push(x); return
    case 'in_query': out.push(x); collect(x.expr, out); return
    case 'column': case 'const': case 'param': return
    case 'call': x.args.forEach((a) => collect(a, out)); return
    case 'in': if (x.values instanceof LiteralList && !x.values.ready) out.push(x); collect(x.expr, out); return
    case 'cast': case 'isnull': case 'in_intervals': collect(x.expr, out); return
    case 'case': x.whens.forEach((w) => { collect(w.when, out); collect(w.then, out) }); collect(x.else, out); return
    case 'scan': case 'table_function': return
    case 'values': x.rows.forEach((r) => r.forEach((e) => collect(e, out))); return
    case 'filter': collect(x.predicate, out); collect(x.input, out); return
    case 'project': x.exprs.forEach((e) => collect(e, out)); collect(x.input, out); return
    case 'aggregate': x.keys.forEach((e) => collect(e, out)); x.aggregates.forEach((a) => a.args.forEach((e) => collect(e, out))); collect(x.input, out); return
    case 'sort': x.keys.forEach((k) => collect(k.expr, out)); collect(x.input, out); return
    case 'limit': collect(x.lo, out); if (x.hi !== undefined) collect(x.hi, out); collect(x.input, out); return
    case 'distinct': collect(x.input, out); return
    case 'setop': collect(x.left, out); collect(x.right, out); return
    case 'sample_by': case 'latest_on': case 'window': collect(x.input, out); return
    case 'time_join': collect(x.left, out); collect(x.right, out); return
    case 'window_join':
      collect(x.left, out); collect(x.right, out)
      x.leftKeys.forEach((e) => collect(e, out)); x.rightKeys.forEach((e) => collect(e, out))
      x.aggregates.forEach((a) => a.args.forEach((e) => collect(e, out)))
      return
    case 'horizon_join':
      collect(x.left, out); collect(x.right, out)
      x.leftKeys.forEach((e) => collect(e, out)); x.rightKeys.forEach((e) => collect(e, out))
      return
    case 'parallel_aggregate': case 'parallel_filter': collect(x.logical, out); return
    case 'lateral_join':
      collect(x.left, out); collect(x.right, out); x.outerRefs.forEach((e) => collect(e, out))
      if (x.residual !== undefined) collect(x.residual, out)
      return
    case 'join':
      collect(x.left, out); collect(x.right, out)
      x.leftKeys.forEach((e) => collect(e, out)); x.rightKeys.forEach((e) => collect(e, out))
      if (x.residual !== undefined) collect(x.residual, out)
      return
  }
}
