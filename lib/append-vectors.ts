/**
 * `Database.append`'s conversion of user data given column by column into column vectors: typed
 * arrays of the column's own type are taken as they are, symbols interned once per distinct
 * value, anything else converted value by value.
 */
import { SqlError, SqlState } from './errors.js'
import type { ColumnType } from './types/column-type.js'
import { type Scalar, type SymbolTable, type Vector, VectorWriter, allocate, getScalar, vectorOf } from './types/vector.js'
import { fromJsValue } from './types/js-value.js'
import type { ColumnMeta, Table } from './storage/table.js'

/**
 * The vectors of one append to `t`, in the table's column order: columns are matched by name
 * (case-insensitively), missing ones are nulls. Throws 42703 for an unknown column, 22023 for
 * columns of different lengths, 23502 for a null designated timestamp, 22008 for one before 1970.
 */
export function appendVectors(t: Table, columns: Readonly<Record<string, ArrayLike<unknown>>>): { vectors: Vector[]; length: number } {
  const steps = appendVectorSteps(t, columns)
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}

/** Rows from which {@link appendVectorsInTurns} converts a column per turn of the event loop. */
const LARGE = 1 << 16

/**
 * {@link appendVectors} for `Database.append`: a large append (from {@link LARGE} rows) is
 * converted a column per turn of the event loop, so converting it does not hold the loop for
 * every column at once; converted again at once if the table's columns changed meanwhile.
 */
export async function appendVectorsInTurns(t: Table, columns: Readonly<Record<string, ArrayLike<unknown>>>): Promise<{ vectors: Vector[]; length: number }> {
  const meta = t.meta
  const steps = appendVectorSteps(t, columns)
  for (;;) {
    const r = steps.next()
    if (r.done === true) return t.meta === meta ? r.value : appendVectors(t, columns)
    if (r.value >= LARGE) await new Promise<void>((resolve) => setImmediate(resolve))
  }
}

/** {@link appendVectors} in steps: yields the row count after each column converted. */
function* appendVectorSteps(t: Table, columns: Readonly<Record<string, ArrayLike<unknown>>>): Generator<number, { vectors: Vector[]; length: number }, void> {
  const names = Object.keys(columns)
  for (const n of names) if (!t.meta.columns.some((c) => c.name.toLowerCase() === n.toLowerCase())) throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${n}`)
  const length = names.length === 0 ? 0 : columns[names[0]!]!.length
  const vectors: Vector[] = []
  for (const [i, c] of t.meta.columns.entries()) {
    const key = names.find((n) => n.toLowerCase() === c.name.toLowerCase())
    if (key === undefined) { vectors.push(allocate(c.type, length, t.dictOf(i))); continue }
    const src = columns[key]!
    if (src.length !== length) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `column ${key} has ${src.length} values, expected ${length}`)
    vectors.push(appendVector(c, src, length, t.dictOf(i)))
    yield length
  }
  if (t.meta.timestampIndex >= 0) {
    const ts = vectors[t.meta.timestampIndex]!
    for (let i = 0; i < length; i++) {
      const x = getScalar(ts, i)
      if (x === null) throw new SqlError(SqlState.NOT_NULL_VIOLATION, 'designated timestamp column cannot be NULL')
      // as INSERT (exec/statements/dml.ts) and QuestDB's writer: nothing before the Unix epoch
      if ((x as number | bigint) < 0) throw new SqlError(SqlState.DATETIME_FIELD_OVERFLOW, `designated timestamp before 1970-01-01 is not allowed (row ${i})`)
    }
  }
  return { vectors, length }
}

/** Builds a vector for {@link Database.append} from user data. */
function appendVector(c: ColumnMeta, src: ArrayLike<unknown>, length: number, dict: SymbolTable | undefined): Vector {
  if ((c.type === 'DOUBLE' && src instanceof Float64Array) || (c.type === 'FLOAT' && src instanceof Float32Array) || (c.type === 'INT' && src instanceof Int32Array)) {
    return vectorOf(c.type, src, length)
  }
  if ((c.type === 'TIMESTAMP' || c.type === 'LONG' || c.type === 'DATE') && src instanceof Float64Array) {
    for (let i = 0; i < length; i++) if (!Number.isSafeInteger(src[i]!)) return convertEach(c.type, src, length, dict)
    return vectorOf(c.type, src, length)
  }
  if (c.type === 'SYMBOL' && dict !== undefined && Array.isArray(src)) {
    const keys = new Int32Array(length)
    const cache = new Map<string, number>()
    for (let i = 0; i < length; i++) {
      const s = src[i] as string | null | undefined
      if (s === null || s === undefined) { keys[i] = -1; continue }
      let k = cache.get(s)
      if (k === undefined) { k = dict.intern(String(s)); cache.set(s, k) }
      keys[i] = k
    }
    return vectorOf('SYMBOL', keys, length, dict)
  }
  return convertEach(c.type, src, length, dict)
}

function convertEach(type: ColumnType, src: ArrayLike<unknown>, length: number, dict: SymbolTable | undefined): Vector {
  const w = new VectorWriter(type, length, dict)
  for (let i = 0; i < length; i++) {
    const x = src[i]
    w.set(i, (type === 'TIMESTAMP' || type === 'LONG' || type === 'DATE') && typeof x === 'number' ? x : fromJsValue(type, x) as Scalar)
  }
  return w.finish()
}
