/**
 * Compiles bound expressions into closures that compute one vector per batch.
 *
 * Compilation happens once per statement execution, so per-call state (`init`) lives in the
 * closure. Vector kernels run as they are; row kernels are looped here, with the null-strict
 * shortcut. Constant sub-expressions stay constant vectors.
 */
import { internalError } from '../errors.js'
import { INT_NULL, LONG_NULL } from '../types/column-type.js'
import {
  type Batch, type Scalar, type Vector, VectorWriter, constVector, getScalar, isNullAt, materialize, sliceVector,
} from '../types/vector.js'
import { castScalar, castVector } from '../types/cast.js'
import { parseInterval } from '../types/interval.js'
import type { BoundExpr } from '../plan/plan-node.js'
import { type InLookup, inLookup, LiteralList } from '../plan/literal-list.js'
import type { ExecContext } from './context.js'
import { compileNsInIntervals } from './ns-intervals.js'
import { nsIntervalsOf } from '../types/timestamp-ns-interval.js'
import { nsParts } from '../types/timestamp-ns.js'

/** Computes one vector for a batch. */
export type Evaluator = (batch: Batch) => Vector

/** The constant vector of each literal, made once: plans are cached, and constant vectors are never written. */
const CONSTANTS = new WeakMap<BoundExpr, Vector>()

function constantOf(expr: Extract<BoundExpr, { kind: 'const' }>): Vector {
  let v = CONSTANTS.get(expr)
  if (v === undefined) CONSTANTS.set(expr, v = constVector(expr.type, expr.value, 1))
  return v
}

/** Compiles `expr` for one execution in `ctx`. */
export function compileExpr(expr: BoundExpr, ctx: ExecContext): Evaluator {
  switch (expr.kind) {
    case 'column': {
      const i = expr.index
      return (b) => b.vectors[i]!
    }
    case 'const': {
      const base = constantOf(expr)
      let last = base
      return (b) => (b.length === last.length ? last : (last = { ...base, length: b.length }))
    }
    case 'param': {
      const { type, index } = expr
      return (b) => constVector(type, ctx.params[index] ?? null, b.length)
    }
    case 'cast': {
      const inner = compileExpr(expr.expr, ctx)
      const to = expr.type
      return (b) => castVector(inner(b), to)
    }
    case 'call': return compileCall(expr, ctx)
    case 'case': return compileCase(expr, ctx)
    case 'isnull': {
      const inner = compileExpr(expr.expr, ctx)
      const not = expr.not
      return (b) => {
        const v = inner(b)
        const out = new Uint8Array(b.length)
        for (let i = 0; i < b.length; i++) out[i] = isNullAt(v, i) !== not ? 1 : 0
        return { kind: 'bool', type: 'BOOLEAN', length: b.length, data: out }
      }
    }
    case 'in': return compileIn(compileExpr(expr.expr, ctx), expr.values instanceof LiteralList ? expr.values.lookup : inLookup(expr.values), expr.not)
    case 'in_intervals': {
      const inner = compileExpr(expr.expr, ctx)
      if (expr.nsIntervals !== undefined) return compileNsInIntervals(inner, expr.nsIntervals, expr.not)
      // `ts_ns IN $1`: the parameter's interval string read to the nanosecond
      if (expr.param !== undefined && expr.expr.type === 'TIMESTAMP_NS') return compileNsInIntervals(inner, nsParamIntervals(ctx.params[expr.param.index] ?? null, expr.param.pos, ctx.now, ctx.nowSub), expr.not)
      // `ts_ns IN '$now - 1h..$now'`: read against this execution's start, to the nanosecond
      if (expr.tick !== undefined && expr.expr.type === 'TIMESTAMP_NS') return compileNsInIntervals(inner, nsIntervalsOf(expr.tick.text, expr.tick.pos, ctx.now, ctx.nowSub), expr.not)
      const iv = expr.tick !== undefined ? parseInterval(expr.tick.text, expr.tick.pos, ctx.now) : expr.param === undefined ? expr.intervals : paramIntervals(ctx.params[expr.param.index] ?? null, expr.param.pos, ctx.now)
      const not = expr.not
      return (b) => {
        const v = materialize(inner(b))
        const out = new Uint8Array(b.length)
        for (let i = 0; i < b.length; i++) {
          const s = getScalar(v, i)
          out[i] = (s !== null && inIntervals(iv, Number(s))) !== not ? 1 : 0
        }
        return { kind: 'bool', type: 'BOOLEAN', length: b.length, data: out }
      }
    }
    case 'subquery': {
      const key = expr
      const type = expr.type
      return (b) => constVector(type, (ctx.subqueryValues.get(key) as Scalar | undefined) ?? null, b.length)
    }
    case 'exists': {
      const key = expr
      return (b) => constVector('BOOLEAN', ctx.subqueryValues.get(key) === true, b.length)
    }
    case 'in_query': {
      const inner = compileExpr(expr.expr, ctx)
      const key = expr
      const not = expr.not
      let compiled: Evaluator | undefined
      return (b) => {
        compiled ??= compileIn(inner, inLookup((ctx.subqueryValues.get(key) as Scalar[] | undefined) ?? []), not)
        return compiled(b)
      }
    }
  }
}

