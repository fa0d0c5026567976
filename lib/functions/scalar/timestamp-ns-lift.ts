/**
 * TIMESTAMP_NS overloads of the microsecond time functions, made from them: each nanosecond
 * argument is split into whole microseconds and a 0–999 nanosecond remainder
 * (`types/timestamp-ns.ts`), the microsecond kernel runs on the microseconds, and a TIMESTAMP
 * result is joined back to nanoseconds — keeping the remainder (`dateadd`, `to_timezone`,
 * `to_utc`), dropping it (`timestamp_floor`, `date_trunc`: a floor to a microsecond-or-coarser
 * unit) or rounding up past it (`timestamp_ceil`). Field functions (`year`, `extract`, ...) read
 * the microseconds. Units below a microsecond (`'n'`) are computed on the nanoseconds exactly.
 * So QuestDB's rule holds: a function over TIMESTAMP_NS returns TIMESTAMP_NS.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { LONG_NULL } from '../../types/column-type.js'
import type { ColumnType } from '../../types/column-type.js'
import { type I64Vector, type Scalar, type Vector, VectorWriter, getScalar } from '../../types/vector.js'
import { joinNs, nsBig, nsScalar, splitNs } from '../../types/timestamp-ns.js'
import type { FunctionContext, ScalarFunctionDef, Signature } from '../registry-types.js'
import { textAt } from '../kernel-helpers.js'
import { parseUnit } from './time-helpers.js'
import { floorTo } from '../../types/calendar.js'

/** How a lifted function's TIMESTAMP result becomes nanoseconds. */
export type LiftMode = 'field' | 'keep' | 'floor' | 'ceil'

/** Runs a definition's kernel (vector, else row by row as the evaluator does) on argument vectors. */
export function runKernel(def: ScalarFunctionDef, args: readonly Vector[], n: number, ctx: FunctionContext, state: unknown, type: ColumnType): Vector {
  if (def.vector !== undefined) return def.vector(args, n, ctx, state)
  const row = def.row!
  const strict = def.nullStrict !== false
  const allConst = args.length > 0 && args.every((v) => v.isConst === true)
  const m = allConst ? 1 : n
  const w = new VectorWriter(type, m)
  const s: Scalar[] = new Array(args.length)
  for (let i = 0; i < m; i++) {
    let hasNull = false
    for (let k = 0; k < args.length; k++) { const x = getScalar(args[k]!, i); if (x === null) hasNull = true; s[k] = x }
    w.set(i, strict && hasNull ? null : row(s, ctx, state))
  }
  const out = w.finish()
  return allConst ? ({ ...out, length: n, isConst: true } as Vector) : out
}

function nsSignatures(base: readonly Signature[], mode: LiftMode): Signature[] {
  const out: Signature[] = []
  for (const s of base) {
    if (!s.args.some((a) => a === 'TIMESTAMP' || a === 'TEMPORAL')) continue
    const args = s.args.map((a) => (a === 'TIMESTAMP' || a === 'TEMPORAL' ? 'TIMESTAMP_NS' : a))
    const returns = mode !== 'field' && s.returns === 'TIMESTAMP' ? 'TIMESTAMP_NS' : s.returns
    out.push({ ...s, args, returns })
  }
  return out
}

/** The unit of a call whose first argument is a unit, when it is the same for every row. */
function constUnit(v: Vector | undefined): string | undefined {
  if (v === undefined || v.isConst !== true) return undefined
  return textAt(v, 0) ?? undefined
}

/** Nanosecond-exact kernel for a sub-microsecond unit: `f(ns, k)` on bigints, null kept. */
function exactNs(ts: Vector, n: number, f: (ns: bigint, i: number) => bigint | null, type: ColumnType = 'TIMESTAMP_NS'): Vector {
  const m = ts.isConst ? 1 : n
  const w = new VectorWriter(type, m)
  for (let i = 0; i < m; i++) {
    const x = getScalar(ts, i)
    const r = x === null ? null : f(nsBig(x as number | bigint), i)
    w.set(i, r === null ? null : nsScalar(BigInt.asIntN(64, r)))
  }
  const out = w.finish()
  return ts.isConst ? ({ ...out, length: n, isConst: true } as Vector) : out
}

function isNanoUnit(u: string | undefined): boolean {
  return u !== undefined && /^\s*\d*n\s*$/.test(u)
}

/**
 * The TIMESTAMP_NS overload of `base` (undefined when it takes no TIMESTAMP argument). `mode`
 * says what the nanosecond remainder of the main timestamp argument does to a TIMESTAMP result.
 */
