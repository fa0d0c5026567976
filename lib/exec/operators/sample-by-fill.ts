/**
 * The output pass of SAMPLE BY: lays out the result rows in bucket order (with FILL, every bucket
 * of the range × every key seen) and builds each aggregate column from the kernel's per-group
 * results, filling the rows that have no group: NULL, PREV (per key), LINEAR (per key, between
 * the neighbouring buckets by timestamp) or a constant.
 */
import { SqlError, SqlState } from '../../errors.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { type Vector, allocate, constVector, materialize } from '../../types/vector.js'
import { ArrBuilder } from '../../types/array-vector.js'
import type { SampleFill } from '../../plan/nodes/sample-by.js'
import type { Sampler } from './sample-by-buckets.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'

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
 * else the last bucket with data), times every key id 0..keys-1. Up to {@link MAX_FILL_ROWS}
 * rows, so it yields to the event loop (and stops when cancelled) as it goes.
 */
export async function filledLayout(g: Groups, keys: number, sampler: Sampler | undefined, lo: number | undefined, hi: number | undefined, pos: number, ctx: ExecContext): Promise<Layout> {
  let starts: number[] = []
  let work = 0
  if (sampler !== undefined) {
    let first = Infinity, last = -Infinity
    for (const s of g.starts) { if (s < first) first = s; if (s > last) last = s }
    let s = lo === undefined ? first : sampler.floor(lo)
    const limit = MAX_FILL_ROWS / Math.max(1, keys)
    while (s !== Infinity && (hi === undefined ? s <= last : s < hi)) {
      starts.push(s)
      if (starts.length > limit) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `SAMPLE BY FILL would produce more than ${MAX_FILL_ROWS} rows`, pos)
      s = sampler.next(s)
      if (++work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
    }
    // buckets with data outside the range (or off the grid) are rows too; `starts` is ascending
    const extra = [...new Set(g.starts.filter((x) => !sortedHas(starts, x)))].sort((a, b) => a - b)
    if (extra.length > 0) {
      const merged: number[] = []
      let i = 0
      for (const x of extra) {
        while (i < starts.length && starts[i]! < x) {
          merged.push(starts[i++]!)
          if (++work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
        }
        merged.push(x)
      }
      while (i < starts.length) {
        merged.push(starts[i++]!)
        if (++work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
      }
      starts = merged
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
    work += keys
    if (work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
  }
  return { length: n, group, start, key }
}

/** True when ascending `a` holds `x` (binary search). */
function sortedHas(a: readonly number[], x: number): boolean {
  let lo = 0
  let hi = a.length
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (a[mid]! < x) lo = mid + 1; else hi = mid }
  return lo < a.length && a[lo] === x
}

/** Rows a fill loop handles between two calls of `ctx.maybeYield` (well under a millisecond). */
const FILL_SLICE = 65536

/** Calls `body(lo, hi)` over [0, n) in slices (last slice first when `backward`), yielding between them. */
async function sliced(n: number, ctx: ExecContext | undefined, body: (lo: number, hi: number) => void, backward = false): Promise<void> {
  const count = Math.ceil(n / FILL_SLICE)
  for (let j = 0; j < count; j++) {
    const lo = (backward ? count - 1 - j : j) * FILL_SLICE
    body(lo, Math.min(n, lo + FILL_SLICE))
    if (ctx !== undefined) await ctx.maybeYield()
  }
}

/**
 * One aggregate's output column: `result` (indexed by group) laid out by `rows` and filled.
 * Yields to the event loop between slices of rows (a FILL makes up to {@link MAX_FILL_ROWS}).
 */
export async function fillColumn(result: Vector, fill: SampleFill | undefined, rows: Layout, keys: number, ctx?: ExecContext): Promise<Vector> {
  const n = rows.length
  if (fill?.kind !== 'prev') return finish(await pick(result, rows.group, n, ctx), fill, rows, keys, ctx)
  const src = new Int32Array(n)
  const last = new Int32Array(keys).fill(-1)
  await sliced(n, ctx, (lo, hi) => {
    for (let r = lo; r < hi; r++) {
      const g = rows.group[r]!
      if (g >= 0) last[rows.key[r]!] = g
      src[r] = g >= 0 ? g : last[rows.key[r]!]!
    }
  })
  return pick(result, src, n, ctx)
}

async function finish(out: Vector, fill: SampleFill | undefined, rows: Layout, keys: number, ctx: ExecContext | undefined): Promise<Vector> {
  if (fill === undefined) return out
  switch (fill.kind) {
    case 'null': case 'prev': return out
    case 'value': return fillConstant(out, fill.value, rows, ctx)
    case 'linear': return interpolate(out, rows, keys, ctx)
  }
}

/** Rows `src[i]` of `v` (null where `src[i]` is -1). */
export async function pick(v: Vector, src: Int32Array, n: number, ctx?: ExecContext): Promise<Vector> {
  const m = materialize(v)
  if (m.kind === 'null') return { ...m, length: n }
  if (m.kind === 'i64' && m.data instanceof BigInt64Array) {
    const data = new BigInt64Array(n).fill(-9223372036854775808n)
    const from = m.data
    await sliced(n, ctx, (lo, hi) => { for (let i = lo; i < hi; i++) { const g = src[i]!; if (g >= 0) data[i] = from[g]! } })
    return { ...m, length: n, data }
  }
  if (m.kind === 'arr') {
    // arrays (array_agg, array_elem_*, first/last of an array column): row by row, -1 a NULL array
    const b = new ArrBuilder(m.type, n)
    for (let i = 0; i < n; i++) { const g = src[i]!; if (g >= 0) b.pushRange(m, g, g + 1); else b.pushNull() }
    return b.finish()
  }
  const out = allocate(m.type, n, m.kind === 'sym' ? m.dict : undefined)
  const from = m.data as ArrayLike<unknown> as Float64Array
  const to = out.data as Float64Array
  await sliced(n, ctx, (lo, hi) => { for (let i = lo; i < hi; i++) { const g = src[i]!; if (g >= 0) to[i] = from[g]! } })
  return out
}

async function fillConstant(out: Vector, value: unknown, rows: Layout, ctx: ExecContext | undefined): Promise<Vector> {
  const c = materialize(constVector(out.type, value as never, 1))
  let x: unknown = c.kind === 'null' ? null : (c.data as ArrayLike<unknown>)[0]
  if (out.kind === 'sym' && c.kind === 'sym') x = c.data[0]! < 0 ? -1 : out.dict.intern(c.dict.values[c.data[0]!]!)
  if (out.kind === 'i64' && out.data instanceof BigInt64Array) x = typeof x === 'bigint' ? x : BigInt(x as number)
  if (out.kind === 'null') return out
  const d = out.data as unknown as unknown[]
  await sliced(rows.length, ctx, (lo, hi) => { for (let r = lo; r < hi; r++) if (rows.group[r]! < 0) d[r] = x })
  return out
}

/** LINEAR: a filled row between two rows of its key with values gets the value on the line between them. */
async function interpolate(out: Vector, rows: Layout, keys: number, ctx: ExecContext | undefined): Promise<Vector> {
  if (out.kind !== 'f64' && out.kind !== 'f32' && out.kind !== 'i32' && out.kind !== 'i16' && out.kind !== 'i8' && !(out.kind === 'i64' && out.data instanceof Float64Array)) return out
  const d = out.data as Float64Array
  const isNull = (x: number) => x !== x || (out.kind === 'i64' && x === LONG_NULL) || (out.kind === 'i32' && out.type === 'INT' && x === INT_NULL)
  const integral = out.kind !== 'f64' && out.kind !== 'f32'
  const n = rows.length
  const next = new Int32Array(n).fill(-1)
  const seen = new Int32Array(keys).fill(-1)
  await sliced(n, ctx, (lo, hi) => {
    for (let r = hi - 1; r >= lo; r--) {
      const k = rows.key[r]!
      next[r] = seen[k]!
      if (rows.group[r]! >= 0) seen[k] = r
    }
  }, true)
  seen.fill(-1)
  await sliced(n, ctx, (lo, hi) => {
    for (let r = lo; r < hi; r++) {
      const k = rows.key[r]!
      if (rows.group[r]! >= 0) { seen[k] = r; continue }
      const a = seen[k]!, b = next[r]!
      if (a < 0 || b < 0 || isNull(d[a]!) || isNull(d[b]!)) continue
      const t0 = rows.start[a]!, t1 = rows.start[b]!
      const y = d[a]! + (d[b]! - d[a]!) * (rows.start[r]! - t0) / (t1 - t0)
      d[r] = integral ? Math.trunc(y) : y
    }
  })
  return out
}
