/**
 * One DOUBLE array value ({@link DoubleArray}, the scalar form used at the edges: literals,
 * parameters, the row-wise fallback) and its text forms: QuestDB's `[[1.0,2.0],[3.0,4.0]]`
 * (REST, CSV, `::string`) and PostgreSQL's `{{1,2},{3,4}}` (pgwire text, casts from text).
 *
 * Element nulls are any non-finite double, as for DOUBLE; a null array is the scalar `null`, and
 * an empty array has a shape with a 0 in it.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import { formatDouble } from './number-format.js'

/** A dense, row-major N-dimensional array of doubles. */
export class DoubleArray {
  /**
   * @param shape - the length along each dimension (1..32 of them)
   * @param values - the elements in row-major order; `values.length` is the shape's product
   */
  constructor(readonly shape: readonly number[], readonly values: Float64Array) {}

  /** Number of dimensions. */
  get dims(): number {
    return this.shape.length
  }

  /** An empty array of `dims` dimensions. */
  static empty(dims: number): DoubleArray {
    return new DoubleArray(new Array<number>(dims).fill(0), new Float64Array(0))
  }
}

/** The number of elements a shape holds. */
export function shapeSize(shape: ArrayLike<number>): number {
  let n = 1
  for (let i = 0; i < shape.length; i++) n *= shape[i]!
  return n
}

/** True when two arrays have the same shape and equal elements (nulls equal each other). */
export function arraysEqual(a: DoubleArray, b: DoubleArray): boolean {
  if (a.shape.length !== b.shape.length) return false
  for (let i = 0; i < a.shape.length; i++) if (a.shape[i] !== b.shape[i]) return false
  for (let i = 0; i < a.values.length; i++) {
    const x = a.values[i]!
    const y = b.values[i]!
    if (x !== y && (Number.isFinite(x) || Number.isFinite(y))) return false
  }
  return true
}

/**
 * QuestDB's text of an array: `[1.0,2.0]`, `[[1.0,2.0],[3.0,4.0]]`, `[]` when empty; a null
 * element prints `null` (`nullText`).
 */
export function formatArray(a: DoubleArray, nullText = 'null'): string {
  if (a.values.length === 0) return '[]'
  return nested(a, 0, 0, (x) => (Number.isFinite(x) ? formatDouble(x) : nullText), '[', ']')
}

/** PostgreSQL's text of an array (pgwire text format): `{1,2}`, `{{1,2},{3,4}}`, `{}`; nulls `NULL`. */
export function formatPgArray(a: DoubleArray): string {
  if (a.values.length === 0) return '{}'
  return nested(a, 0, 0, (x) => (Number.isFinite(x) ? pgDouble(x) : 'NULL'), '{', '}')
}

function pgDouble(x: number): string {
  return formatDouble(x)
}

function nested(a: DoubleArray, dim: number, at: number, el: (x: number) => string, open: string, close: string): string {
  const n = a.shape[dim]!
  const parts: string[] = []
  if (dim === a.shape.length - 1) {
    for (let i = 0; i < n; i++) parts.push(el(a.values[at + i]!))
  } else {
    let stride = 1
    for (let d = dim + 1; d < a.shape.length; d++) stride *= a.shape[d]!
    for (let i = 0; i < n; i++) parts.push(nested(a, dim + 1, at + i * stride, el, open, close))
  }
  return open + parts.join(',') + close
}

/**
 * Parses an array's text: PostgreSQL's `{1,2}` / `{{1,2},{3,4}}` or QuestDB's `[1.0,2.0]`;
 * `NULL`/`null`/`NaN` elements are null. `dims`, when given, is the dimension count the text must
 * have. Throws 22P02 (at `pos`) on malformed or ragged text.
 */
