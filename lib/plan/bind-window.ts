/**
 * Binds window calls (`f(...) [IGNORE NULLS] OVER (...)` / `OVER w`) over a select's input, and
 * builds the node that computes them. Named windows resolve through the WINDOW clause, with
 * inheritance (`OVER (w ORDER BY x)`, `WINDOW w2 AS (w1 ...)`). Frames are checked with QuestDB's
 * rules and messages (§3.7): starts are UNBOUNDED PRECEDING, n PRECEDING or CURRENT ROW; ends are
 * n PRECEDING, CURRENT ROW, or UNBOUNDED FOLLOWING after an UNBOUNDED PRECEDING start; RANGE
 * offsets need ORDER BY on the designated timestamp and are times (`'1' MINUTE`) or microseconds.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Call, Expr, FrameBound, NamedWindow, OrderItem, WindowFrame, WindowSpec } from '../sql/ast.js'
import { type ColumnType, isNumeric, typeName } from '../types/column-type.js'
import { WINDOW_SPECS, type WindowFnSpec } from '../functions/window/specs.js'
import { isDecimal } from '../types/decimal.js'
import { sumResultType } from '../types/decimal-rules.js'
import type { BoundExpr, PlanNode, SortKey } from './plan-node.js'
import type { BoundFrame, WindowCall } from './nodes/window.js'
import type { Scope } from './scope.js'
import { type ExprEnv, bindExpr, castTo } from './bind-expr.js'
import { type BindContext, bindQuery } from './bind-query.js'
import { astKey } from './naming.js'

const syntax = (msg: string, pos: number) => new SqlError(SqlState.SYNTAX_ERROR, msg, pos)

/** Binds one window call over `scope`; `windows` is the select's WINDOW clause. */
export function bindWindowCall(call: Call, scope: Scope, bc: BindContext, windows: readonly NamedWindow[]): WindowCall {
  const name = call.name.toLowerCase()
  const spec = WINDOW_SPECS[name]
  if (spec === undefined || call.distinct) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `${name}${call.distinct ? '(distinct)' : ''} is not supported as a window function`, call.pos)
  const over = resolveSpec(call.over!, windows, [])
  const env: ExprEnv = { scope, paramTypes: bc.paramTypes, bindSubquery: (q) => bindQuery(q, bc), clause: 'a window function' }
  const args = call.star ? [] : call.args.map((a) => bindExpr(a, env))
  if (args.length < spec.minArgs || args.length > spec.maxArgs) {
    throw new SqlError(SqlState.UNDEFINED_FUNCTION, `there is no matching function for ${name}(${args.map((a) => typeName(a.type)).join(', ')})`, call.pos)
  }
  if (call.ignoreNulls === true && !spec.nulls) throw syntax('RESPECT/IGNORE NULLS is not supported for current window function', call.pos)
  const type = resultType(spec, name, args, call)
  const n = spec.constArg < 0 || args.length <= spec.constArg ? spec.defaultN : constInt(args[spec.constArg]!, call.args[spec.constArg]!.pos, spec.minN)
  const partitionBy = over.partitionBy.map((e) => bindExpr(e, { ...env, clause: 'PARTITION BY' }))
  const orderBy: SortKey[] = over.orderBy.map((o) => ({ expr: bindExpr(o.expr, { ...env, clause: 'ORDER BY' }), desc: o.desc, nullsFirst: o.nulls === undefined ? !o.desc : o.nulls === 'first' }))
  const nsKey = orderBy.length === 1 && orderBy[0]!.expr.type === 'TIMESTAMP_NS'
  const frame = spec.framed ? bindFrame(over.frame, over.orderBy, call.pos, over.pos, nsKey) : { units: 'rows' as const, lo: -Infinity, hi: Infinity }
  const raw = args[0]
  const arg = raw === undefined || spec.result !== 'same' ? raw : castTo(raw, type, call.args[0]!.pos, false)
  const def = spec.fn === 'lag' || spec.fn === 'lead' ? args[2] : undefined
  return {
    type, fn: spec.fn, arg, n,
    default: def === undefined ? undefined : castTo(def, type, call.args[2]!.pos, false),
    ignoreNulls: call.ignoreNulls === true,
    partitionBy, orderBy, frame,
    sortKey: JSON.stringify([over.partitionBy.map(astKey), over.orderBy.map((o) => [astKey(o.expr), o.desc, o.nulls ?? ''])]),
    orderPos: over.orderBy[0]?.expr.pos ?? over.pos,
    needsTimestampOrder: spec.framed && frame.units === 'range' && orderBy.length > 0 && !isDefaultFrame(frame),
    // a symbol default may be outside the column's dictionary; the operator then builds its own
    ...(raw?.kind === 'column' && raw.dict !== undefined && type === 'SYMBOL' && def === undefined ? { dict: raw.dict } : {}),
  }
}