/** The intervals of a text parameter's value (none for NULL); a bad string is 22007 at the parameter. */
function paramIntervals(value: Scalar, pos: number, now: number): Float64Array {
  if (value === null) return new Float64Array(0)
  if (typeof value === 'number' || typeof value === 'bigint') return Float64Array.of(Number(value), Number(value))
  return parseInterval(String(value), pos, now)
}

/** {@link paramIntervals} for a TIMESTAMP_NS value: four numbers per interval (types/timestamp-ns-interval.ts). */
function nsParamIntervals(value: Scalar, pos: number, now: number, nowSub: number): Float64Array {
  if (value === null) return new Float64Array(0)
  if (typeof value === 'number' || typeof value === 'bigint') { const p = nsParts(value); return Float64Array.of(p.micros, p.sub, p.micros, p.sub) }
  return nsIntervalsOf(String(value), pos, now, nowSub)
}

/** True when `x` lies in one of the inclusive [lo, hi] pairs of `iv` (sorted, disjoint). */
function inIntervals(iv: Float64Array, x: number): boolean {
  let lo = 0
  let hi = (iv.length >> 1) - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (x < iv[mid * 2]!) hi = mid - 1
    else if (x > iv[mid * 2 + 1]!) lo = mid + 1
    else return true
  }
  return false
}

function compileCall(expr: Extract<BoundExpr, { kind: 'call' }>, ctx: ExecContext): Evaluator {
  const args = expr.args.map((a) => compileExpr(a, ctx))
  const { def, site } = expr
  const state = def.init?.(site, ctx)
  if (def.vector !== undefined) {
    const kernel = def.vector
    return (b) => kernel(args.map((a) => a(b)), b.length, ctx, state)
  }
  const row = def.row
  if (row === undefined) throw internalError(`function ${def.name} has no kernel`)
  const strict = def.nullStrict !== false
  const type = expr.type
  return (b) => {
    const vs = args.map((a) => a(b))
    // all-constant arguments (none at all included: now(), today()) give one value for the batch
    const allConst = vs.every((v) => v.isConst === true) && def.deterministic !== false
    const n = allConst ? 1 : b.length
    const w = new VectorWriter(type, n)
    const scalars: Scalar[] = new Array(vs.length)
    for (let i = 0; i < n; i++) {
      let hasNull = false
      for (let k = 0; k < vs.length; k++) {
        const s = getScalar(vs[k]!, i)
        if (s === null) hasNull = true
        scalars[k] = s
      }
      w.set(i, strict && hasNull ? null : row(scalars, ctx, state))
    }
    const out = w.finish()
    return allConst ? { ...out, length: b.length, isConst: true } : out
  }
}

function compileCase(expr: Extract<BoundExpr, { kind: 'case' }>, ctx: ExecContext): Evaluator {
  const whens = expr.whens.map((w) => ({ when: compileExpr(w.when, ctx), then: compileExpr(w.then, ctx) }))
  const otherwise = compileExpr(expr.else, ctx)
  const type = expr.type
  return (b) => {
    const n = b.length
    const chosen = new Int32Array(n).fill(-1)
    let open = n
    for (let k = 0; k < whens.length && open > 0; k++) {
      const c = whens[k]!.when(b)
      for (let i = 0; i < n; i++) {
        if (chosen[i] === -1 && c.kind === 'bool' && c.data[c.isConst ? 0 : i] === 1) { chosen[i] = k; open-- }
      }
    }
    const values = whens.map((w, k) => (chosen.includes(k) ? w.then(b) : undefined))
    const fallback = open > 0 ? otherwise(b) : undefined
    const w = new VectorWriter(type, n)
    for (let i = 0; i < n; i++) {
      const k = chosen[i]!
      const src = k < 0 ? fallback! : values[k]!
      w.set(i, getScalar(src, i))
    }
    return w.finish()
  }
}

/** The values of an IN list (a long literal list's, converted by now in slices when the statement was prepared). */
export function inValues(values: readonly Scalar[] | LiteralList): readonly Scalar[] {
  return values instanceof LiteralList ? values.values : values
}

