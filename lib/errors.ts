/**
 * The one error type of the engine. Every failure that reaches a user is a {@link SqlError}:
 * it carries a real SQLSTATE (never `00000`), the 0-based character offset of the offending
 * token in the statement text (or -1 when no single token is at fault), and a message.
 *
 * This module imports nothing from `node:*`; the parser uses it in the browser too.
 */

/** SQLSTATE codes used by the engine. Adapters pass them through unchanged. */
export const SqlState = {
  /** the statement cannot run inside the open transaction */
  ACTIVE_SQL_TRANSACTION: '25001',
  /** generic syntax error */
  SYNTAX_ERROR: '42601',
  /** table (relation) does not exist */
  UNDEFINED_TABLE: '42P01',
  /** a named object (e.g. a type) does not exist */
  UNDEFINED_OBJECT: '42704',
  /** column does not exist */
  UNDEFINED_COLUMN: '42703',
  /** function does not exist (or no overload matches the argument types) */
  UNDEFINED_FUNCTION: '42883',
  /** a name is ambiguous (two tables in scope have the column) */
  AMBIGUOUS_COLUMN: '42702',
  /** table already exists */
  DUPLICATE_TABLE: '42P07',
  /** a table or column name with forbidden characters (QuestDB's rules) */
  INVALID_NAME: '42602',
  /** a table or column name longer than the limit */
  NAME_TOO_LONG: '42622',
  /** column already exists, or a name is used twice */
  DUPLICATE_COLUMN: '42701',
  /** a user, group, service account or external alias that already exists */
  DUPLICATE_OBJECT: '42710',
  /** two FROM items of one query with the same table name or alias */
  DUPLICATE_ALIAS: '42712',
  /** value type does not fit where it is used */
  DATATYPE_MISMATCH: '42804',
  /** semantic error in a statement that parsed (e.g. aggregate in WHERE) */
  GROUPING_ERROR: '42803',
  /** an object is used in a way its definition forbids */
  INVALID_OBJECT_DEFINITION: '42P17',
  /** invalid text representation of a value */
  INVALID_TEXT_REPRESENTATION: '22P02',
  /** numeric value out of range */
  NUMERIC_VALUE_OUT_OF_RANGE: '22003',
  /** bad datetime format */
  INVALID_DATETIME_FORMAT: '22007',
  /** a datetime out of the allowed range (a designated timestamp before 1970-01-01) */
  DATETIME_FIELD_OVERFLOW: '22008',
  /** division by zero (only where QuestDB raises it; arithmetic normally yields null) */
  DIVISION_BY_ZERO: '22012',
  /** invalid parameter value (e.g. a negative LIMIT where it is not allowed) */
  INVALID_PARAMETER_VALUE: '22023',
  /** a NOT NULL constraint, e.g. the designated timestamp */
  NOT_NULL_VIOLATION: '23502',
  /** feature not supported */
  FEATURE_NOT_SUPPORTED: '0A000',
  /** wrong password or unknown user */
  INVALID_PASSWORD: '28P01',
  /** permission denied */
  INSUFFICIENT_PRIVILEGE: '42501',
  /** the query was cancelled */
  QUERY_CANCELED: '57014',
  /** a resource limit was hit */
  PROGRAM_LIMIT_EXCEEDED: '54000',
  /** a statement's list is too long or its expressions nest too deeply */
  STATEMENT_TOO_COMPLEX: '54001',
  /** a statement needed more memory than its budget (per query or server-wide) allows */
  OUT_OF_MEMORY: '53200',
  /** a table's schema changed between planning a statement and reading the table: run it again */
  SERIALIZATION_FAILURE: '40001',
  /** an object is in use (locked directory, busy table) */
  OBJECT_IN_USE: '55006',
  /** the database was closed */
  ADMIN_SHUTDOWN: '57P01',
  /** storage I/O failed */
  IO_ERROR: '58030',
  /** a file the statement names does not exist (read_parquet of a missing file) */
  UNDEFINED_FILE: '58P01',
  /** a file the statement reads is not of the expected format, or is damaged (PostgreSQL's bad_copy_file_format; a user's Parquet file) */
  BAD_COPY_FILE_FORMAT: '22P04',
  /** a named object is of the wrong kind (a directory where a file is expected) */
  WRONG_OBJECT_TYPE: '42809',
  /** the server lacks a resource (file descriptors) to run the statement now */
  INSUFFICIENT_RESOURCES: '53000',
  /** a storage write failed because the disk (or quota) is full */
  DISK_FULL: '53100',
  /** corrupted data on disk */
  DATA_CORRUPTED: 'XX001',
  /** a bug: an invariant of the engine did not hold */
  INTERNAL_ERROR: 'XX000',
} as const

/** One of the SQLSTATE codes in {@link SqlState}. */
export type SqlStateCode = (typeof SqlState)[keyof typeof SqlState]

/** Optional extras of a {@link SqlError}, as PostgreSQL's ErrorResponse fields. */
export interface SqlErrorOptions {
  /** longer explanation (pgwire field `D`) */
  readonly detail?: string
  /** what the user could do instead (pgwire field `H`) */
  readonly hint?: string
  /** the error that caused this one */
  readonly cause?: unknown
}

/**
 * An error with a SQLSTATE code and a position in the statement text.
 *
 * @example
 * ```ts
 * try { await db.query('selec 1') } catch (e) {
 *   if (e instanceof SqlError) console.log(e.code, e.position, e.message)
 * }
 * ```
 */
export class SqlError extends Error {
  /** the SQLSTATE, e.g. `42601` */
  readonly code: SqlStateCode
  /** 0-based offset of the offending token in the SQL text, or -1 */
  readonly position: number
  readonly detail: string | undefined
  readonly hint: string | undefined

  constructor(code: SqlStateCode, message: string, position = -1, options: SqlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'SqlError'
    this.code = code
    this.position = position
    this.detail = options.detail
    this.hint = options.hint
  }

  /** The same error, moved by `offset` characters (used when a statement is part of a longer script). */
  shifted(offset: number): SqlError {
    if (this.position < 0 || offset === 0) return this
    return new SqlError(this.code, this.message, this.position + offset, { detail: this.detail, hint: this.hint, cause: this.cause })
  }
}

/** Shorthand for a syntax error (42601) at `position`. */
export function syntaxError(message: string, position: number): SqlError {
  return new SqlError(SqlState.SYNTAX_ERROR, message, position)
}

/** Shorthand for "feature not supported" (0A000). */
export function notSupported(message: string, position = -1, hint?: string): SqlError {
  return new SqlError(SqlState.FEATURE_NOT_SUPPORTED, message, position, hint === undefined ? {} : { hint })
}

/** Shorthand for an internal invariant violation (XX000); a bug in the engine. */
export function internalError(message: string): SqlError {
  return new SqlError(SqlState.INTERNAL_ERROR, `internal error: ${message}`)
}
