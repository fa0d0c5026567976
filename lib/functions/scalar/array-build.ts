/**
 * `array_build(nArrays, size, filler1 [, filler2, ...])` (QuestDB's array.md): a DOUBLE[] (nArrays
 * = 1) or DOUBLE[][] (nArrays >= 2, shape [nArrays, size]) built per row. `nArrays` is a constant
 * (it fixes the type); `size` is an integer or a DOUBLE[] whose element count is the length; each
 * filler is a number repeated at every position or a 1-D DOUBLE[] copied position by position
 * (NaN past its end, its excess ignored; a NULL filler array fills NaN). A NULL size gives a NULL
 * array; nArrays < 1, a negative size, a wrong filler count or a multi-dimensional filler is 22023.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { arrayDims, isArrayType } from '../../types/array-type.js'
import { DoubleArray } from '../../types/array.js'
import type { Scalar } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'

/** QuestDB's cap on nArrays and size. */
const MAX_LEN = 268_435_455

function badArg(message: string, pos: number): SqlError {
  return new SqlError(SqlState.INVALID_PARAMETER_VALUE, `array_build: ${message}`, pos)
}

function nArraysOf(site: Pick<CallSite, 'constants' | 'argPositions' | 'pos'>): number {
  const c = site.constants[0]
  const n = c === undefined || c === null ? NaN : Number(c)
  if (!Number.isInteger(n) || n < 1 || n > MAX_LEN) throw badArg('nArrays must be a constant between 1 and 268435455', site.argPositions[0] ?? site.pos)
  return n
}

function checkSite(site: CallSite): CallSite {
  const k = nArraysOf(site)
  const fillers = site.argTypes.length - 2
  if (fillers !== k) throw badArg(`${k} filler${k === 1 ? '' : 's'} expected, got ${fillers}`, site.pos)
  site.argTypes.forEach((t, i) => {
    if (i < 1) return
    if (isArrayType(t) && (i === 1 ? false : arrayDims(t) !== 1)) throw badArg('a filler array must be one-dimensional (DOUBLE[])', site.argPositions[i] ?? site.pos)
    if (!isArrayType(t) && !['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'NULL'].includes(t)) throw badArg(`not a number or DOUBLE[]: ${t}`, site.argPositions[i] ?? site.pos)
  })
  return site
}

function build(args: readonly Scalar[], site: CallSite): Scalar {
  const k = nArraysOf(site)
  const sz = args[1]
  if (sz === null || sz === undefined) return null
  const size = sz instanceof DoubleArray ? sz.values.length : Number(sz)
  if (!Number.isInteger(size) || size < 0 || size > MAX_LEN) throw badArg(`invalid size: ${String(sz)}`, site.argPositions[1] ?? site.pos)
  const out = new Float64Array(k * size)
  for (let r = 0; r < k; r++) {
    const f = args[2 + r]
    const row = out.subarray(r * size, (r + 1) * size)
    if (f instanceof DoubleArray) { row.fill(NaN); row.set(f.values.subarray(0, Math.min(size, f.values.length))) }
    else row.fill(f === null || f === undefined ? NaN : Number(f))
  }
  return new DoubleArray(k === 1 ? [size] : [k, size], out)
}

/** array_build. */
export const ARRAY_BUILD: ScalarFunctionDef = {
  kind: 'scalar', name: 'array_build', family: 'array', nullStrict: false,
  description: 'Builds a DOUBLE[] (nArrays = 1) or DOUBLE[][] of nArrays rows of length size, each row filled with a number or copied from a DOUBLE[].',
  example: 'SELECT array_build(2, 3, 1.0, ARRAY[7.0])',
  signatures: (['LONG', 'ARRAY'] as const).map((size) => ({
    args: ['INT', size, 'ANY'] as const, variadic: 'ANY' as const, constant: [0],
    returns: (_t: readonly ColumnType[], c?: readonly (Scalar | undefined)[]): ColumnType => (c?.[0] !== undefined && c[0] !== null && Number(c[0]) >= 2 ? 'DOUBLE[][]' : 'DOUBLE[]'),
  })),
  init: (site) => checkSite(site),
  row: (args, _ctx, state) => build(args, state as CallSite),
}
