/**
 * Array functions of QuestDB 9's array page that reorder or combine arrays element by element:
 * `array_reverse` and `array_sort` (each innermost sub-array on its own), and the multi-argument
 * forms of `array_elem_min`, `array_elem_max`, `array_elem_sum` and `array_elem_avg` (the
 * one-argument forms are aggregates, aggregate/array-elem.ts). The element-wise combination is
 * shared with those aggregates ({@link ElemAccumulator}): NULL arrays are skipped, NULL elements
 * are skipped at their position, a position no input reaches or every input leaves NULL is NULL,
 * and the output's shape is the per-dimension maximum of the inputs' shapes (sums use Kahan
 * compensation, as QuestDB documents).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { type ArrVector, ArrBuilder, allocateArr } from '../../types/array-vector.js'
import type { Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'

/** The element-wise operation of an `array_elem_*` function. */
export type ElemOp = 'min' | 'max' | 'sum' | 'avg'

/**
 * Accumulates arrays element by element into one result array: positions by their
 * multi-dimensional index in a shape that grows to the per-dimension maximum of the inputs.
 */
export class ElemAccumulator {
  shape: number[] = []
  /** per position: the running min / max / sum; NaN where nothing has arrived */
  acc = new Float64Array(0)
  /** Kahan compensation per position (sum, avg) */
  comp = new Float64Array(0)
  /** values arrived per position */
  count = new Float64Array(0)
  /** true once a non-null array has arrived */
  seen = false

  constructor(readonly op: ElemOp) {}

  /** Grows the held shape to cover `shape`, moving the positions held so far. */
  private grow(shape: ArrayLike<number>): void {
    const dims = shape.length
    if (this.shape.length === 0) this.shape = new Array<number>(dims).fill(0)
    // called per array added: the common case (no extent grows) allocates nothing
    let bigger = false
    for (let k = 0; k < dims && !bigger; k++) bigger = shape[k]! > this.shape[k]!
    if (!bigger) return
    const next = this.shape.slice()
    for (let k = 0; k < dims; k++) if (shape[k]! > next[k]!) next[k] = shape[k]!
    const size = next.reduce((a, b) => a * b, 1)
    const acc = new Float64Array(size).fill(NaN), comp = new Float64Array(size), count = new Float64Array(size)
    const old = this.shape, oldSize = old.reduce((a, b) => a * b, 1)
    for (let p = 0; p < oldSize; p++) {
      const q = remap(p, old, next)
      acc[q] = this.acc[p]!; comp[q] = this.comp[p]!; count[q] = this.count[p]!
    }
    this.shape = next; this.acc = acc; this.comp = comp; this.count = count
  }

  /** Adds one array: its shape and its elements `d[from, to)` in row-major order. */
  add(shape: ArrayLike<number>, d: Float64Array, from: number, to: number): void {
    this.seen = true
    if (to === from) { if (this.shape.length === 0) this.shape = new Array<number>(shape.length).fill(0); return }
    this.grow(shape)
    const same = sameExtents(shape, this.shape)
    for (let e = from; e < to; e++) {
      const x = d[e]!
      if (Number.isNaN(x)) continue
      const p = same ? e - from : remap(e - from, shape, this.shape)
      this.put(p, x, 1, 0)
    }
  }

  /** Folds one position's state in (a value, or another accumulator's partial state). */
  put(p: number, x: number, n: number, c: number): void {
    const a = this.acc[p]!
    if (this.count[p] === 0) { this.acc[p] = x; this.comp[p] = c; this.count[p] = n; return }
    this.count[p]! += n
    switch (this.op) {
      case 'min': if (x < a) this.acc[p] = x; break
      case 'max': if (x > a) this.acc[p] = x; break
      default: {
        // Kahan-Babuska step, carrying the other side's compensation
        const y = x - c - this.comp[p]!
        const t = a + y
        this.comp[p] = (t - a) - y
        this.acc[p] = t
      }
    }
  }

  /** Folds another accumulator (same op) in, as rows that came after this one's. */
  merge(o: ElemAccumulator): void {
    if (!o.seen) return
    this.seen = true
    if (o.shape.length === 0) return
    this.grow(o.shape)
    const size = o.shape.reduce((a, b) => a * b, 1)
    for (let p = 0; p < size; p++) if (o.count[p]! > 0) this.put(remap(p, o.shape, this.shape), o.acc[p]!, o.count[p]!, o.comp[p]!)
  }

  /** The result's elements (NaN where no value arrived), or null when no array did. */
  values(): Float64Array | null {
    if (!this.seen) return null
    const out = new Float64Array(this.acc.length)
    for (let p = 0; p < out.length; p++) {
      const n = this.count[p]!
      out[p] = n === 0 ? NaN : this.op === 'avg' ? (this.acc[p]! - this.comp[p]!) / n : this.op === 'sum' ? this.acc[p]! - this.comp[p]! : this.acc[p]!
    }
    return out
  }
}

function sameExtents(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false
  return true
}

/** The row-major position in shape `to` of position `p` in shape `from` (every extent of `to` at least `from`'s). */
function remap(p: number, from: ArrayLike<number>, to: ArrayLike<number>): number {
  let q = 0, stride = 1
  for (let k = from.length - 1; k >= 0; k--) {
    const e = from[k]!
    const idx = p % e
    p = (p - idx) / e
    q += idx * stride
    stride *= to[k]!
  }
  return q
}

