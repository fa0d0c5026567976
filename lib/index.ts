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
/** Whether a statement changes data or the catalog (what the adapters' read-only modes refuse). */
export { isWriteStatement } from './sql/statement-writes.js'
/** The `$n` parameters that are the whole list of an IN (`x IN ($n)`, which drivers may bind to an array). */
export { inListParams } from './sql/param-facts.js'
export { aclReturnsRows } from './sql/ast-acl.js'
export type { AclStatement } from './sql/ast-acl.js'
export type { JsValue } from './types/js-value.js'
export type { CancelSignal } from './exec/context.js'
/** The default server-wide query memory budget from QuestDB's `ram.usage.limit.*` keys (the standalone server's). */
export { resolveTotalQueryMemory } from './exec/memory-defaults.js'
export { formatBytes } from './exec/memory.js'
export { parseStatementTimeout } from './exec/statement-timeout.js'
/** Reads one value of a column vector in scalar form (adapters encode results with it). */
export { getScalar } from './types/vector.js'
/** QuestDB's text forms of values (timestamps, Java-style doubles, any value), for adapters' encoders. */
export { formatTimestamp, formatDate } from './types/timestamp.js'
export { formatTimestampNs, formatNsParts, parseTimestampNs, splitNs, nsParts, type NsSplit } from './types/timestamp-ns.js'
export { formatDouble, formatFloat } from './types/number-format.js'
export { formatValue } from './types/value-format.js'
/** Value text written straight into reused byte buffers (the adapters' result encoders). */
export { ByteWriter } from './types/byte-writer.js'
export { SymbolCells, TimestampText, writeDouble, writeFloat64BE, writeInt, writeInt64BE } from './types/write-values.js'
/** DOUBLE arrays: the value class, their text forms (QuestDB's `[1.0]`, PostgreSQL's `{1.0}`), type tags. */
export { DoubleArray, formatArray, formatPgArray, parseArrayText, arrayFromNested, arrayToNested } from './types/array.js'
export { ARRAY_MAX_DIMS, arrayDims, arrayType, isArrayType, type ArrayType } from './types/array-type.js'
export type { ArrVector } from './types/array-vector.js'
export type { JsArray } from './types/js-value.js'
/** DECIMAL(p,s) helpers for adapters: the tag's precision/scale, exact text, unscaled values. */
export { isDecimal, decimalPrecision, decimalScale, formatDecimal, unscaledOf, parseUnscaled, decimalScalar, fitsPrecision, type DecimalType } from './types/decimal.js'
/** Prints an IPv4 address (unsigned or int32 bits) as dotted-quad text (REST JSON/CSV encoders). */
export { formatIpv4 } from './types/ipv4.js'
/** PostgreSQL's names of its built-in types by OID, as `format_type()` prints them (pgwire's catalog emulation). */
export { PG_SCALAR_TYPES, PG_ARRAY_TYPES, pgType, type PgBuiltinType } from './types/pg-types.js'
/** Failed-login limits per client address and per user, shared by the adapters' logins. */
export { LoginThrottle, addressKey } from './security/login-throttle.js'
export { AddressSlots } from './security/address-slots.js'
export type { LoginThrottleOptions, LoginAttempt, LoginRefusal, LockoutEvent } from './security/login-throttle.js'
export { IdentityCaches } from './security/identity-caches.js'
export type { IdentityFlusher } from './security/identity-caches.js'
/** InfluxDB Line Protocol ingestion ({@link Database.lineWriter}) and its errors, for the ILP adapters. */
export { LineWriter } from './ilp/line-writer.js'
export type { LineWriterOptions, LinePartitionBy } from './ilp/line-writer.js'
export { IlpError } from './ilp/ilp-error.js'
export type { IlpErrorCode } from './ilp/ilp-error.js'
export type { TimeUnit } from './ilp/number-bytes.js'

// Parquet: the REST adapter's /exp?fmt=parquet and library callers (docs/parquet.md)
export { writeParquet } from './parquet/export.js'
export type { ParquetExportResult } from './parquet/export.js'
export { CODECS as PARQUET_CODECS, parseCodec as parseParquetCodec } from './parquet/writer.js'
export type { ParquetWriteOptions, ParquetCodec, ByteSink } from './parquet/writer.js'
export { parseParquetOptions } from './parquet/options.js'
export type { RawOption as ParquetRawOption } from './parquet/options.js'
