/**
 * Conditional functions (QuestDB's conditional.md; CASE is the binder's): `coalesce` (first
 * non-null argument, in the arguments' common type) and `nullif(a, b)` (null when a = b).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ColumnType, commonType } from '../../types/column-type.js'
import { castVector } from '../../types/cast.js'
import { VectorWriter, allocate, getScalar, isNullAt } from '../../types/vector.js'
import type { Vector } from '../../types/vector.js'
import type { ArgType, ScalarFunctionDef } from '../registry-types.js'
import { isBigI64 } from '../kernel-helpers.js'
import { compareVectors } from './compare.js'

/** Copies row `j` of `src` to row `i` of `dst` (same physical kind, not SYMBOL). */
function copyRow(dst: Vector, i: number, src: Vector, j: number): void {
  ;(dst.data as unknown as unknown[])[i] = (src.data as unknown as unknown[])[src.isConst === true ? 0 : j]
}

/** The first non-null value of each row, the arguments converted to `ret`. */
export function coalesceVectors(args: readonly Vector[], n: number, ret: ColumnType): Vector {
  const vs = args.map((a) => (a.type === ret ? a : castVector(a, ret)))
  if (ret === 'SYMBOL' || vs.some(isBigI64)) {
    const w = new VectorWriter(ret, n)
    for (let i = 0; i < n; i++) {
      for (const v of vs) { const s = getScalar(v, i); if (s !== null) { w.set(i, s); break } }
    }
    return w.finish()
  }
  const out = allocate(ret, n)
  if (out.kind === 'null') return out
  for (let i = 0; i < n; i++) {
    for (const v of vs) {
      if (!isNullAt(v, i)) { copyRow(out, i, v, i); break }
    }
  }
  return out
}

function commonOf(types: readonly ColumnType[]): ColumnType {
  return types.reduce((a, b) => commonType(a, b))
}

/** Copies `a`, nulling the rows where `mask` is 1. */
function nullWhere(a: Vector, mask: Uint8Array, maskConst: boolean, n: number): Vector {
  const w = new VectorWriter(a.type === 'SYMBOL' ? 'STRING' : a.type, n)
  for (let i = 0; i < n; i++) w.set(i, mask[maskConst ? 0 : i] === 1 ? null : getScalar(a, i))
  return w.finish()
}

const NULLIF_TYPES: readonly ArgType[] = ['INT', 'LONG', 'DOUBLE', 'FLOAT', 'SHORT', 'BYTE', 'TIMESTAMP', 'TIMESTAMP_NS', 'DATE', 'BOOLEAN', 'CHAR', 'IPV4', 'UUID', 'LONG256', 'TEXT']

/** The conditional functions. */
export const CONDITIONAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'coalesce', family: 'conditional',
    description: 'The first non-null argument, in the arguments\' common type.',
    example: "SELECT coalesce(price, 0) FROM trades",
    signatures: [{ args: ['ANY', 'ANY'], variadic: 'ANY', returns: commonOf }, { args: ['ANY'], returns: commonOf }],
    init: (site) => site.returns,
    vector: (args, n, _ctx, state) => coalesceVectors(args, n, typeof state === 'string' ? (state as ColumnType) : commonOf(args.map((a) => a.type))),
  },
  {
    kind: 'scalar', name: 'nullif', family: 'conditional',
    description: 'Null when the two arguments are equal, else the first.',
    example: "SELECT nullif(side, 'unknown') FROM trades",
    signatures: NULLIF_TYPES.map((t) => ({ args: [t, t], returns: (ts: readonly ColumnType[]) => (ts[0] === 'SYMBOL' ? 'STRING' : ts[0]!) })),
    vector: (args, n) => {
      const eq = compareVectors('eq', args[0]!, args[1]!, n)
      return nullWhere(args[0]!, eq.data, eq.isConst === true, n)
    },
  },
]
