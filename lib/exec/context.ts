/**
 * Per-execution state of one statement: the function context (fixed `now()`, the shared random
 * generator), parameter values, results of uncorrelated subqueries, cancellation and the
 * cooperative scheduler that yields to the event loop between batches.
 */
import { SqlError, SqlState } from '../errors.js'
import type { CatalogView, FunctionContext } from '../functions/registry-types.js'
import { Rnd } from '../functions/rnd/rnd.js'
import type { Scalar } from '../types/vector.js'
import { type QueryMemory, unlimitedMemory } from './memory.js'

/** How long execution may hold the event loop before it yields, in milliseconds. */
export const YIELD_INTERVAL_MS = 8

/** A signal that cancels a running statement (pgwire CancelRequest, a disconnected HTTP client). */
export interface CancelSignal {
  readonly cancelled: boolean
}

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

  /** Microseconds since the epoch, changing on each call (`systimestamp()`). */
  clock(): number {
    return this.clockFn()
  }

  /** Throws 57014 when the statement was cancelled. */
  checkCancelled(): void {
    if (this.signal?.cancelled === true) throw new SqlError(SqlState.QUERY_CANCELED, 'cancelling statement due to user request')
  }

  /** Yields to the event loop when this statement has held it for longer than {@link YIELD_INTERVAL_MS}. */
  async maybeYield(): Promise<void> {
    this.checkCancelled()
    const t = Date.now()
    if (this.lastYield < 0) { this.lastYield = t; return }
    if (t - this.lastYield < YIELD_INTERVAL_MS) return
    await new Promise<void>((resolve) => defer(resolve))
    this.lastYield = Date.now()
    this.checkCancelled()
  }
}
