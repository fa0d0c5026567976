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
 * @module epochdb
 */
export { Database, PreparedStatement, VERSION } from './database.js'
export type { DatabaseOptions, CloseOptions, QueryResult, ResultBatch, ColumnInfo, Execution, ExecOptions } from './database.js'
export { Session, ADMIN } from './session.js'
export type { Principal } from './session.js'
export type { StatementInfo, RequiredPermission } from './statement-info.js'
export type { AclOptions, Endpoint, PasswordVerifier } from './security/acl/access-control.js'
export { newJwkChallenge, verifyJwkSignature, CHALLENGE_LENGTH } from './security/acl/jwk.js'
export type { StoredJwk } from './security/acl/jwk.js'
export { SqlError, SqlState } from './errors.js'
export type { SqlStateCode, SqlErrorOptions } from './errors.js'
export { ColumnType, typeName } from './types/column-type.js'
export type {
  Vector, Batch, Scalar, SymbolTable, BoolVector, I8Vector, I16Vector, U16Vector, I32Vector, I64Vector, F32Vector, F64Vector,
  SymVector, StrVector, BinVector, NullVector,
} from './types/vector.js'
export type { Statement } from './sql/ast.js'
export { DEFAULT_PARSE_LIMITS } from './sql/limits.js'
export type { ParseLimits } from './sql/limits.js'
export type { JsValue, JsArray } from './types/js-value.js'
export type { CancelSignal } from './exec/context.js'
/** The default server-wide query memory budget from QuestDB's `ram.usage.limit.*` keys (the standalone server's). */
export { resolveTotalQueryMemory } from './exec/memory-defaults.js'
/** A byte count as the engine's memory messages print it (`512.0 MiB`). */
export { formatBytes } from './exec/memory.js'
/** DOUBLE arrays: the value class rows carry, and the column type tags. */
export { DoubleArray } from './types/array.js'
export type { ArrayType } from './types/array-type.js'
export type { ArrVector } from './types/array-vector.js'
export type { DecimalType } from './types/decimal.js'
/** Failed-login limits per client address and per user, which a host shares between the adapters' logins. */
export { LoginThrottle } from './security/login-throttle.js'
export type { LoginThrottleOptions, LoginAttempt, LoginRefusal, LockoutEvent } from './security/login-throttle.js'
export { IdentityCaches } from './security/identity-caches.js'
export type { IdentityFlusher } from './security/identity-caches.js'
/** InfluxDB Line Protocol ingestion ({@link Database.lineWriter}) and its errors. */
export { LineWriter } from './ilp/line-writer.js'
export type { LineWriterOptions, LinePartitionBy } from './ilp/line-writer.js'
export { IlpError } from './ilp/ilp-error.js'
export type { IlpErrorCode } from './ilp/ilp-error.js'
export type { TimeUnit } from './ilp/number-bytes.js'
/** Parquet export's options and result ({@link Database.exportParquet}, docs/parquet.md). */
export type { ParquetExportResult } from './parquet/export.js'
export { CODECS as PARQUET_CODECS } from './parquet/writer.js'
export type { ParquetWriteOptions, ParquetCodec } from './parquet/writer.js'
