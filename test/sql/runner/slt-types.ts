/**
 * The shapes shared by the sqllogictest runner: parsed records, the database it drives and the
 * outcome of running a file. See test/README.md for the file format.
 */

/** How result rows are ordered before they are compared. */
export type SortMode = 'nosort' | 'rowsort' | 'valuesort'

/** A condition on the next record: `skipif <engine>` / `onlyif <engine>`. */
export interface Condition {
  readonly kind: 'skipif' | 'onlyif'
  readonly engine: string
}

/** Fields every record has. */
interface RecordBase {
  /** 1-based line of the record's first line (the `statement` / `query` line) */
  readonly line: number
  /** conditions written on the lines just before the record */
  readonly conditions: readonly Condition[]
}

/** `statement ok`: the SQL must succeed. */
export interface StatementOk extends RecordBase {
  readonly kind: 'statement-ok'
  readonly sql: string
}

/** What a failing statement must report. Both parts are optional. */
export interface ExpectedError {
  /** SQLSTATE the error must carry, e.g. `42P01` */
  readonly code?: string
  /** a substring of the error message */
  readonly message?: string
}

/** `statement error [code] [message]` or `query error ...`: the SQL must fail with a SqlError. */
export interface StatementError extends RecordBase {
  readonly kind: 'statement-error'
  readonly sql: string
  readonly expected: ExpectedError
}

/** `query <types> [sort] [label]`, SQL, `----`, expected rows. */
export interface Query extends RecordBase {
  readonly kind: 'query'
  readonly sql: string
  /** one letter per column: I integer, R real, T anything else */
  readonly types: string
  /** the sort mode written in the header, or undefined when none was written */
  readonly sort: SortMode | undefined
  readonly label: string | undefined
  /** header option `colnames`: the first expected row is the column names */
  readonly colnames: boolean
  /** expected rows, one text line each */
  readonly expected: readonly string[]
  /** 0-based line index of the first expected row (the line after `----`) */
  readonly expectedStart: number
  /** number of lines the expected rows occupy (used when rewriting a file) */
  readonly expectedLength: number
  /** whether the header had a `----` separator at all */
  readonly hasSeparator: boolean
}

/** `halt`: stop running the file here. */
export interface Halt extends RecordBase {
  readonly kind: 'halt'
}

/** `control <name> <value>` (QuestDB's files use `control iso_timestamp on`). */
export interface Control extends RecordBase {
  readonly kind: 'control'
  readonly name: string
  readonly value: string
}

/** `require <feature>`: the rest of the file needs a feature the engine may lack. */
export interface Require extends RecordBase {
  readonly kind: 'require'
  readonly feature: string
}

/** A directive the runner does not know; reported as a failure so that it is not silently lost. */
export interface Unknown extends RecordBase {
  readonly kind: 'unknown'
  readonly text: string
}

/** One record of a `.test` file. */
export type SltRecord = StatementOk | StatementError | Query | Halt | Control | Require | Unknown

/** A column of a result as the engine reports it. */
export interface ResultColumn {
  readonly name: string
  readonly type: string
}

/** The result of one statement, as `Database.query` returns it. */
export interface QueryResult {
  readonly columns: readonly ResultColumn[]
  readonly rows: readonly (readonly unknown[])[]
  readonly rowCount: number
}

/** The part of `Database` that the runner uses; tests of the runner pass a fake. */
export interface SltDatabase {
  query(sql: string, params?: unknown[]): Promise<QueryResult>
  close(): Promise<void>
  /** a `control <name> <value>` record (see acl-database.ts); ignored when absent */
  control?(name: string, value: string): Promise<void>
}

/**
 * Which dialect of the format a file is written in.
 * - `epochdb`: our own files. Values in QuestDB's text forms (ISO timestamps, Java doubles),
 *   reals compared with a relative tolerance of 1e-9, the ORDER BY rule enforced.
 * - `questdb`: QuestDB's own files, written against its PostgreSQL wire protocol. Reals print
 *   with 6 decimals, timestamps as `YYYY-MM-DD HH:MM:SS[.ffffff]` unless
 *   `control iso_timestamp on`, errors as `db error: ERROR: <msg>`; no ORDER BY rule.
 */
export type Flavor = 'epochdb' | 'questdb'

/** The outcome of one record. */
export interface RecordOutcome {
  readonly line: number
  readonly kind: SltRecord['kind']
  readonly status: 'pass' | 'fail' | 'skip'
  /** `file:line: ...` with expected vs actual, for failures */
  readonly message?: string
  /** the actual result lines of a query (used to rewrite expected output) */
  readonly actual?: readonly string[]
}

/** The outcome of one file. */
export interface FileOutcome {
  readonly file: string
  readonly outcomes: readonly RecordOutcome[]
  readonly passed: number
  readonly failed: number
  readonly skipped: number
}
