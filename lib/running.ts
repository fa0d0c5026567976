/**
 * The statements running now, for `Database.close({ cancel: true })`, `query_activity()` and
 * `CANCEL QUERY`: each is registered with an id, its user and text when it starts and ends when
 * its batches end; a shutdown cancels them all and waits for them, `CANCEL QUERY id` one of them.
 * Also what every failure becomes on its way out (a SqlError; 57014 caused by the shutdown becomes
 * 57P01), and the release of a statement's memory when its batches end or are dropped.
 */
import { SqlError, SqlState } from './errors.js'
import type { CancelSignal } from './exec/context.js'
import type { QueryActivity } from './functions/registry-types.js'
import type { QueryMemory } from './exec/memory.js'
import type { Batch } from './types/vector.js'

/** A statement between its start and its end. */
export interface RunningStatement {
  /** its id in the registry (QuestDB's `query_id`), from 1 */
  readonly id: number
  readonly signal: CancelSignal
  readonly ended: Promise<void>
  readonly done: () => void
}

/** Who started a statement and what it is, for the registry. */
export interface StatementOrigin {
  readonly user: string
  readonly sql: string
  /** the memory it holds (query_activity()'s `memory_used` / `memory_limit`); absent while it only parses */
  readonly memory?: Pick<QueryMemory, 'used' | 'limit'>
}

interface Entry {
  id: number
  user: string
  sql: string
  start: number
  stateChange: number
  cancelled: boolean
  memory: Pick<QueryMemory, 'used' | 'limit'> | undefined
}

/** The statements of one database that have started and not ended. */
export class RunningStatements {
  private readonly running = new Set<RunningStatement>()
  /** the registry of running statements by id */
  private readonly entries = new Map<number, Entry>()
  private lastId = 0
  /** set by {@link RunningStatements.cancelAll}: every running statement is cancelled */
  private cancelling = false

  /** `clock`: µs since the epoch, for the registry's start and state-change times. */
  constructor(private readonly clock: () => number = () => Date.now() * 1000) {}

  /**
   * Registers a statement as running; its signal also fires once {@link RunningStatements.cancelAll}
   * was called or {@link RunningStatements.cancel} named it.
   */
  track(signal: CancelSignal | undefined, origin: StatementOrigin = { user: '', sql: '' }): RunningStatement {
    let end!: () => void
    const ended = new Promise<void>((r) => { end = r })
    const self = this
    const now = Math.floor(this.clock())
    const entry: Entry = { id: ++this.lastId, user: origin.user, sql: origin.sql, start: now, stateChange: now, cancelled: false, memory: origin.memory }
    this.entries.set(entry.id, entry)
    const run: RunningStatement = {
      id: entry.id,
      signal: { get cancelled() { return self.cancelling || entry.cancelled || signal?.cancelled === true } },
      ended,
      done: () => { this.running.delete(run); this.entries.delete(entry.id); end() },
    }
    this.running.add(run)
    return run
  }

  /** The statements running now, oldest first. */
  activity(): QueryActivity[] {
    return [...this.entries.values()].map((e) => ({ id: e.id, user: e.user, sql: e.sql, start: e.start, stateChange: e.stateChange, state: e.cancelled ? 'cancelled' : 'active',
      memoryUsed: e.memory?.used ?? null, memoryLimit: e.memory === undefined || !Number.isFinite(e.memory.limit) ? null : e.memory.limit }))
  }

  /**
   * Asks statement `id` to stop: it fails with 57014 at its next check (between batches, as a
   * timeout does). False when no statement of that id is running.
   */
  cancel(id: number): boolean {
    const e = this.entries.get(id)
    if (e === undefined) return false
    if (!e.cancelled) { e.cancelled = true; e.stateChange = Math.floor(this.clock()) }
    return true
  }

  /** Cancels every running statement and waits for them to end, at most `timeout` ms. */
  async cancelAll(timeout: number): Promise<void> {
    this.cancelling = true
    const limit = new Promise<void>((r) => setTimeout(r, timeout).unref())
    await Promise.race([Promise.all([...this.running].map((r) => r.ended)), limit])
  }

  /** 57014 caused by {@link RunningStatements.cancelAll} becomes 57P01 admin_shutdown. */
  shutdownError(e: SqlError): SqlError {
    if (!this.cancelling || e.code !== SqlState.QUERY_CANCELED) return e
    return new SqlError(SqlState.ADMIN_SHUTDOWN, 'terminating statement due to administrator command: the server is shutting down; the statement did not commit', -1,
      { hint: 'run it again once the server is back' })
  }

  /** Streams `batches`, ending `run` when they end (or fail). */
  async *tracked(batches: AsyncIterable<Batch>, run: RunningStatement): AsyncGenerator<Batch> {
    try {
      for await (const b of batches) yield b
    } catch (e) {
      throw this.shutdownError(asSqlError(e))
    } finally {
      run.done()
    }
  }
}

/** Gives a statement's memory back to the pool if its batches are dropped without being read to the end. */
const unread = new FinalizationRegistry<QueryMemory>((memory) => memory.releaseAll())

/** `batches`, releasing the statement's memory when they end, fail or are closed early (or are dropped unread). */
export function releasing(batches: AsyncIterable<Batch>, memory: QueryMemory): AsyncIterable<Batch> {
  const gen = (async function* () {
    try {
      yield* batches
    } finally {
      memory.releaseAll()
    }
  })()
  unread.register(gen, memory)
  return gen
}

/**
 * Every failure reaching a user is a SqlError: anything else thrown inside the engine (a broken
 * invariant, a stack overflow) becomes XX000 with the original error as its cause.
 */
export function asSqlError(e: unknown): SqlError {
  if (e instanceof SqlError) return e
  // A tree deeper than a recursive pass can walk (only past the parse limits' depth): the
  // statement is refused, the process is unharmed.
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new SqlError(SqlState.STATEMENT_TOO_COMPLEX, 'statement is too complex: expressions are nested too deeply', -1, { cause: e, hint: 'simplify the statement, or lower parseLimits.maxDepth so that it is refused before parsing' })
  }
  const message = e instanceof Error ? e.message : String(e)
  return new SqlError(SqlState.INTERNAL_ERROR, `internal error: ${message}`, -1, { cause: e })
}
