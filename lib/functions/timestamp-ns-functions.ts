/**
 * TIMESTAMP_NS in the function registry (QuestDB 9's nanosecond timestamps): the operators
 * (`= != < <= > >=`, BETWEEN, `ns ± LONG`, `ns - ns`), nanosecond versions of the time
 * functions made from the microsecond ones (`scalar/timestamp-ns-lift.ts`), `datediff` exact in
 * nanoseconds, `nanos()`, `to_str` with nine digits, and the nanosecond-only functions
 * `now_ns()`, `systimestamp_ns()`, `to_timestamp_ns(text, fmt)` and
 * `timestamp_sequence_ns(start, step)`.
 *
 * {@link withTimestampNsOverloads} joins them to the built-ins of the same name (each name stays
 * defined once): a call site whose argument types are exactly a TIMESTAMP_NS signature runs the
 * nanosecond kernel, every other call the built-in's.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { internalError } from '../errors.js'
import type { ColumnType } from '../types/column-type.js'
import { type I64Vector, type Vector, VectorWriter, getScalar, materialize } from '../types/vector.js'
import { nsBig, nsOf, nsParts, nsScalar, splitNs } from '../types/timestamp-ns.js'
import { type TimeUnit, UNIT_MICROS, addMonths } from '../types/calendar.js'
import type { CallSite, FunctionDef, ScalarFunctionDef, Signature } from './registry-types.js'
import { textAt } from './kernel-helpers.js'
import type { CmpOp } from './scalar/compare-kernels.js'
import { addNs, betweenNs, compareNs } from './scalar/timestamp-ns-kernels.js'
import { type LiftMode, liftToNs, runKernel } from './scalar/timestamp-ns-lift.js'
import { parseUnit } from './scalar/time-helpers.js'
import { type Parser, formatWith, parseWithNanos, timeParser } from './scalar/time-format.js'
import { dateDiff } from './scalar/time.js'

const NS = 'TIMESTAMP_NS'

function op(name: string, description: string, signatures: Signature[], vector: ScalarFunctionDef['vector']): ScalarFunctionDef {
  return { kind: 'scalar', name, family: 'operator', description, example: `SELECT ts ${name} '2024-01-01T00:00:00.000000001Z' FROM t`, signatures, vector }
}

function cmp(name: string, o: CmpOp): ScalarFunctionDef {
  return op(name, `${name} on nanosecond timestamps (a TIMESTAMP operand is widened to nanoseconds).`, [{ args: [NS, NS], returns: 'BOOLEAN' }], (a, n) => compareNs(o, a[0]!, a[1]!, n))
}

/** Whole `unit`s between two nanosecond timestamps (absolute), exact for the fixed-length units. */
function dateDiffNs(unit: TimeUnit, a: bigint, b: bigint): bigint {
  const d = a > b ? a - b : b - a
  if (unit === 'n') return d
  if (unit === 'M' || unit === 'y') {
    const lo = nsParts(a < b ? a : b), hi = nsParts(a < b ? b : a)
    let k = dateDiff(unit, lo.micros, hi.micros)
    // a month is reached when its day and time are: at equal microseconds the nanoseconds decide
    if (k > 0 && addMonths(lo.micros, unit === 'y' ? 12 * k : k) === hi.micros && lo.sub > hi.sub) k--
    return BigInt(k)
  }
  return d / (BigInt(UNIT_MICROS[unit]) * 1000n)
}

interface SeqState { next: bigint | undefined }

