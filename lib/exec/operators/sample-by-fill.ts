/**
 * The output pass of SAMPLE BY: lays out the result rows in bucket order (with FILL, every bucket
 * of the range × every key seen) and builds each aggregate column from the kernel's per-group
 * results, filling the rows that have no group: NULL, PREV (per key), LINEAR (per key, between
 * the neighbouring buckets by timestamp) or a constant.
 */
import { SqlError, SqlState } from '../../errors.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { type Vector, allocate, constVector, materialize } from '../../types/vector.js'
import type { SampleFill } from '../../plan/nodes/sample-by.js'
import type { Sampler } from './sample-by-buckets.js'

/** Most rows a FILL may generate (guards `FROM '1970' TO '2100' ... SAMPLE BY 1s`). */
export const MAX_FILL_ROWS = 50_000_000

/** The result rows: the group of each row (-1 for a filled row), its bucket start and key id. */
export interface Layout {
  readonly length: number
  readonly group: Int32Array
  readonly start: Float64Array
  readonly key: Int32Array
}

/** The groups aggregated so far: bucket ordinal and key id of each group, bucket starts by ordinal. */
export interface Groups {
  readonly count: number
  readonly bucketOf: Int32Array
  readonly keyOf: Int32Array
  readonly starts: readonly number[]
  /** false when buckets were not met in start order */
  readonly ordered: boolean
}

/** Rows for FILL(NONE): one per group, in bucket order (groups of one bucket in order of appearance). */
export function plainLayout(g: Groups): Layout {
  const n = g.count
  const group = new Int32Array(n)
  for (let i = 0; i < n; i++) group[i] = i
  if (!g.ordered) {
    const order = Array.from(group).sort((a, b) => g.starts[g.bucketOf[a]!]! - g.starts[g.bucketOf[b]!]! || g.bucketOf[a]! - g.bucketOf[b]!)
    group.set(order)
  }
  const start = new Float64Array(n)
  const key = new Int32Array(n)
  for (let i = 0; i < n; i++) { start[i] = g.starts[g.bucketOf[group[i]!]!]!; key[i] = g.keyOf[group[i]!]! }
  return { length: n, group, start, key }
}

/**
 * Rows for a FILL: every bucket from FROM (else the first bucket with data) up to TO (exclusive;
 * else the last bucket with data), times every key id 0..keys-1.
 */
export function filledLayout(g: Groups, keys: number, sampler: Sampler | undefined, lo: number | undefined, hi: number | undefined, pos: number): Layout {
  const starts: number[] = []
  if (sampler !== undefined) {
    let first = Infinity, last = -Infinity
    for (const s of g.starts) { if (s < first) first = s; if (s > last) last = s }
    let s = lo === undefined ? first : sampler.floor(lo)
    const limit = MAX_FILL_ROWS / Math.max(1, keys)
    while (s !== Infinity && (hi === undefined ? s <= last : s < hi)) {
      starts.push(s)
      if (starts.length > limit) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `SAMPLE BY FILL would produce more than ${MAX_FILL_ROWS} rows`, pos)
      s = sampler.next(s)
    }
    const seen = new Set(starts)
    if (g.starts.some((x) => !seen.has(x))) {
      for (const x of g.starts) if (!seen.has(x)) { seen.add(x); starts.push(x) }
      starts.sort((a, b) => a - b)
    }
  }
  const ordinal = new Map<number, number>()
  g.starts.forEach((s, i) => ordinal.set(s, i))
  const cell = new Int32Array(g.starts.length * keys).fill(-1)
  for (let i = 0; i < g.count; i++) cell[g.bucketOf[i]! * keys + g.keyOf[i]!] = i
  const n = starts.length * keys
  const group = new Int32Array(n).fill(-1)
  const start = new Float64Array(n)
  const key = new Int32Array(n)
  let r = 0
  for (const s of starts) {
    const o = ordinal.get(s)
    for (let k = 0; k < keys; k++, r++) {
      start[r] = s
      key[r] = k
      if (o !== undefined) group[r] = cell[o * keys + k]!
    }
  }
  return { length: n, group, start, key }
}

