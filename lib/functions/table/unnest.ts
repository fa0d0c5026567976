/**
 * `UNNEST(arr [, arr2 ...]) [WITH ORDINALITY]` in FROM: one row per element along each array's
 * first dimension (a DOUBLE for a 1-D array, a sub-array for more), arrays side by side, shorter
 * ones padded with NULL; a NULL array contributes no rows. Columns: `value` (or `value1`,
 * `value2`, ... for several arrays) and, with ORDINALITY, `ordinality` (1-based LONG). The
 * arguments are read when it runs: constants, parameters, or a column of another FROM item
 * (`FROM t, UNNEST(t.arr)`, which plan/bind-unnest.ts turns into a LATERAL join).
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { arrayDims, arrayType } from '../../types/array-type.js'
import { DoubleArray } from '../../types/array.js'
import { ArrBuilder } from '../../types/array-vector.js'
import type { Batch, Vector } from '../../types/vector.js'
import type { CallSite, TableFunctionDef } from '../registry-types.js'

function elementType(t: ColumnType): ColumnType {
  const d = arrayDims(t)
  return d <= 1 ? 'DOUBLE' : arrayType(d - 1)
}

function arrays(site: CallSite): (DoubleArray | null)[] {
  return site.argTypes.map((_, i) => {
    const v = site.constants[i]
    if (v === undefined) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'UNNEST of a column must follow the FROM item that holds it: FROM t, UNNEST(t.arr)', site.argPositions[i] ?? site.pos)
    return v instanceof DoubleArray ? v : null
  })
}

function definition(name: string, ordinality: boolean, description: string, example: string): TableFunctionDef {
  return {
    kind: 'table', name, family: 'array', description, example,
    signatures: [{ args: ['ARRAY'], variadic: 'ARRAY', returns: 'DOUBLE' }],
    columns: (site) => [
      ...site.argTypes.map((t, i) => ({ name: site.argTypes.length === 1 ? 'value' : `value${i + 1}`, type: elementType(t) })),
      ...(ordinality ? [{ name: 'ordinality', type: 'LONG' as ColumnType }] : []),
    ],
    timestampIndex: () => -1,
    runtimeArgs: true,
    open: (site) => [unnest(site, arrays(site), ordinality)],
  }
}

function unnest(site: CallSite, values: readonly (DoubleArray | null)[], ordinality: boolean): Batch {
  const rows = Math.max(0, ...values.map((a) => (a === null || a.values.length === 0 ? 0 : a.shape[0]!)))
  const vectors: Vector[] = values.map((a, k) => {
    const type = elementType(site.argTypes[k]!)
    const n = a === null || a.values.length === 0 ? 0 : a.shape[0]!
    if (type === 'DOUBLE') {
      const out = new Float64Array(rows).fill(NaN)
      if (a !== null) out.set(a.values.subarray(0, n))
      return { kind: 'f64', type, length: rows, data: out }
    }
    const b = new ArrBuilder(type, rows)
    const sub = a === null ? [] : a.shape.slice(1)
    const stride = sub.reduce((x, y) => x * y, 1)
    for (let r = 0; r < rows; r++) {
      if (r < n) b.pushRaw(sub, a!.values, r * stride, (r + 1) * stride)
      else b.pushNull()
    }
    return b.finish()
  })
  if (ordinality) vectors.push({ kind: 'i64', type: 'LONG', length: rows, data: Float64Array.from({ length: rows }, (_, i) => i + 1) })
  return { length: rows, vectors }
}

/** The UNNEST table functions: plain, and the form `UNNEST(...) WITH ORDINALITY` parses to. */
export const UNNEST_FUNCTIONS: readonly TableFunctionDef[] = [
  definition('unnest', false, 'One row per element of each array\'s first dimension (arrays side by side, shorter ones padded with NULL).', 'SELECT value FROM UNNEST(ARRAY[1.0, 2.0, 3.0])'),
  definition('unnest_with_ordinality', true, 'What `UNNEST(...) WITH ORDINALITY` runs: UNNEST plus a 1-based `ordinality` column.', 'SELECT * FROM UNNEST(ARRAY[1.0, 2.0]) WITH ORDINALITY'),
]
