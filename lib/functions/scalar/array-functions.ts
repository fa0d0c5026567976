/**
 * The array functions QuestDB documents (query/functions/array.md): reductions (`array_sum`,
 * `array_avg`, `array_count`, `array_max`/`array_min`, `array_stddev*`), searches
 * (`array_position`, `insertion_point`), shape functions (`dim_length`, `flatten`, `transpose`,
 * `shift`, `array_cum_sum`) and linear algebra (`dot_product`, `matmul`). Kernels loop over each
 * row's elements between its offsets in the batch's flat buffer.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { type ArrVector, ArrBuilder, allocateArr } from '../../types/array-vector.js'
import type { Vector } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'
import { type ArrayBatchKernel, avgRows, countRows, maxRows, minRows, reduceBatch, sumRows } from './array-reductions.js'

/** Row i's element range [from, to) in `v.data`, or undefined for a null array. */
function range(v: ArrVector, i: number): [number, number] | undefined {
  const j = v.isConst ? 0 : i
  if (v.shapes[j * v.dims]! < 0) return undefined
  return [v.offsets[j]!, v.offsets[j + 1]!]
}

/** A DOUBLE vector of one reduction per row (null arrays and `undefined` results give null). */
function reduce(v: Vector, length: number, f: (d: Float64Array, from: number, to: number) => number): Vector {
  const out = new Float64Array(length).fill(NaN)
  if (v.kind === 'arr') {
    for (let i = 0; i < length; i++) {
      const j = v.isConst ? 0 : i
      if (v.shapes[j * v.dims]! >= 0) out[i] = f(v.data, v.offsets[j]!, v.offsets[j + 1]!)
    }
  }
  return { kind: 'f64', type: 'DOUBLE', length, data: out }
}

/** A DOUBLE vector of one result per row from a batch kernel (null arrays give null). */
function reduceRows(v: Vector, length: number, kernel: ArrayBatchKernel<Float64Array>): Vector {
  const out = new Float64Array(length).fill(NaN)
  if (v.kind === 'arr') reduceBatch(v, length, out, kernel)
  return { kind: 'f64', type: 'DOUBLE', length, data: out }
}

/** An INT vector of one result per row (-2^31 is null). */
function intOut(v: Vector, length: number, f: (v: ArrVector, i: number, from: number, to: number) => number): Vector {
  const out = new Int32Array(length).fill(-2147483648)
  if (v.kind === 'arr') {
    for (let i = 0; i < length; i++) { const r = range(v, i); if (r !== undefined) out[i] = f(v, i, r[0], r[1]) }
  }
  return { kind: 'i32', type: 'INT', length, data: out }
}

/** An array vector of one array per row, from `f(shape, elements) -> [shape, elements]`. */
function mapArrays(type: ColumnType, v: Vector, length: number, f: (shape: Int32Array, d: Float64Array, i: number) => [ArrayLike<number>, Float64Array]): Vector {
  if (v.kind !== 'arr') return allocateArr(type, length)
  const b = new ArrBuilder(type, length, v.data.length)
  for (let i = 0; i < length; i++) {
    const j = v.isConst ? 0 : i
    const r = range(v, i)
    if (r === undefined) { b.pushNull(); continue }
    const [shape, d] = f(v.shapes.subarray(j * v.dims, (j + 1) * v.dims), v.data.subarray(r[0], r[1]), i)
    b.pushRaw(shape, d, 0, d.length)
  }
  return b.finish()
}

function stddev(d: Float64Array, from: number, to: number, sample: boolean): number {
  let n = 0
  let mean = 0
  let m2 = 0
  for (let k = from; k < to; k++) {
    const x = d[k]!
    if (!Number.isFinite(x)) continue
    n++
    const delta = x - mean
    mean += delta / n
    m2 += delta * (x - mean)
  }
  if (n === 0 || (sample && n < 2)) return NaN
  return Math.sqrt(m2 / (sample ? n - 1 : n))
}

const sameType = (a: readonly ColumnType[]): ColumnType => a[0] === 'NULL' ? 'DOUBLE[]' : a[0]!

function reduction(name: string, description: string, example: string, vector: (v: Vector, n: number) => Vector, aliases?: readonly string[]): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'array', description, example, ...(aliases === undefined ? {} : { aliases }),
    signatures: [{ args: ['ARRAY'], returns: 'DOUBLE' }],
    vector: ([v], n) => vector(v!, n),
  }
}