/** One aggregate's output column: `result` (indexed by group) laid out by `rows` and filled. */
export function fillColumn(result: Vector, fill: SampleFill | undefined, rows: Layout, keys: number): Vector {
  const n = rows.length
  if (fill?.kind !== 'prev') return finish(pick(result, rows.group, n), fill, rows, keys)
  const src = new Int32Array(n)
  const last = new Int32Array(keys).fill(-1)
  for (let r = 0; r < n; r++) {
    const g = rows.group[r]!
    if (g >= 0) last[rows.key[r]!] = g
    src[r] = g >= 0 ? g : last[rows.key[r]!]!
  }
  return pick(result, src, n)
}

function finish(out: Vector, fill: SampleFill | undefined, rows: Layout, keys: number): Vector {
  if (fill === undefined) return out
  switch (fill.kind) {
    case 'null': case 'prev': return out
    case 'value': return fillConstant(out, fill.value, rows)
    case 'linear': return interpolate(out, rows, keys)
  }
}

/** Rows `src[i]` of `v` (null where `src[i]` is -1). */
export function pick(v: Vector, src: Int32Array, n: number): Vector {
  const m = materialize(v)
  if (m.kind === 'null') return { ...m, length: n }
  if (m.kind === 'i64' && m.data instanceof BigInt64Array) {
    const data = new BigInt64Array(n).fill(-9223372036854775808n)
    for (let i = 0; i < n; i++) { const g = src[i]!; if (g >= 0) data[i] = m.data[g]! }
    return { ...m, length: n, data }
  }
  const out = allocate(m.type, n, m.kind === 'sym' ? m.dict : undefined)
  const from = m.data as ArrayLike<unknown> as Float64Array
  const to = out.data as Float64Array
  for (let i = 0; i < n; i++) { const g = src[i]!; if (g >= 0) to[i] = from[g]! }
  return out
}

function fillConstant(out: Vector, value: unknown, rows: Layout): Vector {
  const c = materialize(constVector(out.type, value as never, 1))
  let x: unknown = c.kind === 'null' ? null : (c.data as ArrayLike<unknown>)[0]
  if (out.kind === 'sym' && c.kind === 'sym') x = c.data[0]! < 0 ? -1 : out.dict.intern(c.dict.values[c.data[0]!]!)
  if (out.kind === 'i64' && out.data instanceof BigInt64Array) x = typeof x === 'bigint' ? x : BigInt(x as number)
  if (out.kind === 'null') return out
  const d = out.data as unknown as unknown[]
  for (let r = 0; r < rows.length; r++) if (rows.group[r]! < 0) d[r] = x
  return out
}

/** LINEAR: a filled row between two rows of its key with values gets the value on the line between them. */
function interpolate(out: Vector, rows: Layout, keys: number): Vector {
  if (out.kind !== 'f64' && out.kind !== 'f32' && out.kind !== 'i32' && out.kind !== 'i16' && out.kind !== 'i8' && !(out.kind === 'i64' && out.data instanceof Float64Array)) return out
  const d = out.data as Float64Array
  const isNull = (x: number) => x !== x || (out.kind === 'i64' && x === LONG_NULL) || (out.kind === 'i32' && out.type === 'INT' && x === INT_NULL)
  const integral = out.kind !== 'f64' && out.kind !== 'f32'
  const n = rows.length
  const next = new Int32Array(n).fill(-1)
  const seen = new Int32Array(keys).fill(-1)
  for (let r = n - 1; r >= 0; r--) {
    const k = rows.key[r]!
    next[r] = seen[k]!
    if (rows.group[r]! >= 0) seen[k] = r
  }
  seen.fill(-1)
  for (let r = 0; r < n; r++) {
    const k = rows.key[r]!
    if (rows.group[r]! >= 0) { seen[k] = r; continue }
    const a = seen[k]!, b = next[r]!
    if (a < 0 || b < 0 || isNull(d[a]!) || isNull(d[b]!)) continue
    const t0 = rows.start[a]!, t1 = rows.start[b]!
    const y = d[a]! + (d[b]! - d[a]!) * (rows.start[r]! - t0) / (t1 - t0)
    d[r] = integral ? Math.trunc(y) : y
  }
  return out
}
