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
import { type Batch, type Vector, materialize } from '../../types/vector.js'
import type { WindowNode } from '../../plan/plan-node.js'
import type { WindowCall } from '../../plan/nodes/window.js'
import { LONG_NULL } from '../../types/column-type.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
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
import { frameBounds } from './window-frame.js'
import { frameCounts, frameExtremes, frameSums, toFloat64 } from './window-aggregate.js'
import { framePicks, gatherPicks, offsetPicks, ranking } from './window-value.js'

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
      const parts = call.partitionBy.map((e) => compileExpr(e, ctx)(all))
      const keys = call.orderBy.map((k) => materialize(compileExpr(k.expr, ctx)(all)))
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
    results.push(computeCall(call, sorted.order, sorted.keys, all, ctx))
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

/** The result vector of one call, by input row. */
function computeCall(call: WindowCall, order: WindowOrder, keys: readonly Vector[], all: Batch, ctx: ExecContext): Vector {
  const n = all.length
  const argVector = () => materialize(compileExpr(call.arg!, ctx)(all))
  const frame = () => {
    const key = call.frame.units === 'range' && keys.length === 1 ? toFloat64(keys[0]!, n) : undefined
    return frameBounds(order, call.frame, keys.length > 0, key, call.orderBy[0]?.desc === true)
  }
  const numbers = (data: Float64Array): Vector => ({ kind: 'f64', type: 'DOUBLE', length: n, data })
  const longs = (data: Float64Array): Vector => ({ kind: 'i64', type: 'LONG', length: n, data })
  switch (call.fn) {
    case 'row_number': case 'rank': case 'dense_rank': case 'ntile':
      return longs(ranking(order, call.fn, call.n))
    case 'percent_rank': case 'cume_dist':
      return numbers(ranking(order, call.fn, call.n))
    case 'lag': case 'lead': {
      const v = argVector()
      const picks = offsetPicks(order, call.n, call.fn === 'lag', call.ignoreNulls ? nullMask(v, n) : undefined)
      return gatherPicks(v, picks, call.default === undefined ? undefined : compileExpr(call.default, ctx)(all))
    }
    case 'first_value': case 'last_value': case 'nth_value': {
      const v = argVector()
      return gatherPicks(v, framePicks(order, frame(), call.fn, call.n, call.ignoreNulls ? nullMask(v, n) : undefined), undefined)
    }
    case 'count':
      if (call.arg === undefined) return longs(frameCounts(order, frame()))
      return longs(frameSums(order, frame(), notNullAsOne(argVector(), n), 'count'))
    case 'sum': case 'avg': case 'ksum':
      return numbers(frameSums(order, frame(), toFloat64(argVector(), n), call.fn))
    case 'min': case 'max': {
      const r = frameExtremes(order, frame(), toFloat64(argVector(), n), call.fn === 'max')
      if (call.type === 'DOUBLE') return numbers(r)
      for (let i = 0; i < n; i++) if (r[i] !== r[i]) r[i] = LONG_NULL
      return { kind: 'i64', type: call.type, length: n, data: r }
    }
  }
}

/** 1 for each non-null value, NaN for null: count(x) of any type as a sum. */
function notNullAsOne(v: Vector, n: number): Float64Array {
  const m = nullMask(v, n)
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) out[i] = m[i] === 1 ? NaN : 1
  return out
}
