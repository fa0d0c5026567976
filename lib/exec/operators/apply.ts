/**
 * The apply step of a correlated subquery (plan/bind-correlated.ts): for each row of the left
 * input, the subquery runs with the outer columns it names as parameters, and one column is added
 * with its value (scalar), whether it returned a row (EXISTS) or whether the row's probe value is
 * among its values (IN). Results are memoised per distinct outer values (up to
 * {@link MEMO_LIMIT} of them at a time), so an equality correlation on a key runs the subquery
 * once per key. Rows stream through; cancellation and the timeout are checked per run.
 */
import { SqlError, SqlState } from '../../errors.js'
import { type Batch, type Scalar, type Vector, VectorWriter, getScalar, materialize } from '../../types/vector.js'
import type { CorrelatedApply, LateralJoinNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import type { Runner } from './runner.js'

/** Distinct outer values whose results are kept; the memo starts afresh past it. */
const MEMO_LIMIT = 65_536

/** What one run of the subquery gave, per mode: EXISTS a boolean, scalar its value, IN its values. */
export type Outcome = Scalar | InValues

/** The values of an IN subquery's one column (bigints as text), and whether one was NULL. */
export interface InValues { readonly set: Set<unknown>; hasNull: boolean }

/** Runs a LATERAL node with `apply` set. */
export async function* runApply(node: LateralJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const apply = node.apply!
  const refs = node.outerRefs.map((e) => compileExpr(e, ctx))
  const probe = apply.mode === 'in' ? compileExpr(apply.probe, ctx) : undefined
  const type = node.output[node.output.length - 1]!.type
  const memo = new Map<unknown, Outcome>()
  const once = async (values: Scalar[]): Promise<Outcome> => {
    await ctx.maybeYield()
    const params: Scalar[] = [...ctx.params]
    for (let k = params.length; k < node.paramBase; k++) params.push(null)
    values.forEach((v, k) => { params[node.paramBase + k] = v })
    const child = Object.create(ctx, { params: { value: params } }) as ExecContext
    return outcomeOf(apply, run(node.right, child))
  }
  for await (const b of run(node.left, ctx)) {
    const refVectors = refs.map((f) => materialize(f(b)))
    const probeVector = probe === undefined ? undefined : materialize(probe(b))
    const out = new VectorWriter(type, b.length)
    for (let i = 0; i < b.length; i++) {
      const values = refVectors.map((v) => getScalar(v, i))
      const key = memoKey(values)
      let got = memo.get(key)
      if (got === undefined && !memo.has(key)) {
        got = await once(values)
        if (memo.size >= MEMO_LIMIT) memo.clear()
        memo.set(key, got)
      }
      setOutcome(out, i, apply, got!, probeVector)
    }
    yield { length: b.length, vectors: [...b.vectors, out.finish()] }
  }
}

/** A Map key for outer values: the value itself for one number or text, else a JSON text. */
function memoKey(values: readonly Scalar[]): unknown {
  if (values.length === 1) {
    const v = values[0]
    if (typeof v === 'number' || typeof v === 'boolean' || v === null) return v
    if (typeof v === 'string') return `s${v}`
  }
  return JSON.stringify(values, (_, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? Array.from(x) : x))
}

/** What the rows of one run of a correlated subquery give in `apply`'s mode. */
export async function outcomeOf(apply: CorrelatedApply, rows: AsyncIterable<Batch>): Promise<Outcome> {
  if (apply.mode === 'exists') {
    for await (const r of rows) if (r.length > 0) return true
    return false
  }
  if (apply.mode === 'scalar') {
    let value: Scalar = null
    let n = 0
    for await (const r of rows) {
      if (r.length === 0) continue
      n += r.length
      if (n > 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'more than one row returned by a subquery used as an expression', apply.pos)
      value = getScalar(r.vectors[0]!, 0)
    }
    return value
  }
  const values: InValues = { set: new Set<unknown>(), hasNull: false }
  for await (const r of rows) addInValues(values, materialize(r.vectors[0]!), 0, r.length)
  return values
}

/** Adds rows [from, to) of `v` to an IN subquery's values. */
export function addInValues(values: InValues, v: Vector, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const s = getScalar(v, i)
    if (s === null) values.hasNull = true
    else values.set.add(typeof s === 'bigint' ? s.toString() : s)
  }
}

/**
 * Writes row `i` of the apply step's column from the subquery's outcome for that row: EXISTS
 * (negated by NOT), the scalar value, or whether the row's probe value is among the IN values
 * (a NULL probe is when one of them is NULL, as NULL = NULL is true; negated by NOT).
 */
export function setOutcome(out: VectorWriter, i: number, apply: CorrelatedApply, got: Outcome, probe: Vector | undefined): void {
  if (apply.mode === 'exists') out.set(i, (got === true) !== apply.not)
  else if (apply.mode === 'scalar') out.set(i, got as Scalar)
  else {
    const { set, hasNull } = got as InValues
    const s = getScalar(probe!, i)
    const hit = s === null ? hasNull : set.has(typeof s === 'bigint' ? s.toString() : s)
    out.set(i, hit !== apply.not)
  }
}
