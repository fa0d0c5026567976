/**
 * Right-sized copies of column vectors that storage keeps after a checkpoint.
 *
 * A table's in-memory rows live in growable buffers (column-buffer.ts) whose capacity runs past
 * the rows, and a checkpoint splits them into partitions as views. A view keeps its whole buffer
 * alive, so partitions kept loaded as views would hold far more memory than the memory budget
 * counts (`vectorBytes` in part-cache.ts counts the view): one partition of a buffer still loaded keeps the
 * rows of all the others, and the spare capacity. Kept columns are therefore copied into buffers
 * of their own size, and the budget's figure is what they really hold.
 */
import type { Vector } from '../../types/vector.js'
import type { ArrVector } from '../../types/array-vector.js'
import { sharedBuffer } from '../shared-memory.js'

type Fixed = Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Float32Array | Float64Array | BigInt64Array

/** A copy of `a` in a buffer of exactly its size; shared memory where available, as column memory is (workers scan it). */
function copyOf<T extends Fixed>(a: T): T {
  const buf = sharedBuffer(a.byteLength)
  const out = new (a.constructor as new (b: ArrayBufferLike) => T)(buf)
  ;(out as Float64Array).set(a as unknown as Float64Array)
  return out
}

/** True when `a` is a view on a larger buffer than itself. */
function oversized(a: Fixed): boolean {
  return a.byteLength < a.buffer.byteLength
}

/**
 * `v` with its values in buffers of their own size: fixed-width data and array columns' elements,
 * offsets and shapes are copied when they are views on larger buffers; anything else (text and
 * binary rows are already their own lists, constants, right-sized arrays) is returned as it is.
 */
export function compactVector(v: Vector): Vector {
  if (v.isConst || v.data === null || Array.isArray(v.data)) return v
  if (v.kind === 'arr') return compactArr(v)
  const data = v.data as Fixed
  return oversized(data) ? { ...v, data: copyOf(data) } as Vector : v
}

/** An array vector's rows with their elements rebased to start at 0, in right-sized buffers. */
function compactArr(v: ArrVector): ArrVector {
  const first = v.offsets[0] ?? 0
  const last = v.offsets[v.length] ?? first
  if (first === 0 && last === v.data.length && !oversized(v.data) && !oversized(v.offsets) && !oversized(v.shapes)) return v
  const offsets = copyOf(v.offsets)
  if (first !== 0) for (let i = 0; i < offsets.length; i++) offsets[i] = offsets[i]! - first
  return { ...v, data: copyOf(v.data.subarray(first, last)), offsets, shapes: copyOf(v.shapes) }
}

/** Bytes the buffers behind `v` keep alive, each distinct buffer counted whole (diagnostics and tests). */
export function retainedBytes(vectors: Iterable<Vector>): number {
  const seen = new Set<ArrayBufferLike>()
  let n = 0
  const add = (a: Fixed): void => { if (!seen.has(a.buffer)) { seen.add(a.buffer); n += a.buffer.byteLength } }
  for (const v of vectors) {
    if (v.isConst || v.data === null || Array.isArray(v.data)) continue
    if (v.kind === 'arr') { add(v.data); add(v.offsets); add(v.shapes) } else add(v.data as Fixed)
  }
  return n
}
