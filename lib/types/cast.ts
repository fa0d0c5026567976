/**
 * Vectorized casts: `castVector(v, to)` converts a whole column vector with QuestDB's cast
 * semantics (see `cast-scalar.ts` for the per-value rules). The common numeric pairs run as
 * typed-array loops; symbols cast each dictionary entry once; everything else goes value by value.
 * i64 vectors are handled exactly in both representations (Float64Array and BigInt64Array).
 *
 * Re-exports {@link castScalar}, {@link canCast} and {@link canImplicitlyCast}.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ColumnType, INT_NULL, LONG_NULL, physicalOf, isText } from './column-type.js'
import { type Vector, type I64Vector, allocate, constVector, getScalar, VectorWriter, SymbolTable } from './vector.js'
import { type BadTextPolicy, castScalar, saturateInt32 } from './cast-scalar.js'
import { isDecimal } from './decimal.js'
import { castDecimalVector } from './decimal-cast.js'
import { castNsVector } from './timestamp-ns-cast.js'
import { isGeohash } from './geohash.js'
import { narrowGeohashVector } from './geohash-cast.js'

export { castScalar, inconvertible, type BadTextPolicy } from './cast-scalar.js'
export { canCast, canImplicitlyCast } from './cast-rules.js'

/** Options of {@link castVector}. */
export interface CastOptions {
  /** text that does not convert: raise 22P02 (default) or produce null */
  readonly onBadText?: BadTextPolicy
  /** 0-based position of the cast in the SQL text, for errors */
  readonly position?: number
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

type NumSource = Int8Array | Int16Array | Int32Array | Float32Array | Float64Array | Uint8Array

/**
 * Reads a numeric source as doubles with nulls as NaN: the input of the numeric fast paths.
 * Returns undefined when the source has no fast path.
 */
function numericSource(v: Vector): { data: NumSource; nullValue: number | undefined; floating: boolean } | undefined {
  switch (v.kind) {
    case 'bool': case 'i8': case 'i16': return { data: v.data, nullValue: undefined, floating: false }
    case 'i32': return v.type === 'INT' ? { data: v.data, nullValue: INT_NULL, floating: false } : undefined
    case 'i64': return v.data instanceof Float64Array ? { data: v.data, nullValue: LONG_NULL, floating: false } : undefined
    case 'f32': case 'f64': return { data: v.data, nullValue: undefined, floating: true }
    default: return undefined
  }
}

/** Typed-array loops for numeric → numeric casts; undefined when the pair needs the slow path. */
function castNumeric(v: Vector, to: ColumnType): Vector | undefined {
  const src = numericSource(v)
  if (src === undefined) return undefined
  const { data, nullValue, floating } = src
  const n = v.isConst ? 1 : v.length
  const nul = nullValue ?? NaN
  switch (to) {
    case 'DOUBLE': case 'FLOAT': {
      const out = to === 'DOUBLE' ? new Float64Array(n) : new Float32Array(n)
      for (let i = 0; i < n; i++) { const x = data[i]!; out[i] = x === nul ? NaN : x }
      return { kind: to === 'DOUBLE' ? 'f64' : 'f32', type: to, length: v.length, isConst: v.isConst, data: out } as Vector
    }
    case 'BYTE': case 'SHORT': {
      const out = to === 'BYTE' ? new Int8Array(n) : new Int16Array(n)
      // typed-array stores wrap modulo 2^8 / 2^16 like Java's narrowing; doubles saturate to int first
      if (floating) for (let i = 0; i < n; i++) out[i] = saturateInt32(data[i]!)
      else for (let i = 0; i < n; i++) out[i] = data[i]!
      return { kind: to === 'BYTE' ? 'i8' : 'i16', type: to, length: v.length, isConst: v.isConst, data: out } as Vector
    }
    case 'INT': {
      const out = new Int32Array(n)
      if (floating) for (let i = 0; i < n; i++) { const x = data[i]!; out[i] = Number.isFinite(x) ? saturateInt32(x) : INT_NULL }
      else for (let i = 0; i < n; i++) { const x = data[i]!; out[i] = x === nul ? INT_NULL : x }
      return { kind: 'i32', type: to, length: v.length, isConst: v.isConst, data: out }
    }
    case 'LONG': case 'TIMESTAMP': case 'DATE': {
      const from = v.type
      // only DATE (millis) ↔ TIMESTAMP (micros) rescale; a LONG is taken in the target's unit, as QuestDB does
      if (v.kind === 'i64' && ((from === 'DATE' && to === 'TIMESTAMP') || (from === 'TIMESTAMP' && to === 'DATE'))) return scaleTemporal(v, to, n)
      if (v.kind === 'i64') return { ...v, type: to }
      const out = new Float64Array(n)
      for (let i = 0; i < n; i++) {
        const x = data[i]!
        if (floating) {
          if (!Number.isFinite(x)) { out[i] = LONG_NULL; continue }
          const t = Math.trunc(x)
          if (Math.abs(t) > MAX_SAFE) return undefined
          out[i] = t + 0
        } else out[i] = x === nul ? LONG_NULL : x
      }
      return { kind: 'i64', type: to, length: v.length, isConst: v.isConst, data: out }
    }
    default: return undefined
  }
}

/** DATE (millis) ↔ TIMESTAMP (micros) on the Float64Array form; undefined on overflow past 2^53. */
function scaleTemporal(v: I64Vector, to: ColumnType, n: number): Vector | undefined {
  const data = v.data as Float64Array
  const out = new Float64Array(n)
  if (to === 'DATE') {
    // toward zero, as QuestDB's toDate (`timestamp / 1000`)
    for (let i = 0; i < n; i++) { const x = data[i]!; out[i] = x === LONG_NULL ? LONG_NULL : Math.trunc(x / 1000) + 0 }
  } else {
    for (let i = 0; i < n; i++) {
      const x = data[i]!
      if (x === LONG_NULL) { out[i] = LONG_NULL; continue }
      const y = x * 1000
      if (Math.abs(y) > MAX_SAFE) return undefined
      out[i] = y
    }
  }
  return { kind: 'i64', type: to, length: v.length, isConst: v.isConst, data: out }
}

/** SYMBOL source: casts each dictionary entry once, then maps keys. */
function castSymbol(v: Vector & { kind: 'sym' }, to: ColumnType, opts: CastOptions): Vector {
  const values = v.dict.values
  const mapped = new Array<ReturnType<typeof castScalar> | undefined>(values.length)
  const n = v.isConst ? 1 : v.length
  const w = new VectorWriter(to, n)
  for (let i = 0; i < n; i++) {
    const k = v.data[i]!
    if (k < 0) { w.set(i, castScalar(null, 'SYMBOL', to)); continue }
    let m = mapped[k]
    if (m === undefined) m = mapped[k] = castScalar(values[k]!, 'SYMBOL', to, opts.onBadText, opts.position)
    w.set(i, m)
  }
  return finish(w.finish(), v)
}

function finish(out: Vector, v: Vector): Vector {
  return v.isConst ? ({ ...out, length: v.length, isConst: true } as Vector) : out
}

/**
 * Casts every value of `v` to `to` with QuestDB's semantics. Returns `v` itself when the type
 * already matches; a constant vector stays constant. Raises 22P02 for text that does not
 * convert unless `onBadText: 'null'`.
 *
 * @example
 * ```ts
 * castVector(vectorOf('INT', Int32Array.of(7234623), 1), 'SHORT') // SHORT vector [25663]
 * ```
 */
export function castVector(v: Vector, to: ColumnType, opts: CastOptions = {}): Vector {
  if (v.type === to) return v
  if (v.kind === 'null') return allocate(to, v.length)
  if (isDecimal(v.type) || isDecimal(to)) return castDecimalVector(v, to, opts.onBadText, opts.position)
  if (v.type === 'TIMESTAMP_NS' || to === 'TIMESTAMP_NS') { const ns = castNsVector(v, to); if (ns !== undefined) return ns }
  if (isGeohash(to)) {
    const narrowed = narrowGeohashVector(v, to)
    if (narrowed !== undefined) return narrowed
    // text that does not convert is null at run time (QuestDB's CastStrToGeoHash); constants fail when bound
    if (!v.isConst) opts = { ...opts, onBadText: 'null' }
  }
  if (physicalOf(to) === 'sym' && v.kind === 'str' && !v.isConst) {
    // STRING/VARCHAR → SYMBOL: intern into a fresh dictionary
    const dict = new SymbolTable()
    const out = new Int32Array(v.length)
    for (let i = 0; i < v.length; i++) { const s = v.data[i]; out[i] = s === null || s === undefined ? -1 : dict.intern(s) }
    return { kind: 'sym', type: to, length: v.length, data: out, dict }
  }
  if (v.kind === 'sym') return castSymbol(v, to, opts)
  if (v.kind === 'str' && isText(v.type) && isText(to) && physicalOf(to) === 'str') return { ...v, type: to }
  const fast = castNumeric(v, to)
  if (fast !== undefined) return fast
  if (v.isConst) return constVector(to, castScalar(getScalar(v, 0), v.type, to, opts.onBadText, opts.position), v.length)
  const w = new VectorWriter(to, v.length)
  const from = v.type
  for (let i = 0; i < v.length; i++) w.set(i, castScalar(getScalar(v, i), from, to, opts.onBadText, opts.position))
  return w.finish()
}
