/**
 * The AST of Parquet statements: `COPY t | (query) TO 'dest' WITH FORMAT PARQUET [option value ...]`
 * and the `CONVERT PARTITION TO PARQUET | NATIVE` action of ALTER TABLE (QuestDB 9).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Expr, Query } from './ast.js'

/** One `OPTION value` pair of COPY ... TO (name lower-cased, value as written, strings unquoted). */
export interface CopyOption {
  readonly name: string
  readonly value: string
  readonly pos: number
  readonly valuePos: number
}

/** COPY ... TO: exports a table or a query's result to a Parquet file under the export root. */
export interface CopyTo {
  readonly kind: 'copy_to'
  readonly pos: number
  /** the table exported (COPY t TO ...), or undefined for a query */
  readonly table?: string
  readonly tablePos?: number
  /** what is exported: the query, or SELECT * FROM the table */
  readonly query: Query
  /** the destination, relative to the export root */
  readonly dest: string
  readonly destPos: number
  readonly options: readonly CopyOption[]
}

/** ALTER TABLE t CONVERT PARTITION TO PARQUET | NATIVE LIST '...' | WHERE ... */
export interface ConvertPartition {
  readonly kind: 'convert_partition'
  readonly pos: number
  readonly to: 'parquet' | 'native'
  readonly list?: readonly { readonly value: string; readonly pos: number }[]
  readonly where?: Expr
}
