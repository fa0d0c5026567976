/**
 * Shared pieces of the time functions: unit parsing (`'5d'`, `'M'`), and a per-row map from
 * timestamp vectors to INT, LONG/TIMESTAMP, DOUBLE or BOOLEAN results with nulls kept.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import type { ColumnType } from '../../types/column-type.js'
import { isTimeUnit, type TimeUnit } from '../../types/calendar.js'
import type { Vector } from '../../types/vector.js'
import { toF64 } from '../kernel-helpers.js'

/** A unit with its stride: `'5d'` -> { unit: 'd', stride: 5 }. */
export interface StridedUnit {
  readonly unit: TimeUnit
  readonly stride: number
}

/** Parses a (strided) time unit, accepting `U` for micros and `ms` for millis; throws 22023 at `position`. */
export function parseUnit(text: string, position: number): StridedUnit {
  const m = /^(\d*)([A-Za-z]+)$/.exec(text.trim())
  if (m !== null) {
    const stride = m[1] === '' ? 1 : Number(m[1])
    let u = m[2]!
    if (u === 'U') u = 'u'
    else if (u === 'ms') u = 'T'
    if (isTimeUnit(u) && stride > 0) return { unit: u, stride }
  }
  throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid unit '${text}'`, position)
}

/** Maps every row of a temporal vector (micros; DATE is given in millis and scaled) through `f`, NaN meaning null. */
export function mapTime(v: Vector, n: number, ret: ColumnType, f: (ts: number, i: number) => number, others: readonly (Vector | undefined)[] = []): Vector {
  const x = toF64(v)
  const scale = v.type === 'DATE' ? 1000 : 1
  // one value for all rows only when every input is constant (a varying amount or unit must not be folded)
  const allConst = x.s === 0 && others.every((o) => o === undefined || o.isConst === true)
  const m = allConst ? 1 : n
  const xs = x.s
  const d = x.data
  let out: Vector
  switch (ret) {
    case 'INT': {
      const o = new Int32Array(m)
      for (let i = 0; i < m; i++) { const t = d[i * xs]!; const r = t === t ? f(t * scale, i) : NaN; o[i] = r === r ? r : INT_NULL }
      out = { kind: 'i32', type: ret, length: m, data: o }
      break
    }
    case 'BOOLEAN': {
      const o = new Uint8Array(m)
      for (let i = 0; i < m; i++) { const t = d[i * xs]!; o[i] = t === t && f(t * scale, i) === 1 ? 1 : 0 }
      out = { kind: 'bool', type: ret, length: m, data: o }
      break
    }
    case 'DOUBLE': {
      const o = new Float64Array(m)
      for (let i = 0; i < m; i++) { const t = d[i * xs]!; o[i] = t === t ? f(t * scale, i) : NaN }
      out = { kind: 'f64', type: ret, length: m, data: o }
      break
    }
    default: {
      const o = new Float64Array(m)
      for (let i = 0; i < m; i++) { const t = d[i * xs]!; const r = t === t ? f(t * scale, i) : NaN; o[i] = r === r ? r : LONG_NULL }
      out = { kind: 'i64', type: ret, length: m, data: o }
    }
  }
  return allConst ? ({ ...out, length: n, isConst: true } as Vector) : out
}

/** {@link mapTime} over the timestamp argument `v`, aware of every other argument's constness. */
export function mapTimeOf(args: readonly Vector[], v: Vector, n: number, ret: ColumnType, f: (ts: number, i: number) => number): Vector {
  return mapTime(v, n, ret, f, args)
}
