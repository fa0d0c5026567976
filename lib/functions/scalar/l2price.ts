/**
 * `l2price(target, sizes[], prices[])` and `l2price(target, size1, price1, ..., sizeN, priceN)`
 * (QuestDB's finance page): the average price of a market order of `target` filled level by level
 * against one side of an order book. The levels are taken in order; the last one touched fills
 * only what remains. NULL when the book cannot fill the order or a value on the way is NULL/NaN.
 * The arithmetic runs in QuestDB's order (LevelTwoPriceFunctionFactory: `(Σ size·price +
 * remaining·price_last) / target`, a first level that fills alone gives its price), so results
 * agree to the last bit. The array form takes 1-D arrays of equal length.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ArrVector } from '../../types/array-vector.js'
import { isArrayType } from '../../types/array-type.js'
import type { Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'

/** The fill price of `t` over levels (sizes[i], prices[i]) read by `at(i)` as [size, price]; NaN when unfilled. */
function fillPrice(t: number, levels: number, size: (i: number) => number, price: (i: number) => number): number {
  let ta = 0, pa = 0, rt = t
  for (let i = 0; i < levels; i++) {
    const s = size(i), p = price(i)
    ta += s
    if (ta >= t) return i === 0 ? p : (pa + rt * p) / t
    pa += s * p
    rt -= s
  }
  return NaN
}

function arrayForm(args: readonly Vector[], n: number, site: CallSite): Vector {
  const t = toF64(args[0]!)
  const out = new Float64Array(n).fill(NaN)
  const sz = args[1]!, pr = args[2]!
  if (sz.kind !== 'arr' || pr.kind !== 'arr') return { kind: 'f64', type: 'DOUBLE', length: n, data: out }
  const a = sz as ArrVector, b = pr as ArrVector
  for (let i = 0; i < n; i++) {
    const ja = a.isConst === true ? 0 : i, jb = b.isConst === true ? 0 : i
    if (a.shapes[ja]! < 0 || b.shapes[jb]! < 0) continue
    const oa = a.offsets[ja]!, ob = b.offsets[jb]!
    const len = a.offsets[ja + 1]! - oa
    if (b.offsets[jb + 1]! - ob !== len) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, "sizes array length doesn't match prices array length", site.argPositions[1] ?? site.pos)
    out[i] = fillPrice(t.data[i * t.s]!, len, (k) => a.data[oa + k]!, (k) => b.data[ob + k]!)
  }
  return { kind: 'f64', type: 'DOUBLE', length: n, data: out }
}

function scalarForm(args: readonly Vector[], n: number): Vector {
  const cols = args.map(toF64)
  const out = new Float64Array(n)
  const t = cols[0]!
  const levels = (cols.length - 1) >> 1
  for (let i = 0; i < n; i++) {
    out[i] = fillPrice(t.data[i * t.s]!, levels, (k) => { const c = cols[1 + 2 * k]!; return c.data[i * c.s]! }, (k) => { const c = cols[2 + 2 * k]!; return c.data[i * c.s]! })
  }
  return { kind: 'f64', type: 'DOUBLE', length: n, data: out }
}

/** l2price, both forms. */
export const L2PRICE: ScalarFunctionDef = {
  kind: 'scalar', name: 'l2price', family: 'array',
  description: 'The average fill price of a market order of `target` against order-book levels given as (size, price) pairs or as a sizes array and a prices array; NULL when the book cannot fill it.',
  example: 'SELECT l2price(50, ARRAY[14.0, 16.0, 23.0, 12.0], ARRAY[14.50, 14.60, 14.80, 15.10])',
  signatures: [
    { args: ['DOUBLE', 'ARRAY', 'ARRAY'], returns: 'DOUBLE' },
    { args: ['DOUBLE', 'DOUBLE', 'DOUBLE'], variadic: 'DOUBLE', returns: 'DOUBLE' },
  ],
  init: (site) => {
    const arrays = isArrayType(site.argTypes[1]!) || isArrayType(site.argTypes[2]!)
    for (const i of arrays ? [1, 2] : []) {
      const t = site.argTypes[i]!
      if (t !== 'NULL' && t !== 'DOUBLE[]') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'not a one-dimensional array', site.argPositions[i] ?? site.pos)
    }
    if (!arrays && site.argTypes.length % 2 === 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'l2price requires an odd number of arguments.', site.argPositions[site.argPositions.length - 1] ?? site.pos)
    return site
  },
  vector: (args, n, _ctx, state) => {
    const site = state as CallSite
    return isArrayType(site.argTypes[1]!) || isArrayType(site.argTypes[2]!) ? arrayForm(args, n, site) : scalarForm(args, n)
  },
}
