/**
 * EpochDB: an embeddable time-series SQL database that speaks QuestDB's dialect.
 *
 * @example
 * ```ts
 * import { Database } from 'epochdb'
 * const db = await Database.open()
 * await db.query('create table t (ts timestamp, v double) timestamp(ts) partition by day')
 * ```
 * @packageDocumentation
 */
export { Database, PreparedStatement, VERSION } from './database.js'
export type { DatabaseOptions, QueryResult, ResultBatch, ColumnInfo, Execution, ExecOptions } from './database.js'
export { Session, ADMIN } from './session.js'
export type { Principal } from './session.js'
export { SqlError, SqlState } from './errors.js'
export type { SqlStateCode, SqlErrorOptions } from './errors.js'
export { ColumnType, typeName } from './types/column-type.js'
export type {
  Vector, Batch, Scalar, SymbolTable, BoolVector, I8Vector, I16Vector, U16Vector, I32Vector, I64Vector, F32Vector, F64Vector,
  SymVector, StrVector, BinVector, NullVector,
} from './types/vector.js'
export type { Statement } from './sql/ast.js'
export type { JsValue } from './types/js-value.js'
export type { CancelSignal } from './exec/context.js'
export { parseStatementTimeout } from './exec/statement-timeout.js'
/** Reads one value of a column vector in scalar form (adapters encode results with it). */
export { getScalar } from './types/vector.js'
/** QuestDB's text forms of values (timestamps, Java-style doubles, any value), for adapters' encoders. */
export { formatTimestamp, formatDate } from './types/timestamp.js'
export { formatDouble, formatFloat } from './types/number-format.js'
export { formatValue } from './types/value-format.js'
/** Prints an IPv4 address (unsigned or int32 bits) as dotted-quad text (REST JSON/CSV encoders). */
export { formatIpv4 } from './types/ipv4.js'
/** PostgreSQL's names of its built-in types by OID, as `format_type()` prints them (pgwire's catalog emulation). */
export { PG_FORMAT_TYPE_NAMES } from './functions/scalar/pg-catalog.js'
