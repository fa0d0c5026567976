/**
 * What running a statement gives back: the whole result ({@link QueryResult}), a streamed batch
 * ({@link ResultBatch}), an execution whose schema is known before its first row
 * ({@link Execution}), and the options of one call ({@link ExecOptions}).
 */
import type { ColumnType } from './types/column-type.js'
import { typeName } from './types/column-type.js'
import { type Batch, type Vector, getScalar } from './types/vector.js'
import { type JsValue, toJsValue } from './types/js-value.js'
import type { OutputColumn } from './plan/plan-node.js'
import type { Rows } from './exec/statements/meta.js'
import type { CancelSignal } from './exec/context.js'
import type { Session } from './session.js'
import type { ColumnInfo } from './statement-info.js'
// for TSDoc links only
import type { Database, DatabaseOptions } from './database.js'

/** What a statement returned, all at once. */
export interface QueryResult {
  readonly columns: readonly ColumnInfo[]
  /**
   * The rows, as JS values: BOOLEAN boolean; BYTE/SHORT/INT/FLOAT/DOUBLE number; LONG bigint;
   * TIMESTAMP bigint microseconds since the epoch (lossless, unlike `Date`); DATE `Date`;
   * CHAR/STRING/VARCHAR/SYMBOL/UUID/LONG256 string; IPv4 dotted string; BINARY Uint8Array; null.
   */
  readonly rows: JsValue[][]
  /** rows returned, or rows affected for INSERT/UPDATE */
  readonly rowCount: number
  /** index of the designated timestamp column in `columns`, or -1 */
  readonly timestampIndex: number
  /** what ran: 'select' for queries, otherwise the statement kind ('insert', 'update', 'create_table', ...) */
  readonly command: string
}

/** One batch of a streamed result. Vectors are column-major; `row(i)` converts one row to JS values. */
export interface ResultBatch {
  readonly columns: readonly ColumnInfo[]
  readonly length: number
  /** the column vectors (engine representation; see `Vector`) */
  readonly vectors: readonly Vector[]
  /** row `i` as JS values */
  row(i: number): JsValue[]
}

/** A statement being executed: its schema is known before the first row. */
export interface Execution {
  readonly columns: readonly ColumnInfo[]
  /** engine types of the columns */
  readonly types: readonly ColumnType[]
  readonly timestampIndex: number
  readonly command: string
  /** rows affected (DML) or -1 for queries until streamed */
  readonly affected: number
  /** the result batches (empty for statements without rows) */
  readonly batches: AsyncIterable<Batch>
}

/** Options for one call. */
export interface ExecOptions {
  /** the session to run in (defaults to the database's admin session) */
  readonly session?: Session
  /** cancels the statement when `cancelled` becomes true */
  readonly signal?: CancelSignal
  /**
   * Milliseconds after which the statement is ended with 57014; 0: no timeout. Defaults to
   * {@link DatabaseOptions.queryTimeout}.
   */
  readonly timeout?: number
  /**
   * When the statement arrived (`Date.now()` ms): its timeout counts from then, so the time
   * {@link Database.parseAsync} took is included. Default: when execution starts.
   */
  readonly receivedAt?: number
  /**
   * Return from a write before it is durable: the caller promises to await {@link Database.sync}
   * before it acknowledges the write to anyone (pgwire does, once per pipelined batch, so a batch
   * of INSERTs shares one WAL sync). Without it, every write statement waits for its own
   * group commit.
   */
  readonly deferSync?: boolean
  /**
   * Engine types the caller declares for `$n` parameters (index 0 for `$1`), such as a driver's
   * parameter type OIDs: the value is converted to that type and the parameter has it wherever
   * it is used. A parameter without an entry takes its type from its JS value, or from its use
   * when the value is a string.
   */
  readonly paramTypes?: readonly (ColumnType | undefined)[]
}

/** No batches: the result of a statement without rows. */
export const EMPTY: AsyncIterable<Batch> = { [Symbol.asyncIterator]: async function* () {} }

/** The column names and QuestDB type names of plan output columns. */
export function infoOf(output: readonly OutputColumn[]): ColumnInfo[] {
  return output.map((c) => ({ name: c.name, type: typeName(c.type) }))
}

/** The execution of a statement that returns no rows. */
export function done(command: string, affected = 0): Execution {
  return { columns: [], types: [], timestampIndex: -1, command, affected, batches: EMPTY }
}

/** The execution of a statement answered with one ready batch (SHOW, EXPLAIN). */
export function rowsExecution(r: Rows): Execution {
  const b = r.batch
  return {
    columns: infoOf(r.output), types: r.output.map((c) => c.type), timestampIndex: -1, command: 'select', affected: -1,
    batches: { [Symbol.asyncIterator]: async function* () { if (b.length > 0) yield b } },
  }
}

/** One batch of `ex` as the public {@link ResultBatch}. */
export function resultBatch(ex: Execution, b: Batch): ResultBatch {
  return {
    columns: ex.columns, length: b.length, vectors: b.vectors,
    row: (i) => b.vectors.map((v, k) => toJsValue(ex.types[k]!, getScalar(v, i))),
  }
}
