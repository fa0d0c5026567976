/**
 * A statement ready to bind and run: either one parsed by the engine, or one answered by the
 * adapter itself (catalog emulation, no-op session commands; see `catalog.ts`). Both expose the
 * same shape, so the simple and extended query paths never care which they hold.
 */
import type { CancelSignal, ColumnType, Database, Execution, Session, StatementInfo } from '../../lib/index.js'
import { commandTag, type Statement } from './statement-info.js'
import { interceptQuery } from './catalog.js'

/** A runnable statement. */
export interface Prepared {
  /** number of `$n` parameters */
  readonly paramCount: number
  /** the OIDs to describe the parameters with, for statements the adapter answers itself (default 0: unspecified) */
  readonly paramOids?: readonly number[]
  /** true when it answers with rows */
  readonly returnsRows: boolean
  /** true when it may write (then the connection syncs before it flushes the answer) */
  readonly writes?: boolean
  /** true for the empty statement (EmptyQueryResponse) */
  readonly empty: boolean
  /** the engine statement, when the engine runs it */
  readonly statement: Statement | undefined
  /** starts it with bound parameter values (and the engine types the client declared for them) */
  start(params: readonly unknown[], signal: CancelSignal, paramTypes?: readonly (ColumnType | undefined)[]): Promise<Execution>
  /** CommandComplete tag after `rows` rows were sent or affected */
  tag(rows: number): string
}

/** Where a statement runs. */
export interface RunContext {
  readonly db: Database
  readonly session: Session
}

/** Wraps an engine statement. A class, not an object of closures: one is made per query. */
class EnginePrepared implements Prepared {
  readonly paramCount: number
  readonly returnsRows: boolean
  readonly writes: boolean
  readonly empty = false
  private readonly info: StatementInfo

  constructor(private readonly ctx: RunContext, readonly statement: Statement) {
    this.info = ctx.db.statementInfo(statement)
    this.paramCount = this.info.params.length
    this.returnsRows = this.info.returnsRows
    this.writes = this.info.writes
  }

  start(params: readonly unknown[], signal: CancelSignal, paramTypes?: readonly (ColumnType | undefined)[]): Promise<Execution> {
    // writes return before their WAL sync: the connection syncs once before it flushes the acknowledgements
    return this.ctx.db.execute(this.statement, params, { session: this.ctx.session, signal, deferSync: true, paramTypes })
  }

  tag(rows: number): string {
    return commandTag(this.info, rows)
  }
}

/** Wraps an engine statement. */
export function enginePrepared(ctx: RunContext, stmt: Statement): Prepared {
  return new EnginePrepared(ctx, stmt)
}

/** The empty statement. */
export const EMPTY_PREPARED: Prepared = {
  paramCount: 0, returnsRows: false, empty: true, statement: undefined,
  start: () => Promise.reject(new Error('empty statement')),
  tag: () => '',
}

/**
 * Texts longer than this are parsed with `Database.parseAsync` (in slices, yielding to the event
 * loop, stopped by CancelRequest and statement_timeout); shorter ones at once, so that a short
 * Parse message costs no await (the engine parses texts up to 4 KiB at once anyway).
 */
const LONG_SQL = 4096

/**
 * Prepares the statements of `sql`: the adapter's own answer when it recognises the text, else
 * the engine's parse (throws SqlError on a syntax error). An empty text gives one empty
 * statement. A long text is parsed asynchronously (a promise); `signal` cancels that parse.
 */
export function prepareSql(ctx: RunContext, sql: string, signal?: CancelSignal): Prepared[] | Promise<Prepared[]> {
  const own = interceptQuery(ctx, sql)
  if (own !== undefined) return own
  if (sql.length > LONG_SQL) return ctx.db.parseAsync(sql, { session: ctx.session, signal }).then((stmts) => preparedOf(ctx, stmts))
  return preparedOf(ctx, ctx.db.parse(sql))
}

function preparedOf(ctx: RunContext, stmts: readonly Statement[]): Prepared[] {
  if (stmts.length === 0) return [EMPTY_PREPARED]
  return stmts.map((s) => enginePrepared(ctx, s))
}
