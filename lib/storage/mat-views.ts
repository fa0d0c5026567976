/**
 * The materialized views of a database (QuestDB 9): each is a real table of the catalog (its
 * rows, its designated timestamp from SAMPLE BY) plus a definition kept here — its base table,
 * query text, refresh mode and sampling interval — and its refresh state. Definitions and state
 * are persisted as a whole in the data directory's `_mat_views` file (JSON, replaced atomically
 * after every CREATE / DROP / ALTER and every refresh), apart from the plain views' `_views`.
 */
import { SqlError, SqlState } from '../errors.js'

/** The internal file of the materialized views. */
export const MAT_VIEWS_FILE = '_mat_views'
const VERSION = 1

/** How a view refreshes: after each base-table commit, on REFRESH only, or on a timer. */
export type MatViewRefreshType = 'immediate' | 'manual' | 'timer'

/** A materialized view's definition: immutable; ALTER installs a new one. */
export interface MatViewDef {
  /** the view's table id (its table has the same name) */
  readonly id: number
  readonly name: string
  readonly baseTable: string
  /** the query's text, as written */
  readonly sql: string
  readonly refreshType: MatViewRefreshType
  /** a timer refresh's interval (count and unit letter `s m h d w M y`) and start (µs) */
  readonly timer?: { readonly count: number; readonly unit: string; readonly start: number; readonly timeZone?: string }
  /**
   * a period view's `PERIOD (LENGTH n unit [TIME ZONE 'z'] [DELAY n unit])`: units `m h d`;
   * `start`, the period boundary at CREATE / ALTER on the zone's wall clock (µs), aligns the periods
   */
  readonly period?: {
    readonly count: number; readonly unit: 'm' | 'h' | 'd'; readonly start: number; readonly timeZone?: string
    readonly delay?: { readonly count: number; readonly unit: 'm' | 'h' | 'd' }
  }
  /** `SET REFRESH LIMIT n unit`: refreshes ignore base rows older than now minus the limit */
  readonly refreshLimit?: { readonly count: number; readonly unit: 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR' }
  /** `DEFERRED`: the first refresh waited for the first trigger (SHOW CREATE MATERIALIZED VIEW repeats it) */
  readonly deferred?: boolean
  /** SAMPLE BY's stride in the longest a bucket can last (µs; months as 31 days, years as 366) */
  readonly bucketMicros: number
  /**
   * how far a bucket's start may lie from UTC-aligned time (µs): 0 for UTC calendar buckets, a
   * day and more under TIME ZONE / WITH OFFSET; absent (files of before): the widest
   */
  readonly slackMicros?: number
}

/** A view's refresh state: what `materialized_views()` reports. */
export interface MatViewState {
  invalid: boolean
  /** why it became invalid ('' when valid) */
  reason: string
  /** µs since the epoch, or null before the first refresh */
  lastRefreshStart: number | null
  lastRefreshFinish: number | null
  /** the base table's commit count the last refresh saw (-1: none yet) */
  refreshTxn: number
  /** the base table's row count the last refresh saw: a restart that finds another refreshes in full */
  baseRows: number
  /** a period view: the end (UTC µs, exclusive) of the periods refreshed so far, null before any (`refresh_period_hi`) */
  periodHi?: number | null
}

/** Definitions and states, by lower-case view name. */
export class MatViews {
  private defs = new Map<string, MatViewDef>()
  readonly states = new Map<string, MatViewState>()

  /** The view's definition, or undefined. */
  find(name: string): MatViewDef | undefined {
    return this.defs.get(name.toLowerCase())
  }

  /** How many views there are. */
  get size(): number {
    return this.defs.size
  }

  /** Every view, in creation order. */
  all(): MatViewDef[] {
    return [...this.defs.values()]
  }

  /** The views whose base table is `table`. */
  over(table: string): MatViewDef[] {
    const t = table.toLowerCase()
    return this.all().filter((v) => v.baseTable.toLowerCase() === t)
  }

  /** The view's state (created fresh when it has none). */
  state(name: string): MatViewState {
    const k = name.toLowerCase()
    let s = this.states.get(k)
    if (s === undefined) this.states.set(k, s = { invalid: false, reason: '', lastRefreshStart: null, lastRefreshFinish: null, refreshTxn: -1, baseRows: 0 })
    return s
  }

  /** Adds or replaces a definition. */
  put(def: MatViewDef): void {
    this.defs.set(def.name.toLowerCase(), def)
  }

  /** Removes a view's definition and state. */
  remove(name: string): void {
    this.defs.delete(name.toLowerCase())
    this.states.delete(name.toLowerCase())
  }

  /** The file's bytes. */
  encode(): Uint8Array {
    const views = this.all().map((d) => ({ ...d, state: this.state(d.name) }))
    return new TextEncoder().encode(JSON.stringify({ version: VERSION, views }))
  }

  /** Loads the file's bytes (none when there is no file); XX001 when they do not read. */
  decode(bytes: Uint8Array | undefined): void {
    if (bytes === undefined) return
    let doc: { version?: unknown; views?: unknown }
    try { doc = JSON.parse(new TextDecoder().decode(bytes)) as typeof doc } catch (e) {
      throw new SqlError(SqlState.DATA_CORRUPTED, `the materialized views file ${MAT_VIEWS_FILE} is unreadable`, -1, { cause: e })
    }
    if (doc === null || typeof doc !== 'object' || doc.version !== VERSION || !Array.isArray(doc.views)) throw new SqlError(SqlState.DATA_CORRUPTED, `the materialized views file ${MAT_VIEWS_FILE} has an unknown format [version=${String((doc as { version?: unknown } | null)?.version)}]`)
    for (const v of doc.views as (MatViewDef & { state?: MatViewState })[]) {
      if (v === null || typeof v !== 'object' || typeof v.name !== 'string' || typeof v.sql !== 'string' || typeof v.baseTable !== 'string' ||
        typeof v.id !== 'number' || typeof v.bucketMicros !== 'number' || typeof v.refreshType !== 'string' ||
        (v.state !== undefined && (v.state === null || typeof v.state !== 'object'))) {
        throw new SqlError(SqlState.DATA_CORRUPTED, `the materialized views file ${MAT_VIEWS_FILE} holds a malformed view`)
      }
      const { state, ...def } = v
      this.put(def)
      if (state !== undefined) this.states.set(def.name.toLowerCase(), { ...state })
    }
  }
}
