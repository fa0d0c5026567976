/**
 * A statement's {@link StatementInfo}, worked out once per parsed statement and schema version.
 * What its kind decides (returns rows, command tag, writes) is known at once; what needs binding
 * (parameter types, result columns, permissions) is worked out when first read, so that a
 * statement nobody asks about costs nothing more than its parse.
 */
import type { Statement } from '../../sql/ast.js'
import { isWriteStatement } from '../../sql/statement-writes.js'
import { paramFacts } from '../../sql/param-facts.js'
import type { ColumnType } from '../../types/column-type.js'
import type { ColumnInfo, RequiredPermission, StatementInfo } from '../../statement-info.js'
import { SqlError } from '../../errors.js'
import { commandTag, returnsRows } from './statement-shape.js'

/** What binding a statement tells (see `Statements.describe`); throws the statement's bind error. */
export interface Binder {
  /** the inferred type of each `$n` (index 0 for `$1`) */
  params(stmt: Statement, count: number): readonly ColumnType[]
  /** the result columns, undefined when only running tells */
  columns(stmt: Statement): readonly ColumnInfo[] | undefined
  /** the permissions the statement needs (never throws for a statement that does not bind) */
  permissions(stmt: Statement): readonly RequiredPermission[]
}

/**
 * The facts of a statement that may not bind (an unknown table, a type error): its parameters
 * then default to STRING and its columns to undefined; its bind error comes when it runs.
 */
export class LazyStatementInfo implements StatementInfo {
  readonly returnsRows: boolean
  readonly commandTag: string
  readonly writes: boolean
  private paramsMemo: readonly ColumnType[] | undefined
  private columnsMemo: { readonly value: readonly ColumnInfo[] | undefined } | undefined
  private permissionsMemo: readonly RequiredPermission[] | undefined

  constructor(private readonly stmt: Statement, private readonly binder: Binder) {
    this.returnsRows = returnsRows(stmt)
    this.commandTag = commandTag(stmt)
    this.writes = isWriteStatement(stmt)
  }

  get params(): readonly ColumnType[] {
    if (this.paramsMemo === undefined) {
      const n = paramFacts(this.stmt).count
      this.paramsMemo = n === 0 ? [] : orElse(() => this.binder.params(this.stmt, n), () => new Array<ColumnType>(n).fill('STRING'))
    }
    return this.paramsMemo
  }

  get columns(): readonly ColumnInfo[] | undefined {
    this.columnsMemo ??= { value: this.returnsRows ? orElse(() => this.binder.columns(this.stmt), () => undefined) : undefined }
    return this.columnsMemo.value
  }

  get permissions(): readonly RequiredPermission[] {
    return (this.permissionsMemo ??= this.binder.permissions(this.stmt))
  }
}

/** `f()`, or `otherwise()` when `f` fails with a SqlError. */
function orElse<T>(f: () => T, otherwise: () => T): T {
  try {
    return f()
  } catch (e) {
    if (e instanceof SqlError) return otherwise()
    throw e
  }
}
