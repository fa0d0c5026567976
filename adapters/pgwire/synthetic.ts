/**
 * Builds engine-shaped {@link Execution}s from rows the adapter computes itself (catalog
 * emulation), so they flow through the same RowDescription / DataRow path as engine results.
 */
import type { ColumnType, Execution, Vector } from '../../lib/index.js'

/** A synthetic result column: STRING, INT, LONG or BOOLEAN. */
export interface SyntheticColumn {
  readonly name: string
  readonly type: 'STRING' | 'INT' | 'LONG' | 'BOOLEAN'
}

/** A synthetic cell value. */
export type SyntheticValue = string | number | boolean | null

function vector(type: SyntheticColumn['type'], values: readonly SyntheticValue[]): Vector {
  const length = values.length
  switch (type) {
    case 'STRING': return { kind: 'str', type, length, data: values.map((v) => (v === null ? null : String(v))) }
    case 'INT': return { kind: 'i32', type, length, data: Int32Array.from(values, (v) => (v === null ? -2147483648 : Number(v))) }
    case 'LONG': return { kind: 'i64', type, length, data: Float64Array.from(values, (v) => (v === null ? -9223372036854775808 : Number(v))) }
    case 'BOOLEAN': return { kind: 'bool', type, length, data: Uint8Array.from(values, (v) => (v === true ? 1 : 0)) }
  }
}

/** An execution yielding `rows` (row-major) as one batch. */
export function resultExecution(columns: readonly SyntheticColumn[], rows: readonly (readonly SyntheticValue[])[], command = 'select'): Execution {
  const vectors = columns.map((c, k) => vector(c.type, rows.map((r) => r[k] ?? null)))
  const batch = { length: rows.length, vectors }
  return {
    columns: columns.map((c) => ({ name: c.name, type: c.type })),
    types: columns.map((c) => c.type as ColumnType),
    timestampIndex: -1, command, affected: columns.length === 0 ? 0 : -1,
    batches: { [Symbol.asyncIterator]: async function* () { if (rows.length > 0) yield batch } },
  }
}