export function parseArrayText(text: string, dims: number | undefined, pos = -1): DoubleArray {
  const bad = (why: string) => new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `invalid array literal: ${why} [text=${text.length > 60 ? text.slice(0, 60) + '...' : text}]`, pos)
  const s = text.trim()
  let i = 0
  const shape: number[] = []
  const values: number[] = []
  const skip = () => { while (i < s.length && /\s/.test(s[i]!)) i++ }
  const level = (depth: number): void => {
    const open = s[i]
    if (open !== '{' && open !== '[') throw bad(`expected '{' or '[' at ${i}`)
    const close = open === '{' ? '}' : ']'
    i++
    skip()
    let count = 0
    if (s[i] === close) { i++; note(depth, 0); return }
    for (;;) {
      skip()
      if (s[i] === '{' || s[i] === '[') {
        level(depth + 1)
      } else {
        if (shape.length > depth + 1) throw bad('mixed elements and sub-arrays')
        const m = /^[^,\]}\s]+/.exec(s.slice(i))
        if (m === null) throw bad(`expected a number at ${i}`)
        i += m[0].length
        values.push(element(m[0]))
        note(depth + 1, -1)
      }
      count++
      skip()
      if (s[i] === ',') { i++; continue }
      if (s[i] === close) { i++; break }
      throw bad(`expected ',' or '${close}' at ${i}`)
    }
    note(depth, count)
  }
  const element = (t: string): number => {
    const u = t.replace(/^"|"$/g, '')
    if (/^(null|nan)$/i.test(u)) return NaN
    const x = Number(u)
    if (u === '' || Number.isNaN(x)) throw bad(`not a number: ${t}`)
    return x
  }
  // shape[d] is the length along dimension d; -1 in note() marks the leaf depth
  let leafDepth = -1
  const note = (depth: number, n: number): void => {
    if (n === -1) {
      if (leafDepth === -1) leafDepth = depth
      else if (leafDepth !== depth) throw bad('ragged array: elements at different depths')
      return
    }
    if (shape[depth] === undefined) shape[depth] = n
    else if (shape[depth] !== n) throw bad(`ragged array: dimension ${depth + 1} has lengths ${shape[depth]} and ${n}`)
  }
  level(0)
  skip()
  if (i !== s.length) throw bad(`unexpected text at ${i}`)
  if (values.length === 0) {
    const d = dims ?? shape.length
    return DoubleArray.empty(d)
  }
  const outShape = shape.slice(0, leafDepth)
  if (dims !== undefined && outShape.length !== dims) throw bad(`expected ${dims} dimension(s), found ${outShape.length}`)
  return new DoubleArray(outShape, Float64Array.from(values))
}

/**
 * An array from nested JavaScript arrays of numbers (`[[1, 2], [3, 4]]`, a parameter or a
 * driver's value); null/undefined elements are null. Undefined when `js` is not a rectangular
 * nest of numbers.
 */
export function arrayFromNested(js: unknown): DoubleArray | undefined {
  if (js instanceof DoubleArray) return js
  if (js instanceof Float64Array || js instanceof Float32Array) return new DoubleArray([js.length], Float64Array.from(js))
  if (!Array.isArray(js)) return undefined
  const shape: number[] = []
  for (let x: unknown = js; Array.isArray(x); x = x[0]) {
    shape.push(x.length)
    if (x.length === 0) break
  }
  const values: number[] = []
  const walk = (x: unknown, d: number): boolean => {
    if (d === shape.length) {
      if (x === null || x === undefined) { values.push(NaN); return true }
      if (typeof x !== 'number' && typeof x !== 'bigint') return false
      values.push(Number(x))
      return true
    }
    if (!Array.isArray(x) || x.length !== shape[d]) return false
    for (const y of x) if (!walk(y, d + 1)) return false
    return true
  }
  if (!walk(js, 0)) return undefined
  if (values.length === 0) return DoubleArray.empty(shape.length)
  return new DoubleArray(shape, Float64Array.from(values))
}

/** Nested JavaScript arrays of an array's elements (null elements as null), for `db.query()` rows. */
export function arrayToNested(a: DoubleArray): unknown[] {
  if (a.values.length === 0) return []
  const build = (dim: number, at: number): unknown[] => {
    const n = a.shape[dim]!
    const out: unknown[] = new Array(n)
    if (dim === a.shape.length - 1) {
      for (let i = 0; i < n; i++) { const x = a.values[at + i]!; out[i] = Number.isFinite(x) ? x : null }
      return out
    }
    let stride = 1
    for (let d = dim + 1; d < a.shape.length; d++) stride *= a.shape[d]!
    for (let i = 0; i < n; i++) out[i] = build(dim + 1, at + i * stride)
    return out
  }
  return build(0, 0)
}

/** A hash key of a BINARY or array value (GROUP BY, DISTINCT, join keys): equal keys, equal values. */
export function objectKey(s: Uint8Array | DoubleArray): string {
  return s instanceof DoubleArray ? `${s.shape.join('x')}:${Array.from(s.values, (x) => (Number.isFinite(x) ? x : 'n')).join(',')}` : Array.from(s).join(',')
}
