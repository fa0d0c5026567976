/**
 * Joins' entry point ({@link runJoin}) and the parts every join shares: the right side's hash
 * table ({@link buildHashTable}) and the joined rows of pairs ({@link buildJoined}). A join with
 * equi-keys, or without keys and without a condition, runs by buffered pairs (outer-join.ts); one
 * without keys but with an ON condition as a nested loop (nested-loop-join.ts).
 */
import { type Batch, type Vector, VectorWriter, allocate, gather, getScalar, materialize } from '../../types/vector.js'
import { ArrBuilder } from '../../types/array-vector.js'
import type { JoinNode } from '../../plan/plan-node.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'
import { rowKey } from '../keys/row-key.js'
import type { Runner } from './runner.js'
import { MAP_ENTRY_BYTES, type Reservation, STRING_OVERHEAD_BYTES } from '../memory.js'
import { runBufferedJoin } from './outer-join.js'
import { runNestedLoopJoin } from './nested-loop-join.js'
import { evaluateSliced } from '../evaluate-sliced.js'
import { TYPED_JOIN_KEY_TYPES, type TypedJoinTable, buildTypedJoinTable } from '../keys/join-table.js'

/** Bytes of hash-table estimate a join build reserves at a time (accounting per chunk, not per row). */
const BUILD_CHUNK_BYTES = 1 << 20

/** Rows `sel` of `v`, where -1 gives a null. */
export function gatherOrNull(v0: Vector, sel: Int32Array, count: number): Vector {
  const v = materialize(v0)
  if (v.kind === 'arr') {
    // arrays are not one element per row (offsets into shared values): copied by range, as arrGather does
    const b = new ArrBuilder(v.type, count)
    for (let i = 0; i < count; i++) { const j = sel[i]!; if (j < 0) b.pushNull(); else b.pushRange(v, j, j + 1) }
    return b.finish()
  }
  if (v.kind === 'i64' && v.data instanceof BigInt64Array) {
    const w = new VectorWriter(v.type, count)
    for (let i = 0; i < count; i++) w.set(i, sel[i]! < 0 ? null : getScalar(v, sel[i]!))
    return w.finish()
  }
  const out = allocate(v.type, count, v.kind === 'sym' ? v.dict : undefined)
  if (out.kind === 'null') return out
  const src = v.data as unknown as ArrayLike<unknown>
  const dst = out.data as unknown as unknown[]
  for (let i = 0; i < count; i++) { const j = sel[i]!; if (j >= 0) dst[i] = src[j] }
  return out
}

/** Joined pairs per emitted batch (and per residual evaluation). */
export const JOIN_BATCH = 65536

/**
 * Runs a join node: without keys but with an ON condition, as a nested loop
 * ({@link runNestedLoopJoin}); every other join by buffered pairs ({@link runBufferedJoin}).
 */
export async function* runJoin(node: JoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  if (node.residual !== undefined && node.leftKeys.length === 0) yield* runNestedLoopJoin(node, ctx, run)
  else yield* runBufferedJoin(node, ctx, run)
}

/**
 * Key types whose values are their own Map keys: one such key column needs no text key per row
 * (equal values are equal JS primitives on both sides, which carry the same type). LONG and the
 * other 64-bit types are not among them: a vector may hold them as numbers or as bigints.
 */
const DIRECT_KEY_TYPES: ReadonlySet<string> = new Set(['BYTE', 'SHORT', 'CHAR', 'INT', 'FLOAT', 'DOUBLE', 'STRING', 'VARCHAR', 'SYMBOL'])

/** The right side's rows by key, and how a row's key is made ({@link probeKey}). */
export interface JoinTable {
  readonly rows: Map<unknown, number[]>
  /** one key of a {@link DIRECT_KEY_TYPES} type: the value itself is the Map key; else its text (rowKey) */
  readonly direct: boolean
  /** one numeric key of a {@link TYPED_JOIN_KEY_TYPES} type: this table instead of `rows` (then empty) */
  readonly typed?: TypedJoinTable
}

/** The Map key of row `i` of key vectors `keys` in `table`. */
export function probeKey(table: JoinTable, keys: readonly Vector[], i: number): unknown {
  return table.direct ? getScalar(keys[0]!, i) : rowKey(keys, i)
}

/**
 * The hash table of the (collected) right side: its rows by the key of `node.rightKeys`.
 * Rows with a NULL key are left out (they match nothing) unless `node.nullsEqual`. The table's
 * estimated size is reserved on `mem` a chunk at a time.
 */
export async function buildHashTable(node: JoinNode, right: Batch, ctx: ExecContext, mem: Reservation): Promise<JoinTable> {
  const single = node.rightKeys.length === 1 && node.leftKeys[0]!.type === node.rightKeys[0]!.type
  const direct = single && DIRECT_KEY_TYPES.has(node.rightKeys[0]!.type)
  const keys: Vector[] = []
  for (const k of node.rightKeys) keys.push(materialize(await evaluateSliced(k, right, ctx)))
  if (single && TYPED_JOIN_KEY_TYPES.has(node.rightKeys[0]!.type)) {
    const typed = buildTypedJoinTable(keys[0]!, node.nullsEqual === true)
    if (typed !== undefined) {
      mem.grow(typed.bytes)
      await typed.fill(ctx)
      return { rows: new Map(), direct: false, typed }
    }
  }
  const table: JoinTable = { rows: new Map<unknown, number[]>(), direct }
  const rows = table.rows
  let pending = 0
  for (let j = 0; j < right.length; j++) {
    if ((j & (YIELD_CHECK_WORK - 1)) === 0) await ctx.maybeYield()
    if (node.nullsEqual !== true && keys.some((v) => getScalar(v, j) === null)) continue
    const k = probeKey(table, keys, j)
    const list = rows.get(k)
    if (list === undefined) { rows.set(k, [j]); pending += MAP_ENTRY_BYTES + 32 + (typeof k === 'string' ? STRING_OVERHEAD_BYTES + 2 * k.length : 0) }
    else { list.push(j); pending += 8 }
    if (pending > BUILD_CHUNK_BYTES) { mem.grow(pending); pending = 0 }
  }
  mem.grow(pending)
  return table
}

/** The joined rows: left row `ls[k]` beside right row `rs[k]` (-1: a row of nulls). */
export function buildJoined(left: Batch, right: Batch, ls: Int32Array, rs: Int32Array): Batch {
  const n = ls.length
  return {
    length: n,
    vectors: [
      ...left.vectors.map((v) => gather(v, ls, n)),
      ...right.vectors.map((v) => gatherOrNull(v, rs, n)),
    ],
  }
}