const NS_ONLY: ScalarFunctionDef[] = [
  cmp('=', 'eq'), cmp('!=', 'ne'), cmp('<', 'lt'), cmp('<=', 'le'), cmp('>', 'gt'), cmp('>=', 'ge'),
  op('between', 'BETWEEN on nanosecond timestamps.', [{ args: [NS, NS, NS], returns: 'BOOLEAN' }], (a, n) => betweenNs(a[0]!, a[1]!, a[2]!, n)),
  op('+', 'TIMESTAMP_NS + n adds nanoseconds.', [{ args: [NS, 'LONG'], returns: NS }, { args: ['LONG', NS], returns: NS }], (a, n) => addNs(a[0]!, a[1]!, 1, n, NS)),
  op('-', 'TIMESTAMP_NS - n subtracts nanoseconds; the difference of two is in nanoseconds.', [{ args: [NS, 'LONG'], returns: NS }, { args: [NS, NS], returns: 'LONG' }],
    (a, n) => addNs(a[0]!, a[1]!, -1, n, a[1]!.type === NS ? 'LONG' : NS)),
  {
    kind: 'scalar', name: 'datediff', family: 'time',
    description: 'The absolute number of whole units between two timestamps; exact to the nanosecond on TIMESTAMP_NS.',
    example: "SELECT datediff('n', '2024-01-01T00:00:00.000000001Z'::timestamp_ns, '2024-01-01T00:00:00.000000010Z'::timestamp_ns)",
    signatures: [{ args: ['TEXT', NS, NS], returns: 'LONG' }],
    init: (site) => ({ pos: site.argPositions[0] ?? site.pos }),
    row: (a, _ctx, st) => {
      const u = parseUnit(String(a[0]), (st as { pos: number } | undefined)?.pos ?? -1)
      return nsScalar(dateDiffNs(u.unit, nsBig(a[1] as number | bigint), nsBig(a[2] as number | bigint)) * BigInt(1))
    },
  },
  {
    kind: 'scalar', name: 'nanos', family: 'time', description: 'Nanoseconds of the microsecond, 0-999.', example: "SELECT nanos('2024-01-01T00:00:00.123456789Z'::timestamp_ns)",
    signatures: [{ args: [NS], returns: 'INT' }],
    vector: (a, n) => {
      const v = a[0]! as I64Vector
      const { micros, sub } = splitNs(v, n)
      const out = new Int32Array(micros.length)
      for (let i = 0; i < out.length; i++) out[i] = micros[i] === -9223372036854775808 ? -2147483648 : sub[i]!
      return { kind: 'i32', type: 'INT', length: n, isConst: v.isConst, data: out }
    },
  },
  {
    kind: 'scalar', name: 'to_str', family: 'time', description: 'Formats a timestamp with a format pattern; N gives the nanoseconds.', example: "SELECT to_str(now_ns(), 'yyyy-MM-ddTHH:mm:ss.SSSUUUNNN')",
    signatures: [{ args: [NS, 'TEXT'], returns: 'STRING' }],
    row: (a) => { const p = nsParts(a[0] as number | bigint); return formatWith(String(a[1]), p.micros, p.sub) },
  },
  {
    kind: 'scalar', name: 'now_ns', family: 'time', description: 'The statement\'s start time in nanoseconds (the clock\'s full resolution; `now()` is it floored to the microsecond); the same for every row.', example: 'SELECT now_ns()',
    signatures: [{ args: [], returns: NS }], row: (_a, ctx) => nsOf(ctx.now, ctx.nowSub ?? 0),
  },
  {
    kind: 'scalar', name: 'systimestamp_ns', family: 'time', description: 'The current time in nanoseconds, read on every call.', example: 'SELECT systimestamp_ns()',
    signatures: [{ args: [], returns: NS }], deterministic: false, readsClock: true,
    row: (_a, ctx) => { if (ctx.clockNs !== undefined) return nsScalar(ctx.clockNs()); const us = ctx.clock(); const m = Math.floor(us); return nsOf(m, Math.min(999, Math.floor((us - m) * 1000))) },
  },
  {
    kind: 'scalar', name: 'timestamp_sequence_ns', family: 'time',
    description: 'A TIMESTAMP_NS that starts at start and grows by step nanoseconds on every row (stateful).',
    example: "SELECT timestamp_sequence_ns('2024-01-01', 1) ts FROM long_sequence(3)",
    signatures: [{ args: [NS, 'LONG'], returns: NS }],
    deterministic: false,
    init: (): SeqState => ({ next: undefined }),
    vector: (args, n, _ctx, state) => {
      const st = state as SeqState
      const start = materialize(args[0]!), step = materialize(args[1]!)
      const w = new VectorWriter(NS, n)
      for (let i = 0; i < n; i++) {
        const s0 = getScalar(start, i), k = getScalar(step, i)
        if (st.next === undefined) { if (s0 === null) { w.set(i, null); continue } st.next = nsBig(s0 as number | bigint) }
        w.set(i, nsScalar(BigInt.asIntN(64, st.next)))
        st.next += k === null ? 0n : nsBig(k as number | bigint)
      }
      return w.finish()
    },
  },
]

/** The microsecond functions that get a nanosecond overload, and what their result does with the nanoseconds. */
const LIFTED: Readonly<Record<string, LiftMode>> = {
  dateadd: 'keep', to_timezone: 'keep', to_utc: 'keep',
  timestamp_floor: 'floor', date_trunc: 'floor', timestamp_ceil: 'ceil',
  year: 'field', month: 'field', day: 'field', hour: 'field', minute: 'field', second: 'field', millis: 'field', micros: 'field',
  day_of_week: 'field', day_of_week_sunday_first: 'field', week_of_year: 'field', days_in_month: 'field',
  is_leap_year: 'field', is_end_of_month: 'field', extract: 'field',
}

