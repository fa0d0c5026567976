/**
 * `generate_series(start, end [, step])` for LONG, DOUBLE, TIMESTAMP and TIMESTAMP_NS
 * (generate-series-ns.ts) (step in microseconds
 * or a string such as '5d', '-1h', '1M'), one column named `generate_series`. Both ends are
 * inclusive; the order of start and end does not matter: a positive step counts up from the
 * smaller bound, a negative step counts down from the larger one
 * (`generate_series('2025-01-01', '2025-02-01', '-5d')` gives 02-01, 01-27, ..., 01-02).
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { civilFromDays, daysFromCivil, daysInMonth, floorDiv, MICROS_PER_DAY } from '../../types/civil.js'
import { BATCH_SIZE, type Batch } from '../../types/vector.js'
import type { CallSite, FunctionDef } from '../registry-types.js'
import { nsSeries } from './generate-series-ns.js'

const UNIT_MICROS: Record<string, number> = { u: 1, U: 1, T: 1000, s: 1e6, m: 6e7, h: 3.6e9, d: 8.64e10, w: 6.048e11 }

/** A parsed step: fixed microseconds, or calendar months. */
type Step = { readonly kind: 'fixed'; readonly value: number } | { readonly kind: 'months'; readonly value: number }

/** Parses a step string like '5d', '-1h', '3M', '1y' (units u T s m h d w M y; n if a multiple of 1000). */
export function parseStep(text: string, pos: number): Step {
  const m = /^\s*(-?)(\d*)([nuUTsmhdwMy])\s*$/.exec(text)
  if (m === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid step [step=${text}]`, pos)
  const k = (m[2] === '' ? 1 : Number(m[2])) * (m[1] === '-' ? -1 : 1)
  const unit = m[3]!
  if (unit === 'M') return { kind: 'months', value: k }
  if (unit === 'y') return { kind: 'months', value: k * 12 }
  if (unit === 'n') {
    if (k % 1000 !== 0) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'nanosecond steps are not supported for TIMESTAMP', pos)
    return { kind: 'fixed', value: k / 1000 }
  }
  return { kind: 'fixed', value: k * UNIT_MICROS[unit]! }
}

/** Adds `n` calendar months to a timestamp (micros), clamping the day to the month's end. */
export function addMonths(micros: number, n: number): number {
  const days = floorDiv(micros, MICROS_PER_DAY)
  const time = micros - days * MICROS_PER_DAY
  const c = civilFromDays(days)
  const y = c[0]!
  const mo = c[1]!
  const d = c[2]!
  const total = y * 12 + (mo - 1) + n
  const y2 = Math.floor(total / 12)
  const m2 = total - y2 * 12 + 1
  return daysFromCivil(y2, m2, Math.min(d, daysInMonth(y2, m2))) * MICROS_PER_DAY + time
}

function* series(type: ColumnType, lo: number, hi: number, step: Step): Generator<Batch> {
  const up = step.value > 0
  const base = up ? lo : hi
  const inRange = (v: number): boolean => (up ? v <= hi : v >= lo)
  let i = 0
  let done = false
  while (!done) {
    const data = new Float64Array(BATCH_SIZE)
    let len = 0
    while (len < BATCH_SIZE) {
      const v = step.kind === 'months' ? addMonths(base, i * step.value) : base + i * step.value
      if (!inRange(v)) { done = true; break }
      data[len++] = v
      i++
    }
    if (len === 0) return
    const vec = type === 'DOUBLE'
      ? { kind: 'f64' as const, type: 'DOUBLE' as const, length: len, data: data.subarray(0, len) }
      : { kind: 'i64' as const, type, length: len, data: data.subarray(0, len) }
    yield { length: len, vectors: [vec] }
  }
}

function bound(site: CallSite, i: number): number {
  const v = site.constants[i]
  if (v === undefined || v === null || typeof v === 'boolean' || v instanceof Uint8Array || typeof v === 'string') {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'non-null constant expected', site.argPositions[i] ?? site.pos)
  }
  return Number(v)
}

function stepOf(site: CallSite, type: ColumnType): Step {
  if (site.argTypes.length < 3) return { kind: 'fixed', value: type === 'TIMESTAMP' ? MICROS_PER_DAY : 1 }
  const v = site.constants[2]
  const pos = site.argPositions[2] ?? site.pos
  const step = typeof v === 'string' ? parseStep(v, pos) : { kind: 'fixed' as const, value: bound(site, 2) }
  if (step.value === 0 || !Number.isFinite(step.value)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'step cannot be zero', pos)
  return step
}

/** generate_series. */
export const GENERATE_SERIES: FunctionDef = {
  kind: 'table',
  name: 'generate_series',
  family: 'table',
  signatures: [
    { args: ['LONG', 'LONG'], constant: [0, 1], returns: 'LONG' },
    { args: ['LONG', 'LONG', 'LONG'], constant: [0, 1, 2], returns: 'LONG' },
    { args: ['DOUBLE', 'DOUBLE'], constant: [0, 1], returns: 'DOUBLE' },
    { args: ['DOUBLE', 'DOUBLE', 'DOUBLE'], constant: [0, 1, 2], returns: 'DOUBLE' },
    { args: ['TIMESTAMP', 'TIMESTAMP', 'STRING'], constant: [0, 1, 2], returns: 'TIMESTAMP' },
    { args: ['TIMESTAMP', 'TIMESTAMP', 'LONG'], constant: [0, 1, 2], returns: 'TIMESTAMP' },
    { args: ['TIMESTAMP', 'TIMESTAMP'], constant: [0, 1], returns: 'TIMESTAMP' },
    // chosen when a bound is TIMESTAMP_NS (bind-query widens the other bound, ns-literal-args.ts)
    { args: ['TIMESTAMP_NS', 'TIMESTAMP_NS', 'STRING'], constant: [0, 1, 2], returns: 'TIMESTAMP_NS' },
    { args: ['TIMESTAMP_NS', 'TIMESTAMP_NS', 'LONG'], constant: [0, 1, 2], returns: 'TIMESTAMP_NS' },
    { args: ['TIMESTAMP_NS', 'TIMESTAMP_NS'], constant: [0, 1], returns: 'TIMESTAMP_NS' },
  ],
  description: "Values from start to end inclusive, by step (default 1, or 1 day for timestamps; a string step such as '5d' or '-1M' for timestamps); a negative step counts down from the larger bound.",
  example: "SELECT * FROM generate_series('2025-01-01', '2025-02-01', '5d')",
  columns: (site) => [{ name: 'generate_series', type: seriesType(site) }],
  timestampIndex: () => -1,
  open: (site) => {
    const type = seriesType(site)
    if (type === 'TIMESTAMP_NS') return nsSeries(site)
    const a = bound(site, 0)
    const b = bound(site, 1)
    const step = stepOf(site, type)
    return { [Symbol.iterator]: () => series(type, Math.min(a, b), Math.max(a, b), step) }
  },
}

function seriesType(site: CallSite): ColumnType {
  const t = site.argTypes[0]
  return t === 'DOUBLE' || t === 'TIMESTAMP' || t === 'TIMESTAMP_NS' ? t : 'LONG'
}
