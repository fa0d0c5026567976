/**
 * A decorrelated subquery (plan/optimize/decorrelate.ts): the subquery's rows are read once into
 * a hash table keyed on its correlation columns (per key: found (EXISTS), the one value (scalar),
 * or the set of values (IN)), then the left rows stream through it and get one column each, as
 * the per-row apply step (apply.ts) would give them. A key without right rows gets the outcome of
 * no rows, or of the `empty` plan (an aggregate without GROUP BY over no rows, run once when first
 * needed). With `semi`, only the rows whose column is true are emitted (a semi or anti join).
 * NULL keys match NULL keys, as `NULL = NULL` is true. Cancellation is checked per batch and
 * every few thousand rows of the build.
 */
import { SqlError, SqlState } from '../../errors.js'
import { type Batch, type Scalar, type Vector, VectorWriter, gather, getScalar, materialize } from '../../types/vector.js'
import type { LateralJoinNode } from '../../plan/plan-node.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'
import { compileExpr, selection } from '../evaluate.js'
import { keyPart } from '../keys/row-key.js'
import { MAP_ENTRY_BYTES, STRING_OVERHEAD_BYTES } from '../memory.js'
import { type InValues, type Outcome, addInValues, outcomeOf, setOutcome } from './apply.js'
import type { Runner } from './runner.js'

/** A scalar subquery's key with more than one row: an error when a left row meets it. */
const MANY = Symbol('more than one row')
/** The Map key of a NULL single key. */
const NULL_KEY = Symbol('null')

/** Bytes of table estimate reserved at a time (accounting per chunk, not per row). */
const BUILD_CHUNK_BYTES = 1 << 20

/** Runs a LATERAL node with `apply` and `hash` set. */
export async function* runHashApply(node: LateralJoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const apply = node.apply!
  const hash = node.hash!
  const mem = ctx.memory.reservation('correlated subquery hash table')
  try {
    const table = new Map<unknown, Outcome | typeof MANY>()
    const rightKeys = hash.rightKeys.map((e) => compileExpr(e, ctx))
    let pending = 0
    let work = 0
    for await (const b of run(node.right, ctx)) {
      const keys = rightKeys.map((f) => materialize(f(b)))
      const value = apply.mode === 'exists' ? undefined : materialize(b.vectors[0]!)
      for (let i = 0; i < b.length; i++) {
        if (++work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
        const key = keyOf(keys, i)
        const had = table.get(key)
        if (had === undefined && !table.has(key)) pending += MAP_ENTRY_BYTES + (typeof key === 'string' ? STRING_OVERHEAD_BYTES + 2 * key.length : 0)
        if (apply.mode === 'exists') table.set(key, true)
        else if (apply.mode === 'scalar') table.set(key, had === undefined && !table.has(key) ? getScalar(value!, i) : MANY)
        else {
          let values = had as InValues | undefined
          if (values === undefined) table.set(key, values = { set: new Set(), hasNull: false })
          addInValues(values, value!, i, i + 1)
          pending += 16
        }
      }
      if (pending > BUILD_CHUNK_BYTES) { mem.grow(pending); pending = 0 }
      await ctx.maybeYield()
    }
    mem.grow(pending)

    // a scalar's outcome of no rows is null: `computed` says whether `empty` holds it yet
    let empty: Outcome = hash.empty === undefined ? noRows(apply.mode) : null
    let computed = hash.empty === undefined
    const leftKeys = hash.leftKeys.map((e) => compileExpr(e, ctx))
    const probe = apply.mode === 'in' ? compileExpr(apply.probe, ctx) : undefined
    const type = node.output[node.output.length - 1]!.type
    for await (const b of run(node.left, ctx)) {
      const keys = leftKeys.map((f) => materialize(f(b)))
      const probeVector = probe === undefined ? undefined : materialize(probe(b))
      const out = new VectorWriter(type, b.length)
      for (let i = 0; i < b.length; i++) {
        const key = keyOf(keys, i)
        let got = table.get(key)
        if (got === MANY) throw new SqlError(SqlState.SYNTAX_ERROR, 'more than one row returned by a subquery used as an expression', apply.mode === 'scalar' ? apply.pos : 0)
        if (got === undefined && !table.has(key)) {
          if (!computed) { empty = await outcomeOf(apply, run(hash.empty!, ctx)); computed = true }
          got = empty
        }
        setOutcome(out, i, apply, got as Outcome, probeVector)
      }
      const column = out.finish()
      if (hash.semi !== true) yield { length: b.length, vectors: [...b.vectors, column] }
      else {
        const { sel, count } = selection(column, b.length)
        if (count === b.length) yield { length: b.length, vectors: [...b.vectors, column] }
        else if (count > 0) yield { length: count, vectors: [...b.vectors, column].map((v) => gather(v, sel, count)) }
      }
      await ctx.maybeYield()
    }
  } finally {
    mem.close()
  }
}

/** What a subquery without rows gives. */
function noRows(mode: 'scalar' | 'exists' | 'in'): Outcome {
  return mode === 'exists' ? false : mode === 'scalar' ? null : { set: new Set(), hasNull: false }
}

/**
 * The Map key of row `i`'s key values: one number, text or boolean as itself (a LONG as a bigint
 * only beyond 2^53, so equal values give equal keys whatever vector carries them), else the
 * tuple's text ({@link keyPart}).
 */
function keyOf(keys: readonly Vector[], i: number): unknown {
  if (keys.length === 1) {
    const s: Scalar = getScalar(keys[0]!, i)
    if (s === null) return NULL_KEY
    if (typeof s === 'number' || typeof s === 'string' || typeof s === 'boolean') return s
    if (typeof s === 'bigint') return Number.isSafeInteger(Number(s)) ? Number(s) : `n${s}`
    return keyPart(s)
  }
  let text = ''
  for (const v of keys) text += keyPart(getScalar(v, i))
  return text
}