/** Row i's element range [from, to) and shape, or undefined for a null array. */
function rowOf(v: ArrVector, i: number): { from: number; to: number; shape: Int32Array } | undefined {
  const j = v.isConst ? 0 : i
  if (v.shapes[j * v.dims]! < 0) return undefined
  return { from: v.offsets[j]!, to: v.offsets[j + 1]!, shape: v.shapes.subarray(j * v.dims, (j + 1) * v.dims) }
}

function elemMulti(name: string, op: ElemOp, what: string, example: string): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'array',
    description: `Element-wise ${what} of two or more arrays (NULL arrays and elements skipped, the output as long as the longest input); with one array column it is an aggregate.`,
    example,
    signatures: [{ args: ['ARRAY', 'ARRAY'], variadic: 'ARRAY', returns: (types) => types.find((t) => t !== 'NULL') ?? 'DOUBLE[]' }],
    init: (site) => site,
    vector: (args, n, _ctx, state) => {
      const site = state as CallSite
      const type = site.returns as ColumnType
      const arrs = args.filter((a): a is ArrVector => a.kind === 'arr')
      const dims = arrs[0]?.dims
      const bad = arrs.findIndex((a) => a.dims !== dims)
      if (bad >= 0) throw new SqlError(SqlState.DATATYPE_MISMATCH, 'arrays must have the same number of dimensions', site.argPositions[args.indexOf(arrs[bad]!)] ?? site.pos)
      if (arrs.length === 0) return allocateArr(type, n)
      const b = new ArrBuilder(type, n)
      for (let i = 0; i < n; i++) {
        const acc = new ElemAccumulator(op)
        for (const a of arrs) { const r = rowOf(a, i); if (r !== undefined) acc.add(r.shape, a.data, r.from, r.to) }
        const vals = acc.values()
        if (vals === null) b.pushNull()
        else b.pushRaw(acc.shape, vals, 0, vals.length)
      }
      return b.finish()
    },
  }
}

/** Applies `f` to each innermost sub-array of every row (in place on a copy). */
function eachInnermost(v: Vector, n: number, f: (d: Float64Array, from: number, to: number, i: number) => void): Vector {
  if (v.kind !== 'arr') return allocateArr(v.type === 'NULL' ? 'DOUBLE[]' : v.type, n)
  const b = new ArrBuilder(v.type, n)
  for (let i = 0; i < n; i++) {
    const r = rowOf(v, i)
    if (r === undefined) { b.pushNull(); continue }
    const d = v.data.slice(r.from, r.to)
    const last = r.shape[r.shape.length - 1]!
    if (last > 0) for (let base = 0; base < d.length; base += last) f(d, base, base + last, i)
    b.pushRaw(r.shape, d, 0, d.length)
  }
  return b.finish()
}

const sameType = (a: readonly ColumnType[]): ColumnType => (a[0] === 'NULL' ? 'DOUBLE[]' : a[0]!)

/** A BOOLEAN argument's value at row i (constant or not); undefined when absent or NULL. */
function boolAt(v: Vector | undefined, i: number): boolean | undefined {
  if (v === undefined || v.kind !== 'bool') return undefined
  return v.data[v.isConst === true ? 0 : i] !== 0
}

/** The reorder and element-wise array functions (see the module comment). */
export const ARRAY_ELEMENTWISE_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'array_reverse', family: 'array',
    description: 'The array with the elements of each innermost sub-array in reverse order.',
    example: 'SELECT array_reverse(ARRAY[[1.0, 2.0], [3.0, 4.0]])',
    signatures: [{ args: ['ARRAY'], returns: sameType }],
    vector: ([v], n) => eachInnermost(v!, n, (d, from, to) => { d.subarray(from, to).reverse() }),
  },
  {
    kind: 'scalar', name: 'array_sort', family: 'array',
    description: 'The array with each innermost sub-array sorted by value: ascending, or descending when `descending`; NULLs last ascending and first descending unless `nullsFirst` says otherwise.',
    example: 'SELECT array_sort(ARRAY[3.0, 1.0, 2.0], true)',
    signatures: [{ args: ['ARRAY'], returns: sameType }, { args: ['ARRAY', 'BOOLEAN'], returns: sameType }, { args: ['ARRAY', 'BOOLEAN', 'BOOLEAN'], returns: sameType }],
    vector: ([v, desc, nullsFirst], n) => eachInnermost(v!, n, (d, from, to, i) => {
      const down = boolAt(desc, i) === true
      const first = boolAt(nullsFirst, i) ?? down
      const s = d.subarray(from, to)
      const vals = Array.from(s).filter((x) => !Number.isNaN(x)).sort((a, b) => (down ? b - a : a - b))
      const nulls = s.length - vals.length
      const out = first ? [...new Array<number>(nulls).fill(NaN), ...vals] : [...vals, ...new Array<number>(nulls).fill(NaN)]
      s.set(out)
    }),
  },
  elemMulti('array_elem_min', 'min', 'minimum', 'SELECT array_elem_min(ARRAY[1.0, 5.0, 3.0], ARRAY[4.0, 2.0, 6.0])'),
  elemMulti('array_elem_max', 'max', 'maximum', 'SELECT array_elem_max(ARRAY[1.0, 5.0, 3.0], ARRAY[4.0, 2.0, 6.0])'),
  elemMulti('array_elem_sum', 'sum', 'sum', 'SELECT array_elem_sum(ARRAY[1.0, 2.0, 3.0], ARRAY[10.0, 20.0, 30.0])'),
  elemMulti('array_elem_avg', 'avg', 'average', 'SELECT array_elem_avg(ARRAY[10.0, 20.0, 30.0], ARRAY[30.0, 40.0, 50.0])'),
]