/** `to_timestamp_ns(text, fmt)`: to_timestamp's parse, in nanoseconds (the pattern's `N` / `N+` fields give the digits below the microsecond). */
function toTimestampNs(base: ScalarFunctionDef): ScalarFunctionDef {
  return {
    ...base, name: 'to_timestamp_ns', aliases: [],
    description: 'Parses text with a format pattern to a TIMESTAMP_NS; null when the text does not match.',
    example: "SELECT to_timestamp_ns('2020-03-01:15:43:21.127329123', 'yyyy-MM-dd:HH:mm:ss.N+')",
    signatures: [{ args: ['TEXT', 'TEXT'], returns: NS }],
    vector: (a, n, ctx, st) => {
      const r = runKernel(base, a, n, ctx, st, 'TIMESTAMP') as I64Vector
      const m = r.isConst ? 1 : n
      const w = new VectorWriter(NS, m)
      let lastFmt: string | undefined, parser: Parser | undefined
      for (let i = 0; i < m; i++) {
        const us = getScalar(r, i)
        const text = textAt(a[0]!, i), fmt = textAt(a[1]!, i)
        if (us === null || text === null || fmt === null || !fmt.includes('N')) { w.set(i, us === null ? null : nsOf(Number(us), 0)); continue }
        if (fmt !== lastFmt || parser === undefined) { parser = timeParser(fmt); lastFmt = fmt }
        w.set(i, nsOf(Number(us), parseWithNanos(parser, text)?.nanos ?? 0))
      }
      const out = w.finish()
      return r.isConst ? ({ ...out, length: n, isConst: true } as Vector) : out
    },
    row: undefined,
  }
}

function matches(sig: Signature, types: readonly ColumnType[]): boolean {
  if (sig.args.length !== types.length) return false
  let ns = false
  for (let i = 0; i < types.length; i++) {
    const d = sig.args[i]!, t = types[i]!
    if (d === NS) { if (t !== NS) return false; ns = true } else if (d === 'TEXT') { if (!(t === 'STRING' || t === 'VARCHAR' || t === 'SYMBOL' || t === 'CHAR')) return false } else if (d !== t && d !== 'ANY') return false
  }
  return ns || sig.returns === NS
}

class NsSite {
  constructor(readonly state: unknown) {}
}

function merge(base: ScalarFunctionDef, ns: ScalarFunctionDef): ScalarFunctionDef {
  const isNs = (site: CallSite) => ns.signatures.some((s) => matches(s, site.argTypes))
  return {
    ...base,
    signatures: [...base.signatures, ...ns.signatures],
    init: (site, ctx) => (isNs(site) ? new NsSite(ns.init?.(site, ctx)) : base.init?.(site, ctx)),
    vector: (args, n, ctx, state) => {
      if (state instanceof NsSite) return runKernel(ns, args, n, ctx, state.state, ns.signatures[0]!.returns as ColumnType)
      if (base.vector !== undefined) return base.vector(args, n, ctx, state)
      if (base.row !== undefined) return runKernel(base, args, n, ctx, state, rowType(base, args))
      throw internalError(`${base.name}: no kernel`)
    },
    row: undefined,
  }
}

function rowType(def: ScalarFunctionDef, args: readonly Vector[]): ColumnType {
  const types = args.map((a) => a.type)
  const sig = def.signatures.find((s) => s.args.length === types.length) ?? def.signatures[0]!
  return typeof sig.returns === 'function' ? sig.returns(types) : sig.returns
}

/**
 * `defs` with the TIMESTAMP_NS overloads joined to the definitions of their names, and the
 * nanosecond-only functions appended.
 */
export function withTimestampNsOverloads(defs: readonly FunctionDef[]): FunctionDef[] {
  const extra = new Map<string, ScalarFunctionDef>()
  for (const d of NS_ONLY) extra.set(d.name, d)
  for (const d of defs) {
    const mode = d.kind === 'scalar' ? LIFTED[d.name] : undefined
    if (mode !== undefined && !extra.has(d.name)) { const l = liftToNs(d as ScalarFunctionDef, mode); if (l !== undefined) extra.set(d.name, l) }
  }
  const used = new Set<string>()
  const out = defs.map((d) => {
    const ns = d.kind === 'scalar' ? extra.get(d.name) : undefined
    if (ns === undefined || used.has(d.name)) return d
    used.add(d.name)
    return merge(d as ScalarFunctionDef, ns)
  })
  for (const [name, d] of extra) if (!used.has(name)) out.push(d)
  const toTs = defs.find((d) => d.kind === 'scalar' && d.name === 'to_timestamp') as ScalarFunctionDef | undefined
  if (toTs !== undefined) out.push(toTimestampNs(toTs))
  return out
}