/** The array functions. */
export const ARRAY_FUNCTIONS: readonly ScalarFunctionDef[] = [
  reduction('array_sum', 'Sum of the array\'s elements; null elements count as zero.', 'SELECT array_sum(ARRAY[[1.0, 1.0], [2.0, 2.0]])', (v, n) => reduceRows(v, n, sumRows)),
  reduction('array_avg', 'Average of the array\'s non-null elements.', 'SELECT array_avg(ARRAY[[1.0, 1.0], [2.0, 2.0]])', (v, n) => reduceRows(v, n, avgRows)),
  reduction('array_max', 'Largest finite element (null when there is none).', 'SELECT array_max(ARRAY[[1.0, 5.0], [3.0, 2.0]])', (v, n) => reduceRows(v, n, maxRows)),
  reduction('array_min', 'Smallest finite element (null when there is none).', 'SELECT array_min(ARRAY[[1.0, 5.0], [3.0, 2.0]])', (v, n) => reduceRows(v, n, minRows)),
  reduction('array_stddev_samp', 'Sample standard deviation of the finite elements (null for fewer than 2).', 'SELECT array_stddev_samp(ARRAY[[1.0, 2.0], [3.0, 4.0]])', (v, n) => reduce(v, n, (d, a, b) => stddev(d, a, b, true)), ['array_stddev']),
  reduction('array_stddev_pop', 'Population standard deviation of the finite elements.', 'SELECT array_stddev_pop(ARRAY[[1.0, 2.0], [3.0, 4.0]])', (v, n) => reduce(v, n, (d, a, b) => stddev(d, a, b, false))),
  {
    kind: 'scalar', name: 'array_count', family: 'array',
    description: 'Number of finite (non-null) elements.',
    example: 'SELECT array_count(ARRAY[[1.0, null], [null, 2.0]])',
    signatures: [{ args: ['ARRAY'], returns: 'INT' }],
    vector: ([v], n) => {
      const out = new Int32Array(n).fill(-2147483648)
      if (v!.kind === 'arr') reduceBatch(v!, n, out, countRows)
      return { kind: 'i32', type: 'INT', length: n, data: out }
    },
  },
  {
    kind: 'scalar', name: 'array_position', family: 'array',
    description: 'The 1-based position of the first element equal to elem in a 1-D array (of the first null when elem is null), or null.',
    example: 'SELECT array_position(ARRAY[1.0, 2.0], 1.0)',
    signatures: [{ args: ['DOUBLE[]', 'DOUBLE'], returns: 'INT' }],
    vector: ([v, e], n) => {
      const el = toF64(e!)
      return intOut(v!, n, (a, i, from, to) => {
        const x = el.data[i * el.s]!
        const nul = !Number.isFinite(x)
        for (let k = from; k < to; k++) { const y = a.data[k]!; if (nul ? !Number.isFinite(y) : y === x) return k - from + 1 }
        return -2147483648
      })
    },
  },
  {
    kind: 'scalar', name: 'insertion_point', family: 'array',
    description: 'Where value would be inserted into a sorted 1-D array (ascending or descending, detected), 1-based; before equal elements when aheadOfEqual.',
    example: 'SELECT insertion_point(ARRAY[1.0, 2.0, 3.0], 2.5)',
    signatures: [{ args: ['DOUBLE[]', 'DOUBLE'], returns: 'INT' }, { args: ['DOUBLE[]', 'DOUBLE', 'BOOLEAN'], returns: 'INT' }],
    vector: ([v, e, ahead], n) => {
      const el = toF64(e!)
      const ah = ahead === undefined ? undefined : toF64(ahead)
      return intOut(v!, n, (a, i, from, to) => {
        const x = el.data[i * el.s]!
        const before = ah !== undefined && ah.data[i * ah.s] === 1
        const desc = to - from > 1 && a.data[from]! > a.data[to - 1]!
        let lo = from
        let hi = to
        while (lo < hi) {
          const mid = (lo + hi) >>> 1
          const y = a.data[mid]!
          const goRight = desc ? (before ? y > x : y >= x) : (before ? y < x : y <= x)
          if (goRight) lo = mid + 1
          else hi = mid
        }
        return lo - from + 1
      })
    },
  },
  {
    kind: 'scalar', name: 'dim_length', family: 'array',
    description: 'The length of the array along dimension dim (1-based).',
    example: 'SELECT dim_length(ARRAY[42, 42], 1)',
    signatures: [{ args: ['ARRAY', 'INT'], returns: 'INT' }],
    vector: ([v, d], n) => {
      const dd = toF64(d!)
      return intOut(v!, n, (a, i) => {
        const dim = dd.data[i * dd.s]!
        if (!(dim >= 1 && dim <= a.dims)) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `array dimension out of bounds [dim=${dim}, dims=${a.dims}]`)
        return a.shapes[(a.isConst ? 0 : i) * a.dims + dim - 1]!
      })
    },
  },
  {
    kind: 'scalar', name: 'flatten', family: 'array',
    description: 'The array\'s elements as a 1-D array, in row-major order.',
    example: 'SELECT flatten(ARRAY[[1, 2], [3, 4]])',
    signatures: [{ args: ['ARRAY'], returns: 'DOUBLE[]' }],
    vector: ([v], n) => mapArrays('DOUBLE[]', v!, n, (_s, d) => [[d.length], d]),
  },
  {
    kind: 'scalar', name: 'array_cum_sum', family: 'array',
    description: 'Cumulative sums over the elements in row-major order, as a 1-D array; null elements count as zero.',
    example: 'SELECT array_cum_sum(ARRAY[[1.0, 1.0], [2.0, 2.0]])',
    signatures: [{ args: ['ARRAY'], returns: 'DOUBLE[]' }],
    vector: ([v], n) => mapArrays('DOUBLE[]', v!, n, (_s, d) => {
      const out = new Float64Array(d.length)
      let s = 0
      for (let k = 0; k < d.length; k++) { const x = d[k]!; if (Number.isFinite(x)) s += x; out[k] = s }
      return [[d.length], out]
    }),
  },
  {
    kind: 'scalar', name: 'transpose', family: 'array',
    description: 'The array with its coordinates reversed (a matrix\'s rows and columns swapped).',
    example: 'SELECT transpose(ARRAY[[1, 2], [3, 4]])',
    signatures: [{ args: ['ARRAY'], returns: sameType }],
    vector: ([v], n) => mapArrays(v!.type === 'NULL' ? 'DOUBLE[]' : v!.type, v!, n, transpose),
  },
  {
    kind: 'scalar', name: 'shift', family: 'array',
    description: 'Shifts the elements of the last dimension by distance (right when positive), filling with fill (default null).',
    example: 'SELECT shift(ARRAY[[1.0, 2.0], [3.0, 4.0]], 1)',
    signatures: [{ args: ['ARRAY', 'INT'], returns: sameType }, { args: ['ARRAY', 'INT', 'DOUBLE'], returns: sameType }],
    vector: ([v, dist, fill], n) => {
      const dd = toF64(dist!)
      const ff = fill === undefined ? undefined : toF64(fill)
      return mapArrays(v!.type === 'NULL' ? 'DOUBLE[]' : v!.type, v!, n, (shape, d, i) => {
        const by = dd.data[i * dd.s]!
        const f = ff === undefined ? NaN : ff.data[i * ff.s]!
        const last = shape[shape.length - 1]!
        const out = new Float64Array(d.length)
        for (let base = 0; base < d.length; base += last) {
          for (let k = 0; k < last; k++) { const src = k - by; out[base + k] = src >= 0 && src < last ? d[base + src]! : f }
        }
        return [shape, out]
      })
    },
  },
  {
    kind: 'scalar', name: 'dot_product', family: 'array',
    description: 'Sum of the products of matching elements of two arrays of the same shape.',
    example: 'SELECT dot_product(ARRAY[[3.0, 4.0], [2.0, 5.0]], ARRAY[[3.0, 4.0], [2.0, 5.0]])',
    signatures: [{ args: ['ARRAY', 'ARRAY'], returns: 'DOUBLE' }],
    // QuestDB does not broadcast here: the dimension counts and then the shapes must be equal
    init: (site) => {
      const [a, b] = site.argTypes.map((t) => (t.match(/\[\]/g) ?? []).length)
      if (a !== b && a! > 0 && b! > 0) {
        throw new SqlError(SqlState.DATATYPE_MISMATCH, `arrays have different number of dimensions [nDimsLeft=${a}, nDimsRight=${b}]`, site.argPositions[0] ?? site.pos)
      }
      return site
    },
    vector: ([l, r], n, _ctx, state) => {
      const out = new Float64Array(n).fill(NaN)
      if (l!.kind !== 'arr' || r!.kind !== 'arr') return { kind: 'f64', type: 'DOUBLE', length: n, data: out }
      for (let i = 0; i < n; i++) {
        const a = range(l!, i)
        const b = range(r!, i)
        if (a === undefined || b === undefined) continue
        if (!sameShape(l!, i, r!, i)) {
          const site = state as { argPositions: readonly number[]; pos: number }
          const shape = (v: ArrVector, j: number) => `[${Array.from(v.shapes.subarray(j * v.dims, (j + 1) * v.dims)).join(',')}]`
          throw new SqlError(SqlState.DATATYPE_MISMATCH, `arrays have different shapes [leftShape=${shape(l!, i)}, rightShape=${shape(r!, i)}]`, site.argPositions[0] ?? site.pos)
        }
        let s = 0
        for (let k = 0; k < a[1] - a[0]; k++) { const x = l!.data[a[0] + k]! * r!.data[b[0] + k]!; if (Number.isFinite(x)) s += x }
        out[i] = s
      }
      return { kind: 'f64', type: 'DOUBLE', length: n, data: out }
    },
  },
  {
    kind: 'scalar', name: 'matmul', family: 'array',
    description: 'Matrix product of two 2-D arrays (the left one\'s columns must equal the right one\'s rows).',
    example: 'SELECT matmul(ARRAY[[1, 2], [3, 4]], ARRAY[[2, 3], [2, 3]])',
    signatures: [{ args: ['DOUBLE[][]', 'DOUBLE[][]'], returns: 'DOUBLE[][]' }],
    vector: ([l, r], n) => {
      if (l!.kind !== 'arr' || r!.kind !== 'arr') return allocateArr('DOUBLE[][]', n)
      const b = new ArrBuilder('DOUBLE[][]', n)
      for (let i = 0; i < n; i++) {
        const a = range(l!, i)
        const c = range(r!, i)
        if (a === undefined || c === undefined) { b.pushNull(); continue }
        const li = l!.isConst ? 0 : i
        const ri = r!.isConst ? 0 : i
        const rows = l!.shapes[li * 2]!
        const inner = l!.shapes[li * 2 + 1]!
        const cols = r!.shapes[ri * 2 + 1]!
        if (r!.shapes[ri * 2] !== inner) throw new SqlError(SqlState.DATATYPE_MISMATCH, `left matrix columns (${inner}) differ from right matrix rows (${r!.shapes[ri * 2]})`)
        const out = new Float64Array(rows * cols)
        for (let x = 0; x < rows; x++) {
          for (let y = 0; y < cols; y++) {
            let s = 0
            for (let k = 0; k < inner; k++) s += l!.data[a[0] + x * inner + k]! * r!.data[c[0] + k * cols + y]!
            out[x * cols + y] = s
          }
        }
        b.pushRaw([rows, cols], out, 0, out.length)
      }
      return b.finish()
    },
  },
]