/** The node computing `calls` over `input`: output = input's columns, then one column per call. */
export function windowNode(input: PlanNode, calls: readonly WindowCall[]): PlanNode {
  for (const c of calls) {
    if (!c.needsTimestampOrder) continue
    const k = c.orderBy[0]!.expr
    if (c.orderBy.length !== 1 || k.kind !== 'column' || k.index !== input.timestampIndex || input.timestampIndex < 0) {
      throw syntax('RANGE is supported only for queries ordered by designated timestamp', c.orderPos)
    }
  }
  const output = [...input.output, ...calls.map((c) => (c.dict === undefined ? { name: c.fn, type: c.type } : { name: c.fn, type: c.type, dict: c.dict }))]
  return { kind: 'window', input, calls, output, timestampIndex: input.timestampIndex }
}

// ---------------------------------------------------------------------------------------------

interface ResolvedSpec {
  readonly pos: number
  readonly partitionBy: readonly Expr[]
  readonly orderBy: readonly OrderItem[]
  readonly frame: WindowFrame | undefined
}

/** Follows `base` references through the WINDOW clause, merging as SQL's window inheritance does. */
function resolveSpec(spec: WindowSpec, windows: readonly NamedWindow[], seen: readonly string[]): ResolvedSpec {
  if (spec.base === undefined) return { pos: spec.pos, partitionBy: spec.partitionBy, orderBy: spec.orderBy, frame: spec.frame }
  const name = spec.base.toLowerCase()
  if (seen.includes(name)) throw syntax(`window '${spec.base}' references itself`, spec.pos)
  const named = windows.find((w) => w.name.toLowerCase() === name)
  if (named === undefined) throw syntax(`window '${spec.base}' is not defined`, spec.pos)
  const base = resolveSpec(named.spec, windows, [...seen, name])
  const adds = spec.partitionBy.length > 0 || spec.orderBy.length > 0 || spec.frame !== undefined
  if (spec.partitionBy.length > 0) throw syntax(`cannot override PARTITION BY clause of window '${spec.base}'`, spec.partitionBy[0]!.pos)
  if (spec.orderBy.length > 0 && base.orderBy.length > 0) throw syntax(`cannot override ORDER BY clause of window '${spec.base}'`, spec.orderBy[0]!.expr.pos)
  if (adds && base.frame !== undefined) throw syntax(`cannot copy window '${spec.base}' because it has a frame clause`, spec.pos)
  return {
    pos: spec.pos, partitionBy: base.partitionBy,
    orderBy: spec.orderBy.length > 0 ? spec.orderBy : base.orderBy,
    frame: spec.frame ?? base.frame,
  }
}

function resultType(spec: WindowFnSpec, name: string, args: readonly BoundExpr[], call: Call): ColumnType {
  const t = args[0]?.type
  const bad = () => new SqlError(SqlState.UNDEFINED_FUNCTION, `there is no matching function for ${name}(${args.map((a) => typeName(a.type)).join(', ')})`, call.pos)
  switch (spec.result) {
    case 'LONG': case 'DOUBLE': return spec.result
    case 'numeric':
      // DECIMAL: sum as the sum aggregate types it, avg the input's type (QuestDB's decimal aggregates); ksum is DOUBLE only
      if (t !== undefined && isDecimal(t) && name !== 'ksum') return name === 'sum' ? sumResultType(t) : t
      if (t === undefined || !(isNumeric(t) || t === 'NULL')) throw bad(); return 'DOUBLE'
    case 'ordered':
      if (t !== undefined && isDecimal(t)) return t
      if (t === 'TIMESTAMP' || t === 'TIMESTAMP_NS' || t === 'DATE') return t
      if (t === 'FLOAT' || t === 'DOUBLE' || t === 'NULL') return 'DOUBLE'
      if (t !== undefined && isNumeric(t)) return 'LONG'
      throw bad()
    case 'same':
      if (t === 'BYTE' || t === 'SHORT' || t === 'INT') return 'LONG'
      if (t === 'FLOAT' || t === 'NULL') return 'DOUBLE'
      return t!
  }
}

/** A constant integer argument (ntile's n, lag's offset, nth_value's n) of at least `min`. */
function constInt(b: BoundExpr, pos: number, min: number): number {
  const v = b.kind === 'const' ? b.value : undefined
  if (v === undefined) throw syntax('constant expected', pos)
  const n = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : NaN
  if (!Number.isInteger(n) || n < min) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `${min === 0 ? 'non-negative' : 'positive'} integer expected`, pos)
  return n
}

function isDefaultFrame(f: BoundFrame): boolean {
  return f.units === 'range' && f.lo === -Infinity && (f.hi === 0 || f.hi === Infinity)
}

