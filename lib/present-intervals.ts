/**
 * Result batches with their INTERVAL columns as QuestDB prints them: the engine holds an
 * interval's bounds to the digit (types/interval-value.ts) and prints them to the millisecond,
 * here, once, where rows leave `Database.execute` for every adapter and `db.query()`.
 */
import { type ColumnType, isInterval } from './types/column-type.js'
import { printInterval } from './types/interval-value.js'
import type { Batch, Vector } from './types/vector.js'

/** `batches` with each INTERVAL / INTERVAL_NS column of `types` printed; `batches` itself when there is none. */
export function presentIntervals(batches: AsyncIterable<Batch>, types: readonly ColumnType[]): AsyncIterable<Batch> {
  if (!types.some(isInterval)) return batches
  return {
    async *[Symbol.asyncIterator]() {
      for await (const b of batches) {
        yield { length: b.length, vectors: b.vectors.map((v) => (isInterval(v.type) && v.kind === 'str' ? printed(v) : v)) }
      }
    },
  }
}

function printed(v: Extract<Vector, { kind: 'str' }>): Vector {
  return { ...v, data: v.data.map((s) => (s === null ? null : printInterval(s))) }
}