function sameShape(a: ArrVector, i: number, b: ArrVector, j: number): boolean {
  const ai = a.isConst ? 0 : i
  const bj = b.isConst ? 0 : j
  if (a.dims !== b.dims) return false
  for (let k = 0; k < a.dims; k++) if (a.shapes[ai * a.dims + k] !== b.shapes[bj * b.dims + k]) return false
  return true
}

/** Reverses the coordinates of a row-major array. */
function transpose(shape: Int32Array, d: Float64Array): [ArrayLike<number>, Float64Array] {
  const dims = shape.length
  const outShape = Array.from(shape).reverse()
  const strides = new Array<number>(dims)
  let s = 1
  for (let k = dims - 1; k >= 0; k--) { strides[k] = s; s *= shape[k]! }
  const out = new Float64Array(d.length)
  const ctr = new Array<number>(dims).fill(0)
  for (let e = 0; e < d.length; e++) {
    // ctr walks the output's coordinates (row-major); output coordinate k is input coordinate dims-1-k
    let p = 0
    for (let k = 0; k < dims; k++) p += ctr[k]! * strides[dims - 1 - k]!
    out[e] = d[p]!
    for (let k = dims - 1; k >= 0; k--) { if (++ctr[k]! < outShape[k]!) break; ctr[k] = 0 }
  }
  return [outShape, out]
}
