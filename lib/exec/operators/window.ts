/**
 * The window operator. A window is a pipeline breaker: the input is materialized once, then for
 * each call (calls with the same PARTITION BY / ORDER BY share one sort) rows get a partition id,
 * row indexes are sorted by (partition, order keys, input position), and the function runs as a
 * typed-array loop over each partition (see window-aggregate.ts and window-value.ts). Results
 * are written by input row, so the output is the input's rows, in the input's order, followed by
 * one column per call.
 *
 * Contract: output rows = input rows in input order (the designated timestamp order survives).
 */
import { type Batch, type I64Vector, type Vector, concatVectors, materialize, sliceVector } from '../../types/vector.js'
import { splitNs } from '../../types/timestamp-ns.js'
import type { WindowNode } from '../../plan/plan-node.js'
import type { WindowCall } from '../../plan/nodes/window.js'
import { LONG_NULL } from '../../types/column-type.js'
import type { ExecContext } from '../context.js'
import { nullMask } from '../../functions/aggregate/agg-util.js'
import type { Runner } from './runner.js'
import { collect, emit } from './sort.js'
import { MAP_ENTRY_BYTES } from '../memory.js'
import { type WindowOrder, partitionIdsYielding, windowOrderYielding } from './window-sort.js'

/** Bytes per row of one window order: partition ids, five Int32Array positions, the sort's workspace. */
const ORDER_ROW_BYTES = 4 + 5 * 4 + 16
/** Bytes per row of one call: its result and its frame bounds or argument copies. */
const CALL_ROW_BYTES = 24
/** Bytes per row of the partition-id map at most (an entry and a key text per partition). */
const PARTITION_BYTES = MAP_ENTRY_BYTES + 48
import { frameBoundsSteps } from './window-frame.js'
import { frameCountsSteps, frameExtremesSteps, frameSumsSteps, toFloat64 } from './window-aggregate.js'
import { decimalFrameExtremes, decimalFrameSums } from './window-decimal.js'
import { nsFrameExtremes } from './window-ns.js'
import { isDecimal } from '../../types/decimal.js'
import { framePicksSteps, gatherPicks, offsetPicksSteps, rankingSteps } from './window-value.js'
import { runSteps } from '../steps.js'
import { SLICE_ROWS, evaluateSliced, slices } from '../evaluate-sliced.js'



/** Runs a window node: the input rows with one column per window call. */
export async function* runWindow(node: WindowNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const mem = ctx.memory.reservation('window function')
  const all = await collect(run, node.input, ctx, node.input.output, mem)
  const n = all.length
  if (n === 0) return
  const orders = new Map<string, { order: WindowOrder; keys: Vector[] }>()
  const results: Vector[] = []
  for (const call of node.calls) {
    let sorted = orders.get(call.sortKey)
    if (sorted === undefined) {
      mem.grow(n * (ORDER_ROW_BYTES + 8 * call.orderBy.length))
      const parts: Vector[] = []
      for (const e of call.partitionBy) parts.push(await evaluateSliced(e, all, ctx))
      const keys: Vector[] = []
      for (const k of call.orderBy) keys.push(materialize(await evaluateSliced(k.expr, all, ctx)))
      // the partition-id map holds at most one entry per row, and is garbage once ids are assigned
      const mapBytes = parts.length > 0 ? n * PARTITION_BYTES : 0
      mem.grow(mapBytes)
      const { ids, count } = await partitionIdsYielding(parts, n, ctx)
      mem.shrink(mapBytes)
      sorted = { order: await windowOrderYielding(ids, count, keys, call.orderBy, presorted(node, call), ctx), keys }
      orders.set(call.sortKey, sorted)
      await ctx.maybeYield()
    }
    mem.grow(n * CALL_ROW_BYTES)
    results.push(await computeCall(call, sorted.order, sorted.keys, all, ctx))
    await ctx.maybeYield()
  }
  yield* emit({ length: n, vectors: [...all.vectors, ...results] }, ctx)
  mem.close()
}

/** True when the input already arrives in the call's ORDER BY order: ascending designated timestamp. */
function presorted(node: WindowNode, call: WindowCall): boolean {
  const k = call.orderBy[0]
  return call.orderBy.length === 1 && k !== undefined && !k.desc && k.expr.kind === 'column' &&
    node.input.timestampIndex >= 0 && k.expr.index === node.input.timestampIndex
}