/** `x IN (values)`, the values (already of x's type) given as their lookup (nulls match nulls, as QuestDB's `=`). */
function compileIn(inner: Evaluator, lookup: InLookup, not: boolean): Evaluator {
  const { set, hasNull } = lookup
  return (b) => {
    const v = inner(b)
    const n = b.length
    const out = new Uint8Array(n)
    if (v.kind === 'sym' && !v.isConst) {
      const hit = new Uint8Array(v.dict.size + 1)
      for (let k = 0; k < v.dict.size; k++) if (set.has(v.dict.values[k])) hit[k + 1] = 1
      if (hasNull) hit[0] = 1
      for (let i = 0; i < n; i++) out[i] = (hit[v.data[i]! + 1] === 1) !== not ? 1 : 0
    } else if ((v.kind === 'i32' || v.kind === 'f64') && !v.isConst) {
      const d = v.data
      const nullValue = v.kind === 'i32' ? (v.type === 'IPV4' ? 0 : INT_NULL) : NaN
      for (let i = 0; i < n; i++) {
        const x = d[i]!
        const isNull = v.kind === 'i32' ? x === nullValue : !Number.isFinite(x)
        out[i] = (isNull ? hasNull : set.has(x)) !== not ? 1 : 0
      }
    } else if (v.kind === 'i64' && v.data instanceof Float64Array && !v.isConst) {
      const d = v.data
      for (let i = 0; i < n; i++) {
        const x = d[i]!
        out[i] = (x === LONG_NULL ? hasNull : set.has(x)) !== not ? 1 : 0
      }
    } else {
      for (let i = 0; i < n; i++) {
        const s = getScalar(v, i)
        out[i] = (s === null ? hasNull : set.has(typeof s === 'bigint' ? s.toString() : s)) !== not ? 1 : 0
      }
    }
    return { kind: 'bool', type: 'BOOLEAN', length: n, data: out }
  }
}

/** Runs `init` of every call in `expr` (arguments first), as QuestDB does when a cursor opens. */
export function initRowStates(expr: BoundExpr, ctx: ExecContext, states: Map<BoundExpr, unknown>): void {
  if (expr.kind === 'call') {
    for (const a of expr.args) initRowStates(a, ctx, states)
    if (!states.has(expr)) states.set(expr, expr.def.init?.(expr.site, ctx))
  } else if (expr.kind === 'cast') initRowStates(expr.expr, ctx, states)
  else if (expr.kind === 'case') {
    for (const w of expr.whens) { initRowStates(w.when, ctx, states); initRowStates(w.then, ctx, states) }
    initRowStates(expr.else, ctx, states)
  }
}

/**
 * Evaluates `expr` for row `i` of `batch` only (the interleaved path for several rnd_* columns):
 * calls, columns, constants and casts at scalar level, each call's state created once (so a
 * nested `rnd_symbol` keeps one dictionary); anything else through an evaluator compiled once
 * and run on a one-row view of the batch.
 */
export function evalRow(expr: BoundExpr, batch: Batch, i: number, ctx: ExecContext, states: Map<BoundExpr, unknown>): Scalar {
  switch (expr.kind) {
    case 'column': return getScalar(batch.vectors[expr.index]!, i)
    case 'const': return expr.value
    case 'cast': return castScalar(evalRow(expr.expr, batch, i, ctx, states), expr.expr.type, expr.type)
    case 'call': {
      if (!states.has(expr)) states.set(expr, expr.def.init?.(expr.site, ctx))
      const state = states.get(expr)
      const args = expr.args.map((a) => evalRow(a, batch, i, ctx, states))
      if (expr.def.row !== undefined) {
        if (expr.def.nullStrict !== false && args.some((a) => a === null)) return null
        return expr.def.row(args, ctx, state)
      }
      const vectors = args.map((a, k) => constVector(expr.args[k]!.type, a, 1))
      return getScalar(expr.def.vector!(vectors, 1, ctx, state), 0)
    }
    default: {
      // compiled once per execution, kept in `states` (the key is not a call, so no clash)
      let ev = states.get(expr) as Evaluator | undefined
      if (ev === undefined) { ev = compileExpr(expr, ctx); states.set(expr, ev) }
      return getScalar(ev({ length: 1, vectors: batch.vectors.map((v) => sliceVector(v, i, i + 1)) }), 0)
    }
  }
}

/** Evaluates a constant expression (no columns) to a scalar. */
export function evalConstant(expr: BoundExpr, ctx: ExecContext): Scalar {
  const v = compileExpr(expr, ctx)({ length: 1, vectors: [] })
  return getScalar(v, 0)
}

/**
 * A BOOLEAN vector's selected rows as an index list. Branch-free (the write always happens, the
 * count advances by the mask bit), so a 50% selective filter costs no branch mispredictions.
 */
export function selection(mask: Vector, length: number): { sel: Int32Array; count: number } {
  const sel = new Int32Array(length)
  let count = 0
  if (mask.kind !== 'bool') return { sel, count }
  const d = mask.data
  if (mask.isConst) {
    if (d[0] === 1) for (let i = 0; i < length; i++) sel[count++] = i
    return { sel, count }
  }
  for (let i = 0; i < length; i++) { sel[count] = i; count += d[i]! & 1 }
  return { sel, count }
}
