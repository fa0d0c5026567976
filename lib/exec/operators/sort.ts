/**
 * ORDER BY: gathers the input, sorts row indexes with per-key comparators over the key vectors
 * (typed-array reads, no row objects), and emits the rows in order in batches.
 * Nulls sort first ascending and last descending unless NULLS FIRST/LAST says otherwise.
 */
import { isDecimal } from '../../types/decimal.js'
import { wideDecimalCompare } from './decimal-sort.js'
import { type Batch, type Vector, BATCH_SIZE, concatVectors, gather, isNullAt, materialize } from '../../types/vector.js'
import type { OutputColumn, SortNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { Runner } from './runner.js'
import { type Reservation, batchBytes } from '../memory.js'
import { sortYielding } from './yielding-sort.js'
import { objectKey } from '../../types/array.js'
import { arrGet } from '../../types/array-vector.js'
import { evaluateSliced } from '../evaluate-sliced.js'

/**
 * Collects every batch of a plan into one batch (used by blocking operators), reserving its
 * bytes in `mem` as the batches arrive (and the concatenated copy while the parts still live).
 */
export async function collect(run: Runner, node: Parameters<Runner>[0], ctx: ExecContext, output: readonly OutputColumn[], mem: Reservation): Promise<Batch> {
  const parts: Batch[] = []
  let bytes = 0
  for await (const b of run(node, ctx)) {
    const n = batchBytes(b)
    mem.grow(n)
    bytes += n
    parts.push(b)
  }
  if (parts.length <= 1) return concatBatches(parts, output)
  mem.grow(bytes)
  const all = concatBatches(parts, output)
  mem.shrink(bytes)
  return all
}

/** Concatenates batches of the same schema. */
export function concatBatches(parts: readonly Batch[], output: readonly OutputColumn[]): Batch {
  let length = 0
  for (const p of parts) length += p.length
  const vectors = output.map((c, i) => concatVectors(c.type, parts.map((p) => p.vectors[i]!)))
  return { length, vectors }
}

/** Emits `b` in slices of at most {@link BATCH_SIZE} rows. */
export async function* emit(b: Batch, ctx: ExecContext): AsyncGenerator<Batch> {
  if (b.length <= BATCH_SIZE) { if (b.length > 0) yield b; return }
  for (let s = 0; s < b.length; s += BATCH_SIZE) {
    const n = Math.min(BATCH_SIZE, b.length - s)
    const sel = new Int32Array(n)
    for (let i = 0; i < n; i++) sel[i] = s + i
    yield { length: n, vectors: b.vectors.map((v) => gather(v, sel, n)) }
    await ctx.maybeYield()
  }
}

type Compare = (a: number, b: number) => number

/** A comparator of rows a and b by one key vector. */
export function comparator(v0: Vector, desc: boolean, nullsFirst: boolean): Compare {
  const v = materialize(v0)
  const sign = desc ? -1 : 1
  const nullOrder = nullsFirst ? -1 : 1
  const withNulls = (cmp: Compare): Compare => (a, b) => {
    const na = isNullAt(v, a)
    const nb = isNullAt(v, b)
    if (na || nb) return na === nb ? 0 : na ? nullOrder : -nullOrder
    return sign * cmp(a, b)
  }
  switch (v.kind) {
    case 'bool': case 'i8': case 'i16': case 'u16': case 'i32': case 'f32': case 'f64': {
      const d = v.data
      if (v.type === 'IPV4') return withNulls((a, b) => ((d[a]! >>> 0) - (d[b]! >>> 0)))
      return withNulls((a, b) => (d[a]! < d[b]! ? -1 : d[a]! > d[b]! ? 1 : 0))
    }
    case 'i64': {
      const d = v.data
      return withNulls((a, b) => (d[a]! < d[b]! ? -1 : d[a]! > d[b]! ? 1 : 0))
    }
    case 'sym': {
      const d = v.data
      const values = v.dict.values
      return withNulls((a, b) => { const x = values[d[a]!]!, y = values[d[b]!]!; return x < y ? -1 : x > y ? 1 : 0 })
    }
    case 'str': {
      const d = v.data
      if (isDecimal(v.type)) return withNulls(wideDecimalCompare(v))
      return withNulls((a, b) => { const x = d[a]!, y = d[b]!; return x < y ? -1 : x > y ? 1 : 0 })
    }
    case 'bin': return withNulls((a, b) => compareBytes(v.data[a]!, v.data[b]!))
    case 'arr': return withNulls((a, b) => { const x = objectKey(arrGet(v, a)!), y = objectKey(arrGet(v, b)!); return x < y ? -1 : x > y ? 1 : 0 })
    case 'null': return () => 0
  }
}

function compareBytes(x: Uint8Array, y: Uint8Array): number {
  const n = Math.min(x.length, y.length)
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

/** Runs an ORDER BY node. */
export async function* runSort(node: SortNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  // held until the last row is emitted; on failure or an early stop, until the statement ends
  const mem = ctx.memory.reservation('ORDER BY')
  const all = await collect(run, node.input, ctx, node.input.output, mem)
  if (all.length === 0) return
  // computed keys, the index array and the sort's own workspace (JS heap), the selection
  mem.grow(all.length * (8 * node.keys.length + SORT_ROW_BYTES))
  const cmps: Compare[] = []
  for (const k of node.keys) cmps.push(comparator(await evaluateSliced(k.expr, all, ctx), k.desc, k.nullsFirst))
  const sel = new Int32Array(all.length)
  for (let i = 0; i < all.length; i++) sel[i] = i
  // in bounded steps: a sort of millions of rows must not hold the event loop for seconds
  await sortYielding(sel, (a, b) => {
    for (const c of cmps) { const r = c(a, b); if (r !== 0) return r }
    return a - b
  }, ctx)
  yield* emitSelected(all, sel, ctx)
  mem.close()
}

/** Bytes per row a sort holds beyond its rows: 8 for the index array, 8 for the sort's workspace, 4 for the selection. */
const SORT_ROW_BYTES = 20

/** Emits rows `sel` of `all` in batches of {@link BATCH_SIZE}, gathering one batch at a time. */
export async function* emitSelected(all: Batch, sel: Int32Array, ctx: ExecContext): AsyncGenerator<Batch> {
  for (let s = 0; s < sel.length; s += BATCH_SIZE) {
    const n = Math.min(BATCH_SIZE, sel.length - s)
    const part = sel.subarray(s, s + n)
    yield { length: n, vectors: all.vectors.map((v) => gather(v, part, n)) }
    await ctx.maybeYield()
  }
}

