/**
 * `rnd_double_array(nDims[, nanRate[, maxDimLength]])` and
 * `rnd_double_array(nDims, nanRate, 0, dim1Len, ..., dimNLen)` (QuestDB 9's random value generator
 * page, RndDoubleArrayFunctionFactory): a random DOUBLE[]…[] of `nDims` dimensions per row. Each
 * extent is `exp(nextDouble() · ln(maxDimLength)) + 1` (biased to short; 16 by default) unless
 * given; each element is NaN (NULL) when `nanRate > 0` and `nextInt(nanRate) == 0`, else
 * `nextDouble()`. `nDims` not positive gives NULL. Every argument is a constant.
 */
import { SqlError, SqlState } from '../../errors.js'
import { ArrBuilder } from '../../types/array-vector.js'
import { ARRAY_MAX_DIMS, arrayType } from '../../types/array-type.js'
import { DoubleArray } from '../../types/array.js'
import type { ColumnType } from '../../types/column-type.js'
import { allocate } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { constInt } from './rnd-def.js'
import type { Rnd } from './rnd.js'

const MAX_DIM_LEN = 16
/** The most elements one array may hold (array_build's cap, QuestDB's 2^28 - 1). */
const MAX_ELEMENTS = 268_435_455

function tooLarge(site: CallSite | undefined, size: number): SqlError {
  return new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `array too large [elements=${size}, max=${MAX_ELEMENTS}]`, site?.pos ?? -1)
}

interface Plan { readonly site: CallSite; readonly type: ColumnType; readonly dims: number; readonly nanRate: number; readonly maxLen: number; readonly fixed: number[] | undefined }

function typeOf(c: readonly unknown[] | undefined): ColumnType {
  const n = Number(c?.[0])
  return Number.isInteger(n) && n > 0 && n <= ARRAY_MAX_DIMS ? arrayType(n) : 'DOUBLE[]'
}

function plan(site: CallSite): Plan | undefined {
  const dims = constInt(site, 0)
  if (dims <= 0) return undefined
  if (dims > ARRAY_MAX_DIMS) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `too many array dimensions [max=${ARRAY_MAX_DIMS}]`, site.argPositions[0] ?? site.pos)
  const n = site.argTypes.length
  const type = arrayType(dims)
  if (n === 1) return { site, type, dims, nanRate: 0, maxLen: MAX_DIM_LEN, fixed: undefined }
  const nanRate = constInt(site, 1)
  if (nanRate < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid NaN rate [nanRate=${nanRate}]`, site.argPositions[1] ?? site.pos)
  if (n === 2) return { site, type, dims, nanRate, maxLen: MAX_DIM_LEN, fixed: undefined }
  const maxLen = constInt(site, 2)
  if (n === 3) {
    if (maxLen <= 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `maxDimLen must be positive int [maxDimLen=${maxLen}]`, site.argPositions[2] ?? site.pos)
    return { site, type, dims, nanRate, maxLen, fixed: undefined }
  }
  if (n < dims + 3) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `not enough values for dim length [dimensionCount=${dims}, dimLengths=${n - 3}]`, site.argPositions[n - 1] ?? site.pos)
  if (n > dims + 3) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `too many values for dim length [dimensionCount=${dims}, dimLengths=${n - 3}]`, site.argPositions[dims + 3] ?? site.pos)
  const fixed: number[] = []
  for (let i = 3; i < n; i++) {
    const len = constInt(site, i)
    if (len < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `array dimension length must be non-negative [len=${len}]`, site.argPositions[i] ?? site.pos)
    fixed.push(len)
  }
  if (fixed.reduce((a, b) => a * b, 1) > MAX_ELEMENTS) throw tooLarge(site, fixed.reduce((a, b) => a * b, 1))
  return { site, type, dims, nanRate, maxLen, fixed }
}

/** One random array. */
function draw(p: Plan, rnd: Rnd): DoubleArray {
  const shape = p.fixed ?? Array.from({ length: p.dims }, () => Math.trunc(Math.exp(rnd.nextDouble() * Math.log(p.maxLen))) + 1)
  let size = 1
  for (const e of shape) size *= e
  if (size > MAX_ELEMENTS) throw tooLarge(p.site, size)
  const values = new Float64Array(size)
  for (let i = 0; i < size; i++) values[i] = p.nanRate > 0 && rnd.nextPositiveInt() % p.nanRate === 0 ? NaN : rnd.nextDouble()
  return size === 0 ? DoubleArray.empty(p.dims) : new DoubleArray(shape, values)
}

/** The definition. */
export const RND_DOUBLE_ARRAY: ScalarFunctionDef = {
  kind: 'scalar', name: 'rnd_double_array', family: 'rnd',
  description: 'A random DOUBLE array of nDims dimensions: random extents up to maxDimLength (16), or the given ones after a 0; NULL elements at about 1 in nanRate.',
  example: 'SELECT rnd_double_array(2, 2, 3) FROM long_sequence(3)',
  signatures: [{ args: ['INT'], variadic: 'INT', constant: Array.from({ length: ARRAY_MAX_DIMS + 3 }, (_, i) => i), returns: (_t, c) => typeOf(c) }],
  deterministic: false,
  nullStrict: false,
  init: (site) => plan(site as CallSite) ?? null,
  row: (_args, ctx, state) => (state === null || state === undefined ? null : draw(state as Plan, ctx.rnd)),
  vector: (_args, n, ctx, state) => {
    if (state === null || state === undefined) return allocate('DOUBLE[]', n)
    const p = state as Plan
    const b = new ArrBuilder(p.type, n)
    for (let i = 0; i < n; i++) b.push(draw(p, ctx.rnd))
    return b.finish()
  },
}