export function liftToNs(base: ScalarFunctionDef, mode: LiftMode): ScalarFunctionDef | undefined {
  const signatures = nsSignatures(base.signatures, mode)
  if (signatures.length === 0) return undefined
  const { vector: _v, row: _r, ...rest } = base
  return {
    ...rest,
    signatures,
    vector: (args, n, ctx, state) => {
      const sub = NANO_UNIT_FUNCTIONS.has(base.name) ? nanoUnitKernel(base.name, args, n) : undefined
      if (sub !== undefined) return sub
      const exact = exactKernel(base.name, args, n)
      if (exact !== undefined) return exact
      let main: Uint16Array | undefined
      let mainConst = false
      const micro = args.map((a) => {
        if (a.type !== 'TIMESTAMP_NS' || a.kind !== 'i64') return a
        const s = splitNs(a, n)
        if (main === undefined) {
          main = s.sub
          mainConst = a.isConst === true
          if (mode === 'ceil') for (let i = 0; i < s.micros.length; i++) if (s.sub[i]! > 0 && s.micros[i] !== LONG_NULL) s.micros[i]! += 1
        }
        return { kind: 'i64', type: 'TIMESTAMP', length: a.length, isConst: a.isConst, data: s.micros } as I64Vector
      })
      const retMicro = signatures[0]!.returns === 'TIMESTAMP_NS' ? 'TIMESTAMP' : (typeof signatures[0]!.returns === 'string' ? signatures[0]!.returns : 'LONG')
      const r = runKernel(base, micro, n, ctx, state, retMicro)
      if (mode === 'field' || r.type !== 'TIMESTAMP' || r.kind !== 'i64') return r
      const m = r.isConst ? 1 : n
      const micros = r.data instanceof Float64Array ? r.data.subarray(0, m) : Float64Array.from(r.data.subarray(0, m), (x) => (x === -9223372036854775808n ? LONG_NULL : Number(x)))
      let keep: Uint16Array | undefined
      if (mode === 'keep' && main !== undefined) keep = mainConst && m > 1 ? new Uint16Array(m).fill(main[0]!) : main.subarray(0, m)
      return joinNs(micros, keep, n, r.isConst === true)
    },
  }
}

const NANO_UNIT_FUNCTIONS = new Set(['dateadd', 'timestamp_floor', 'timestamp_ceil'])

/** Nanoseconds in one of each fixed-length unit. */
const UNIT_NANOS: Readonly<Record<string, bigint>> = { n: 1n, u: 1000n, T: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n, d: 86_400_000_000_000n, w: 604_800_000_000_000n }

/**
 * Calls whose result depends on the nanoseconds in a way the microsecond kernel cannot see:
 * `extract(nanoseconds FROM ts)` (the nanoseconds of the second), `date_trunc('nanosecond', ts)`
 * (the value itself) and `timestamp_floor(unit, ts, offset)` (buckets from the offset's
 * nanosecond, calendar months and years too). Undefined for every other call.
 */
function exactKernel(name: string, args: readonly Vector[], n: number): Vector | undefined {
  if (name !== 'extract' && name !== 'date_trunc' && name !== 'timestamp_floor') return undefined
  const u = constUnit(args[0])
  if (u === undefined) return undefined
  if (name === 'extract' && u.toLowerCase() === 'nanoseconds' && args[1]?.type === 'TIMESTAMP_NS') {
    return exactNs(args[1], n, (ns) => { let r = ns % 1_000_000_000n; if (r < 0n) r += 1_000_000_000n; return r }, 'INT')
  }
  if (name === 'date_trunc' && u.toLowerCase() === 'nanosecond' && args[1]?.type === 'TIMESTAMP_NS') return args[1]
  if (name === 'timestamp_floor' && args.length === 3 && args[2]!.type === 'TIMESTAMP_NS') {
    const p = parseUnit(u, -1)
    const off = args[2]!
    if (p.unit === 'M' || p.unit === 'y') {
      // months from the offset: the calendar floor of (ts - offset), moved back by the offset; a
      // month starts on a whole microsecond, so the floor of the microseconds below is it
      return exactNs(args[1]!, n, (ns, i) => {
        // a NULL offset is the epoch, as QuestDB's timestamp_floor reads it (and the µs form here)
        const o = getScalar(off, i)
        const base = o === null ? 0n : nsBig(o as number | bigint)
        const t = ns - base
        let q = t / 1000n
        if (q * 1000n > t) q -= 1n
        return BigInt(floorTo(Number(q), p.unit, p.stride, 0)) * 1000n + base
      })
    }
    const unit = UNIT_NANOS[p.unit]
    if (unit === undefined) return undefined
    const stride = unit * BigInt(p.stride)
    return exactNs(args[1]!, n, (ns, i) => {
      const o = getScalar(off, i)
      const base = o === null ? 0n : nsBig(o as number | bigint)
      let q = (ns - base) / stride
      if (q * stride > ns - base) q -= 1n
      return base + q * stride
    })
  }
  return undefined
}

/** dateadd / timestamp_floor / timestamp_ceil with a constant nanosecond unit, exactly; else undefined. */
function nanoUnitKernel(name: string, args: readonly Vector[], n: number): Vector | undefined {
  const u = constUnit(args[0])
  if (!isNanoUnit(u)) return undefined
  const stride = BigInt(parseUnit(u!, -1).stride)
  switch (name) {
    case 'dateadd': {
      if (args.length > 3) return undefined
      const k = args[1]!
      return exactNs(args[2]!, n, (ns, i) => { const x = getScalar(k, i); return x === null ? null : ns + BigInt(Number(x)) * stride })
    }
    case 'timestamp_floor': {
      if (args.length > 2) return undefined
      return exactNs(args[1]!, n, (ns) => { let q = ns / stride; if (q * stride > ns) q -= 1n; return q * stride })
    }
    case 'timestamp_ceil':
      return exactNs(args[1]!, n, (ns) => { let q = ns / stride; if (q * stride < ns) q += 1n; return q * stride })
    default: return undefined
  }
}