/** Binds and checks a frame; no frame means RANGE UNBOUNDED PRECEDING .. CURRENT ROW (with peers). */
function bindFrame(frame: WindowFrame | undefined, orderBy: readonly OrderItem[], callPos: number, specPos: number, nsKey: boolean): BoundFrame {
  if (frame === undefined) return { units: 'range', lo: -Infinity, hi: 0 }
  if (frame.units === 'groups') {
    if (orderBy.length === 0) throw syntax('GROUPS mode requires an ORDER BY clause', specPos)
    throw syntax('function not implemented for given window parameters', callPos)
  }
  const units = frame.units
  if (frame.start.kind === 'unbounded following') throw syntax('frame start cannot be UNBOUNDED FOLLOWING, use UNBOUNDED PRECEDING', specPos)
  if (frame.end.kind === 'unbounded preceding') throw syntax('frame end cannot be UNBOUNDED PRECEDING, use UNBOUNDED FOLLOWING', specPos)
  const lo = boundOffset(frame.start, units, specPos, nsKey)
  let hi = boundOffset(frame.end, units, specPos, nsKey)
  if (frame.end.kind === 'preceding' && frame.start.kind === 'current row') throw syntax('frame starting from CURRENT ROW must end with CURRENT ROW or FOLLOWING', boundPos(frame.end, specPos))
  if (frame.end.kind === 'preceding' && frame.start.kind === 'following') throw syntax('frame starting from FOLLOWING must end with FOLLOWING', boundPos(frame.end, specPos))
  const hasOffset = 'offset' in frame.start || 'offset' in frame.end
  if (units === 'range' && hasOffset && orderBy.length !== 1) throw syntax('RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column', specPos)
  const bound: BoundFrame = { units, lo, hi }
  if (!isDefaultFrame(bound)) {
    if (lo > 0) throw syntax('frame start supports UNBOUNDED PRECEDING, _number_ PRECEDING and CURRENT ROW only', boundPos(frame.start, specPos))
    if (hi > 0 && hi !== Infinity) throw syntax('frame end supports _number_ PRECEDING and CURRENT ROW only', boundPos(frame.end, specPos))
    if (hi === Infinity && lo !== -Infinity) throw syntax('frame end supports UNBOUNDED FOLLOWING only when frame start is UNBOUNDED PRECEDING', boundPos(frame.end, specPos))
  }
  if (frame.exclude === 'current row') {
    if (hi === Infinity) throw syntax('EXCLUDE CURRENT ROW not supported with UNBOUNDED FOLLOWING frame boundary', specPos)
    if (hi === 0) hi = -1
    if (hi < lo) throw syntax('end of window is higher than start of window due to exclusion mode', specPos)
  }
  return { units, lo, hi }
}

function boundPos(b: FrameBound, fallback: number): number {
  return 'offset' in b ? b.offset.pos : fallback
}

/** Microseconds per RANGE time unit, singular and plural. */
const UNIT_MICROS: Readonly<Record<string, number>> = {
  day: 86_400_000_000, hour: 3_600_000_000, minute: 60_000_000, second: 1_000_000,
  millisecond: 1000, microsecond: 1, nanosecond: 0.001,
}

/**
 * The signed offset of a bound: -n PRECEDING, +n FOLLOWING, 0 CURRENT ROW, ±Infinity UNBOUNDED.
 * A RANGE offset without a unit is in the order key's own unit, as QuestDB reads it (the width is
 * converted only when a unit is written): microseconds for a TIMESTAMP key, nanoseconds (here a
 * fraction of a microsecond) for a TIMESTAMP_NS key (`nsKey`), the value itself for a number.
 */
function boundOffset(b: FrameBound, units: 'rows' | 'range', specPos: number, nsKey: boolean): number {
  switch (b.kind) {
    case 'unbounded preceding': return -Infinity
    case 'unbounded following': return Infinity
    case 'current row': return 0
    case 'preceding': case 'following': {
      const sign = b.kind === 'preceding' ? -1 : 1
      const e = b.offset
      const text = e.kind === 'literal' ? (e.type === 'string' ? e.value : 'text' in e ? e.text : '') : ''
      const n = Number(text.replace(/_/g, ''))
      if (text.trim() === '' || !Number.isFinite(n) || n < 0) throw syntax('non-negative integer expected', e.pos)
      if (b.unit === undefined) {
        if (!Number.isInteger(n)) throw syntax('non-negative integer expected', e.pos)
        return units === 'range' && nsKey ? sign * n * UNIT_MICROS['nanosecond']! : sign * n
      }
      if (units !== 'range') throw syntax('time units are only valid with RANGE frames, not ROWS or GROUPS', e.pos)
      const per = UNIT_MICROS[b.unit.replace(/s$/, '')]
      if (per === undefined) throw syntax(`unsupported time unit: ${b.unit}`, e.pos ?? specPos)
      // nanoseconds stay a fraction of a microsecond: a TIMESTAMP_NS key compares them exactly,
      // a TIMESTAMP key truncates them (exec/operators/window-frame.ts)
      return sign * (per < 1 ? n * per : Math.floor(n * per))
    }
  }
}
