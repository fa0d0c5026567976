/**
 * Result rows as JavaScript values, a batch at a time (what `Database.query` returns): each
 * column is converted by a function chosen once per batch from its type and layout, then the
 * rows are assembled, instead of a `getScalar` and a `toJsValue` dispatch per value. Timestamps
 * and LONGs become bigints as before; a run of equal values (timestamps in a time-series result)
 * shares one bigint. Types without a case of their own go through {@link toJsValue}, which stays
 * the reference (test/unit/types/js-rows.test.ts compares both over random values).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from './column-type.js'
import { type Batch, type Vector, getScalar } from './vector.js'
import { type JsValue, toJsValue } from './js-value.js'

const LONG_NULL = -9223372036854775808
const INT_NULL = -2147483648

/** Writes the JS value of each row of `v` into `rows[i][k]`. */
function fillColumn(type: ColumnType, v: Vector, k: number, rows: JsValue[][], n: number): void {
  if (v.isConst !== true) {
    switch (v.kind) {
      case 'f64': case 'f32': {
        if (type !== 'DOUBLE' && type !== 'FLOAT') break
        const d = v.data
        for (let i = 0; i < n; i++) { const x = d[i]!; rows[i]![k] = x - x === 0 ? x : null }
        return
      }
      case 'i32': {
        if (type !== 'INT') break
        const d = v.data
        for (let i = 0; i < n; i++) { const x = d[i]!; rows[i]![k] = x === INT_NULL ? null : x }
        return
      }
      case 'i8': case 'i16': {
        if (type !== 'BYTE' && type !== 'SHORT') break
        const d = v.data
        for (let i = 0; i < n; i++) rows[i]![k] = d[i]!
        return
      }
      case 'bool': {
        if (type !== 'BOOLEAN') break
        const d = v.data
        for (let i = 0; i < n; i++) rows[i]![k] = d[i] !== 0
        return
      }
      case 'sym': {
        if (type !== 'SYMBOL') break
        const d = v.data
        const values = v.dict.values
        for (let i = 0; i < n; i++) { const x = d[i]!; rows[i]![k] = x < 0 ? null : values[x]! }
        return
      }
      case 'str': {
        if (type !== 'STRING' && type !== 'VARCHAR') break
        const d = v.data
        for (let i = 0; i < n; i++) rows[i]![k] = d[i] ?? null
        return
      }
      case 'i64': {
        if ((type !== 'TIMESTAMP' && type !== 'LONG') || !(v.data instanceof Float64Array)) break
        const d = v.data
        let last = NaN
        let big: bigint = 0n
        for (let i = 0; i < n; i++) {
          const x = d[i]!
          if (x === LONG_NULL) { rows[i]![k] = null; continue }
          if (x !== last) { big = BigInt(x); last = x }
          rows[i]![k] = big
        }
        return
      }
      default: break
    }
  }
  for (let i = 0; i < n; i++) rows[i]![k] = toJsValue(type, getScalar(v, i))
}

/** The rows of `batch` as JS values, `types` the result column types. */
export function batchRows(types: readonly ColumnType[], batch: Batch): JsValue[][] {
  const n = batch.length
  const width = batch.vectors.length
  const rows: JsValue[][] = new Array(n)
  for (let i = 0; i < n; i++) rows[i] = new Array<JsValue>(width)
  for (let k = 0; k < width; k++) fillColumn(types[k]!, batch.vectors[k]!, k, rows, n)
  return rows
}
