/**
 * The engine's helpers for the adapters that ship with it (REST, pgwire, ILP, OIDC, console):
 * value encoders, wire type tables, statement facts and connection limits. **Not API**: no
 * `package.json` export names this file, so users cannot import it (`import 'epochdb/internal'`
 * fails); the shipped adapters reach it by their relative path inside the package, and it
 * changes whenever they need it to. Users import `epochdb` (lib/index.ts).
 *
 * Adapters import the engine only through `lib/index.ts` and this file
 * (test/unit/import-rules.test.ts); nothing here is exported from `lib/index.ts`
 * (test/unit/public-surface.test.ts).
 * @internal
 * @packageDocumentation
 */
/** Reads one value of a column vector in scalar form (adapters encode results with it). */
export { getScalar } from './types/vector.js'
/** Whether a statement changes data or the catalog (what the adapters' read-only modes refuse). */
export { isWriteStatement } from './sql/statement-writes.js'
/** The `$n` parameters that are the whole list of an IN (`x IN ($n)`, which drivers may bind to an array). */
export { inListParams } from './sql/param-facts.js'
export { aclReturnsRows } from './sql/ast-acl.js'
export type { AclStatement } from './sql/ast-acl.js'
export { parseStatementTimeout } from './exec/statement-timeout.js'
/** QuestDB's text forms of values (timestamps, Java-style doubles, any value), for adapters' encoders. */
export { formatTimestamp, formatDate } from './types/timestamp.js'
export { formatTimestampNs, formatNsParts, parseTimestampNs, splitNs, nsParts, type NsSplit } from './types/timestamp-ns.js'
export { formatDouble, formatFloat } from './types/number-format.js'
export { formatValue } from './types/value-format.js'
/** Value text written straight into reused byte buffers (the adapters' result encoders). */
export { ByteWriter } from './types/byte-writer.js'
export { SymbolCells, TimestampText, writeDouble, writeFloat64BE, writeInt, writeInt64BE } from './types/write-values.js'
/** DOUBLE arrays' text forms (QuestDB's `[1.0]`, PostgreSQL's `{1.0}`) and type tags. */
export { formatArray, formatPgArray, parseArrayText, arrayFromNested, arrayToNested } from './types/array.js'
export { ARRAY_MAX_DIMS, arrayDims, arrayType, isArrayType } from './types/array-type.js'
/** DECIMAL(p,s) helpers for adapters: the tag's precision/scale, exact text, unscaled values. */
export { isDecimal, decimalPrecision, decimalScale, formatDecimal, unscaledOf, parseUnscaled, decimalScalar, fitsPrecision, plainDecimal } from './types/decimal.js'
export { isGeohash, geohashBits, formatGeohash, geohashFromText, type GeohashType } from './types/geohash.js'
/** Prints an IPv4 address (unsigned or int32 bits) as dotted-quad text (REST JSON/CSV encoders). */
export { formatIpv4 } from './types/ipv4.js'
/** PostgreSQL's names of its built-in types by OID, as `format_type()` prints them (pgwire's catalog emulation). */
export { PG_SCALAR_TYPES, PG_ARRAY_TYPES, pgType, type PgBuiltinType } from './types/pg-types.js'
/** Open connections per client address (the adapters' per-address connection limits). */
export { AddressSlots } from './security/address-slots.js'
export { addressKey } from './security/login-throttle.js'
/** Parquet export for the REST adapter's `/exp?fmt=parquet` (library callers use `db.exportParquet`). */
export { writeParquet } from './parquet/export.js'
export { parseCodec as parseParquetCodec } from './parquet/writer.js'
export type { ByteSink } from './parquet/writer.js'
export { parseParquetOptions } from './parquet/options.js'
export type { RawOption as ParquetRawOption } from './parquet/options.js'