/** The result vector of one call, by input row: every pass over the rows runs in steps that yield (exec/steps.ts). */
async function computeCall(call: WindowCall, order: WindowOrder, keys: readonly Vector[], all: Batch, ctx: ExecContext): Promise<Vector> {
  const n = all.length
  const argVector = async (): Promise<Vector> => materialize(await evaluateSliced(call.arg!, all, ctx))
  const frame = async () => {
    const range = call.frame.units === 'range' && keys.length === 1
    if (range && keys[0]!.type === 'TIMESTAMP_NS' && keys[0]!.kind === 'i64') {
      // to the nanosecond: whole microseconds and the remainders (a double of the value drops digits)
      const { micros, sub } = splitNs(materialize(keys[0]!) as I64Vector, n)
      return await runSteps(frameBoundsSteps(order, call.frame, true, micros, call.orderBy[0]?.desc === true, sub), ctx)
    }
    const key = range ? await mapSliced(keys[0]!, n, Float64Array, toFloat64, ctx) : undefined
    return await runSteps(frameBoundsSteps(order, call.frame, keys.length > 0, key, call.orderBy[0]?.desc === true), ctx)
  }
  const numbers = (data: Float64Array): Vector => ({ kind: 'f64', type: 'DOUBLE', length: n, data })
  const longs = (data: Float64Array): Vector => ({ kind: 'i64', type: 'LONG', length: n, data })
  const doubles = (v: Vector) => mapSliced(v, n, Float64Array, toFloat64, ctx)
  const nulls = (v: Vector) => mapSliced(v, n, Uint8Array, nullMask, ctx)
  switch (call.fn) {
    case 'row_number': case 'rank': case 'dense_rank': case 'ntile':
      return longs(await runSteps(rankingSteps(order, call.fn, call.n), ctx))
    case 'percent_rank': case 'cume_dist':
      return numbers(await runSteps(rankingSteps(order, call.fn, call.n), ctx))
    case 'lag': case 'lead': {
      const v = await argVector()
      const picks = await runSteps(offsetPicksSteps(order, call.n, call.fn === 'lag', call.ignoreNulls ? await nulls(v) : undefined), ctx)
      return await gatherSliced(v, picks, call.default === undefined ? undefined : await evaluateSliced(call.default, all, ctx), ctx)
    }
    case 'first_value': case 'last_value': case 'nth_value': {
      const v = await argVector()
      const f = await frame()
      return await gatherSliced(v, await runSteps(framePicksSteps(order, f, call.fn, call.n, call.ignoreNulls ? await nulls(v) : undefined), ctx), undefined, ctx)
    }
    case 'count':
      if (call.arg === undefined) return longs(await runSteps(frameCountsSteps(order, await frame()), ctx))
      return longs(await runSteps(frameSumsSteps(order, await frame(), notNullAsOne(await nulls(await argVector())), 'count'), ctx))
    case 'sum': case 'avg': case 'ksum':
      if (isDecimal(call.type)) return decimalFrameSums(order, await frame(), await argVector(), call.fn === 'avg' ? 'avg' : 'sum', call.type)
      return numbers(await runSteps(frameSumsSteps(order, await frame(), await doubles(await argVector()), call.fn), ctx))
    case 'min': case 'max': {
      if (isDecimal(call.type)) return decimalFrameExtremes(order, await frame(), await argVector(), call.fn === 'max', call.type)
      if (call.type === 'TIMESTAMP_NS') return await nsFrameExtremes(order, await frame(), await argVector() as I64Vector, call.fn === 'max', ctx)
      const r = await runSteps(frameExtremesSteps(order, await frame(), await doubles(await argVector()), call.fn === 'max'), ctx)
      if (call.type === 'DOUBLE') return numbers(r)
      for (let i = 0; i < n; i++) if (r[i] !== r[i]) r[i] = LONG_NULL
      return { kind: 'i64', type: call.type, length: n, data: r }
    }
  }
}

/** 1 for each non-null value, NaN for null (from a null mask): count(x) of any type as a sum. */
function notNullAsOne(m: Uint8Array): Float64Array {
  const out = new Float64Array(m.length)
  for (let i = 0; i < m.length; i++) out[i] = m[i] === 1 ? NaN : 1
  return out
}

/** An element-wise conversion of `v` (toFloat64, nullMask) slice by slice into one array. */
async function mapSliced<A extends Float64Array | Uint8Array>(v: Vector, n: number, make: new (n: number) => A, f: (v: Vector, n: number) => A, ctx: ExecContext): Promise<A> {
  if (n <= SLICE_ROWS) return f(v, n)
  const out = new make(n)
  for (const [s, e] of slices(n)) {
    out.set(f(sliceVector(v, s, e), e - s), s)
    await ctx.maybeYield()
  }
  return out
}

/** {@link gatherPicks} slice by slice (the picks of each slice), with a scheduler check between slices. */
async function gatherSliced(v: Vector, picks: Int32Array, def: Vector | undefined, ctx: ExecContext): Promise<Vector> {
  const n = picks.length
  if (n <= SLICE_ROWS) return gatherPicks(v, picks, def)
  const parts: Vector[] = []
  for (const [s, e] of slices(n)) {
    parts.push(gatherPicks(v, picks.subarray(s, e), def === undefined ? undefined : sliceVector(def, s, e)))
    await ctx.maybeYield()
  }
  return concatVectors(v.type, parts)
}
