/**
 * Per-execution state of one statement: the function context (fixed `now()`, the shared random
 * generator), parameter values, results of uncorrelated subqueries, cancellation and the
 * cooperative scheduler that yields to the event loop between batches.
 */
import type { PlanNode } from '../plan/plan-node.js'
import { SqlError, SqlState } from '../errors.js'
import { createHash } from 'node:crypto'
import type { CatalogView, DigestAlgorithm, FunctionContext, ParquetAccess, QueryActivity } from '../functions/registry-types.js'
import { Rnd } from '../functions/rnd/rnd.js'
import type { Scalar } from '../types/vector.js'
import { type QueryMemory, unlimitedMemory } from './memory.js'

/** How long execution may hold the event loop before it yields, in milliseconds. */
export const YIELD_INTERVAL_MS = 8

/**
 * Units of work (rows produced, pairs compared, probe matches walked) an operator's inner loop
 * may do between two calls of {@link ExecContext.maybeYield}: small enough that a loop yields
 * within milliseconds, large enough that the clock read it costs is noise.
 */
export const YIELD_CHECK_WORK = 16384

/** A signal that cancels a running statement (pgwire CancelRequest, a disconnected HTTP client). */
export interface CancelSignal {
  readonly cancelled: boolean
}

/** When the engine's main thread loaded (microseconds since the epoch): QuestDB's `Timestamps.STARTUP_TIMESTAMP`. */
const STARTED_AT = Date.now() * 1000

const defer: (f: () => void) => void = typeof setImmediate === 'function' ? (f) => setImmediate(f) : (f) => setTimeout(f, 0)

/** Everything a statement's operators and kernels can see while it runs. */
export class ExecContext implements FunctionContext {
  private rndState: Rnd | undefined
  private readonly makeRnd: (() => Rnd) | undefined
  /** values of uncorrelated subqueries, computed before the main pipeline runs */
  readonly subqueryValues = new Map<object, unknown>()
  /** the statement's memory budget: operators reserve what they accumulate (the Database sets it; unlimited otherwise) */
  memory: QueryMemory = unlimitedMemory()
  /** when the statement last yielded (ms); -1 until its first batch, so starting one costs no clock read */
  private lastYield = -1
  /**
   * When the statement times out (ms since the epoch, `Date.now()` clock); Infinity for never.
   * Checked where execution already reads the clock ({@link ExecContext.maybeYield}), so a
   * timeout costs nothing per row.
   */
  deadline = Infinity
  /**
   * The physical-planning step for plans run inside the statement (uncorrelated subqueries), set
   * by the statement runner; identity when unset.
   */
  physical: (plan: PlanNode) => PlanNode = (plan) => plan

  /** `flush_identity_cache()`: empties the database's external identity caches (permission checked) */
  flushIdentities: ((subject: string | undefined) => number) | undefined
  /** Parquet files for `read_parquet()` (set by the database when it has an import root) */
  parquet: ParquetAccess | undefined
  /** `flush_query_cache()`: empties the database's cache of parsed statements (set by the database) */
  flushQueryCache: (() => boolean) | undefined
  /** `query_activity()`: the running statements this statement's user may see (set by the database) */
  queryActivity: (() => readonly QueryActivity[]) | undefined
  /** `CANCEL QUERY id` / `cancel_query(id)`: asks a running statement to stop; false when none has that id (set by the database; permission checked) */
  cancelQuery: ((id: number) => boolean) | undefined

  constructor(
    readonly now: number,
    private readonly clockFn: () => number,
    readonly user: string,
    readonly catalog: CatalogView,
    readonly version: string,
    readonly params: readonly Scalar[],
    readonly signal: CancelSignal | undefined,
    rnd?: Rnd | (() => Rnd),
  ) {
    if (typeof rnd === 'function') this.makeRnd = rnd
    else this.rndState = rnd
  }

  /** The statement's random generator, made on first use (most statements draw nothing). */
  get rnd(): Rnd {
    return this.rndState ??= this.makeRnd?.() ?? new Rnd()
  }

  /**
   * The process's memory for `memory_metrics()`: TOTAL_USED (JS heap in use plus memory outside
   * it: typed arrays, buffers), RSS, and Node's HEAP_TOTAL, HEAP_USED, EXTERNAL, ARRAY_BUFFERS.
   */
  memoryMetrics(): readonly { tag: string; bytes: number }[] {
    const m = process.memoryUsage()
    return [
      { tag: 'TOTAL_USED', bytes: m.heapUsed + m.external },
      { tag: 'RSS', bytes: m.rss },
      { tag: 'HEAP_TOTAL', bytes: m.heapTotal },
      { tag: 'HEAP_USED', bytes: m.heapUsed },
      { tag: 'EXTERNAL', bytes: m.external },
      { tag: 'ARRAY_BUFFERS', bytes: m.arrayBuffers },
    ]
  }

  /** The lowercase hex digest of `data` (`md5()`, `sha1()`, `sha256()`). */
  digest(algorithm: DigestAlgorithm, data: Uint8Array): string {
    return createHash(algorithm).update(data).digest('hex')
  }

  /** Microseconds since the epoch, changing on each call (`systimestamp()`). */
  clock(): number {
    return this.clockFn()
  }

  /** When the engine started (`pg_postmaster_start_time()`); a parallel task carries the main thread's. */
  startedAt = STARTED_AT

  /** The nanoseconds of the statement's start past {@link ExecContext.now} (0-999): `now_ns()` is `now * 1000 + nowSub`. */
  nowSub = 0
  /** Nanoseconds since the epoch, changing on each call (`systimestamp_ns()`); unset: the microsecond clock widened. */
  clockNs: (() => bigint) | undefined

  /** Ends the statement after `ms` milliseconds from now (0 or less: no timeout). */
  setTimeout(ms: number | undefined): void {
    this.deadline = ms === undefined || !(ms > 0) ? Infinity : Date.now() + ms
  }

  /** Throws 57014 when the statement was cancelled (no clock read: the timeout is checked by {@link ExecContext.checkDeadline}). */
  checkCancelled(): void {
    if (this.signal?.cancelled === true) throw new SqlError(SqlState.QUERY_CANCELED, 'canceling statement due to user request')
  }

  /** Throws 57014 when the statement was cancelled or its timeout passed (one clock read). */
  checkDeadline(now = Date.now()): void {
    this.checkCancelled()
    if (now >= this.deadline) throw new SqlError(SqlState.QUERY_CANCELED, 'canceling statement due to statement timeout')
  }

  /**
   * Yields to the event loop when this statement has held it for longer than
   * {@link YIELD_INTERVAL_MS}, and throws 57014 when it was cancelled or timed out. Operators
   * call it per batch and, inside inner loops, every {@link YIELD_CHECK_WORK} units of work.
   */
  async maybeYield(): Promise<void> {
    const due = this.yieldIfDue()
    if (due !== undefined) await due
  }

  /**
   * {@link maybeYield} without a promise when no yield is due, for loops over synchronous
   * batches that would otherwise wait a microtask per batch: undefined (go on), or the yield to
   * await. Throws 57014 as `maybeYield` does.
   */
  yieldIfDue(): Promise<void> | undefined {
    const t = Date.now()
    this.checkDeadline(t)
    if (this.lastYield < 0) { this.lastYield = t; return undefined }
    if (t - this.lastYield < YIELD_INTERVAL_MS) return undefined
    return this.yieldNow()
  }

  private async yieldNow(): Promise<void> {
    await new Promise<void>((resolve) => defer(resolve))
    this.lastYield = Date.now()
    this.checkDeadline(this.lastYield)
  }
}
