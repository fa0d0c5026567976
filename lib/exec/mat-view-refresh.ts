/**
 * Refreshing materialized views. A view's rows are its query's result, stored in its own table;
 * IMMEDIATE views follow their base table: every append to the base table (INSERT, ILP, COPY,
 * CREATE TABLE AS of a view over a view...) notes the time range it touched, and the view is
 * refreshed for that range on a later turn of the event loop, never on the committing
 * statement's path. A refresh recomputes only the SAMPLE BY buckets the range touched: the query
 * runs over the base rows from one longest bucket before the range's start to one longest bucket
 * after its end, and only the buckets that may hold a row of the range (starting after one longest
 * bucket before its start, and at most at its end) are written back, so every bucket written is
 * complete. The view's table keeps its rows
 * keyed by (timestamp, non-aggregate columns) with DEDUP UPSERT KEYS, so a rewritten bucket's rows
 * replace the old ones.
 *
 * Readers of a view wait for its pending refresh ({@link MatViewRefresher.settled}), so a query of
 * a view sees every commit to the base table acknowledged before it started.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Query, TableRef } from '../sql/ast.js'
import { parseStatement } from '../sql/parse.js'
import type { Catalog } from '../storage/catalog.js'
import type { DurableStore } from '../storage/durable/store.js'
import type { MatViewDef, MatViewState } from '../storage/mat-views.js'
import { MAT_VIEWS_FILE } from '../storage/mat-views.js'
import type { Table } from '../storage/table.js'
import { castVector } from '../types/cast.js'
import { addMonths } from '../types/calendar.js'
import { RefreshTimer, completePeriodsHi, periodMicros } from './mat-view-timer.js'
import { type Batch, type I64Vector, type Vector, gather } from '../types/vector.js'

/** Runs a query for the refresher (the admin's context): its rows. */
export type QueryRunner = (q: Query) => Promise<Batch>

/** A time range of base-table rows, in µs (inclusive). */
interface Range { lo: number; hi: number }

/** Slack for time zones and daylight-saving shifts around a bucket (µs). */
export const ZONE_SLACK = 26 * 3_600_000_000

/**
 * Where the refresher sets its timers: Node's `setTimeout` (unref'd) by default; tests pass one
 * that records the delays and fires on demand, with a clock of their own, so no test waits.
 */
export interface TimerHost {
  set(fire: () => void, ms: number): unknown
  clear(handle: unknown): void
}

const NODE_TIMERS: TimerHost = {
  set: (fire, ms) => { const t = setTimeout(fire, ms); t.unref?.(); return t },
  clear: (h) => { clearTimeout(h as ReturnType<typeof setTimeout>) },
}

/** A view's timers (REFRESH EVERY, PERIOD) and the host timer armed for the nearest of them. */
interface ViewTimers { readonly name: string; readonly timers: RefreshTimer[]; handle: unknown }

/** Refreshes the materialized views of one catalog. */
export class MatViewRefresher {
  /** per view (lower-case name): the base rows' range not refreshed yet, or 'full' */
  private readonly pending = new Map<string, Range | 'full'>()
  /** per view: the refresh running now (and those queued behind it) */
  private readonly running = new Map<string, Promise<void>>()
  /** the views' timers (REFRESH EVERY, PERIOD) */
  private readonly timers = new Map<string, ViewTimers>()
  /** the last refresh's error per view (logged nowhere else: the view stays as it was) */
  readonly errors = new Map<string, SqlError | Error>()
  /**
   * the last failed write of `_mat_views` (undefined once a write succeeds): the definitions and
   * states stay in memory and every later change, refresh and timer firing writes them again
   */
  persistError: Error | undefined
  /** the host timer of the next write of `_mat_views` after a failed one */
  private persistRetry: unknown
  private closed = false

  constructor(
    private readonly catalog: Catalog,
    private readonly store: () => DurableStore | undefined,
    private readonly run: QueryRunner,
    private readonly clock: () => number,
    /** where timers are set; replace it before views are attached (tests: a host that fires on demand) */
    public timerHost: TimerHost = NODE_TIMERS,
  ) {}

  /** Follows view `def`'s base table (its appends note ranges) and starts its timers. */
  attach(def: MatViewDef): void {
    const base = this.catalog.find(def.baseTable)
    if (base !== undefined && base.appended !== this.onAppend) base.appended = this.onAppend
    const key = def.name.toLowerCase()
    this.stopTimers(key)
    const now = this.clock()
    const timers: RefreshTimer[] = []
    const p = def.period
    if (p !== undefined) {
      // QuestDB: the period timer fires DELAY after each period's end; an EVERY timer of a period
      // view starts now, in UTC (its START is the period boundary)
      timers.push(new RefreshTimer('period', { count: p.count, unit: p.unit, start: p.start, ...(p.timeZone === undefined ? {} : { timeZone: p.timeZone }), delay: p.delay === undefined ? 0 : periodMicros(p.delay.count, p.delay.unit) }, now))
      if (def.refreshType === 'timer' && def.timer !== undefined) timers.push(new RefreshTimer('every', { count: def.timer.count, unit: def.timer.unit, start: now }, now))
    } else if (def.refreshType === 'timer' && def.timer !== undefined) {
      const t = def.timer
      timers.push(new RefreshTimer('every', { count: t.count, unit: t.unit, start: t.start, ...(t.timeZone === undefined ? {} : { timeZone: t.timeZone }) }, now))
    }
    if (timers.length === 0) return
    const entry: ViewTimers = { name: def.name, timers, handle: undefined }
    this.timers.set(key, entry)
    this.arm(entry)
  }

  /** The next `n` times (UTC µs) view `name`'s timers fire, nearest first (empty without timers). */
  nextFires(name: string, n: number): number[] {
    const e = this.timers.get(name.toLowerCase())
    if (e === undefined) return []
    return e.timers.flatMap((t) => t.upcoming(n)).sort((a, b) => a - b).slice(0, n)
  }

  /** Sets the host timer for the nearest deadline of `e` (at most Node's longest delay away: it re-arms). */
  private arm(e: ViewTimers): void {
    let due = Infinity
    for (const t of e.timers) due = Math.min(due, t.deadline)
    const ms = Math.min(Math.max(0, Math.ceil((due - this.clock()) / 1000)), MAX_TIMER_MS)
    e.handle = this.timerHost.set(() => { this.fire(e) }, ms)
  }

  /** A host timer went off: the timers that are due fire (once each, however many deadlines passed) and the next one is armed. */
  private fire(e: ViewTimers): void {
    if (this.closed || this.timers.get(e.name.toLowerCase()) !== e) return
    const now = this.clock()
    const state = this.catalog.matViews.find(e.name) === undefined ? undefined : this.catalog.matViews.state(e.name)
    for (const t of e.timers) {
      if (t.deadline > now) continue
      if (state !== undefined && !state.invalid) {
        // a period that ended: refresh it (the refresh adds the complete periods not refreshed yet)
        if (t.kind === 'period') this.addPending(e.name, { lo: Infinity, hi: -Infinity })
        // a DEFERRED timer view's first firing fills it (QuestDB: the first incremental refresh reads the whole table)
        else if (state.lastRefreshFinish === null) this.addPending(e.name, 'full')
        void this.schedule(e.name)
      }
      // once for all the deadlines passed (a host that fired late, a machine that slept): the refresh
      // covers every complete period and every noted range anyway
      do t.advance(); while (t.deadline <= now)
    }
    if (this.persistError !== undefined) this.persistQuietly()
    this.arm(e)
  }

  private stopTimers(key: string): void {
    const e = this.timers.get(key)
    if (e !== undefined) this.timerHost.clear(e.handle)
    this.timers.delete(key)
  }

  /** The base tables' append hook (one function: a table holds it once, whatever the views over it). */
  private readonly onAppend = (t: Table, v: readonly Vector[], n: number): void => { this.noteAppend(t, v, n) }

  /** Stops following view `name` (DROP): its timers stop, and its base table's hook goes when no other view follows it. */
  detach(name: string): void {
    const key = name.toLowerCase()
    this.stopTimers(key)
    this.pending.delete(key)
    const def = this.catalog.matViews.find(name)
    if (def === undefined) return
    const base = this.catalog.find(def.baseTable)
    const others = this.catalog.matViews.over(def.baseTable).some((d) => d.name.toLowerCase() !== key)
    if (base !== undefined && base.appended === this.onAppend && !others) base.appended = undefined
  }

  /** Stops every timer (the database closes). */
  close(): void {
    this.closed = true
    for (const e of this.timers.values()) this.timerHost.clear(e.handle)
    this.timers.clear()
    if (this.persistRetry !== undefined) this.timerHost.clear(this.persistRetry)
  }

  /** An append to `base`: every valid view over it notes the range; IMMEDIATE ones refresh soon. */
  noteAppend(base: Table, vectors: readonly Vector[], length: number): void {
    const ts = base.meta.timestampIndex
    if (ts < 0 || length === 0) return
    const views = this.catalog.matViews.over(base.meta.name)
    if (views.length === 0) return
    const v = vectors[ts]!
    let lo = Infinity
    let hi = -Infinity
    if (v.isConst) {
      lo = hi = Number((v as I64Vector).data[0])
    } else {
      const d = (v as I64Vector).data
      if (d instanceof Float64Array) {
        for (let i = 0; i < length; i++) { const x = d[i]!; if (x < lo) lo = x; if (x > hi) hi = x }
      } else {
        for (let i = 0; i < length; i++) { const x = Number(d[i]!); if (x < lo) lo = x; if (x > hi) hi = x }
      }
    }
    if (base.meta.columns[ts]!.type === 'TIMESTAMP_NS') { lo = Math.floor(lo / 1000); hi = Math.ceil(hi / 1000) }
    for (const def of views) {
      const state = this.catalog.matViews.state(def.name)
      if (this.catalog.find(def.name) === undefined || state.invalid) continue
      // a view that never finished a refresh (DEFERRED) refreshes in full: the base table may hold
      // rows from before the view (QuestDB: no last refresh txn, a full refresh)
      this.addPending(def.name, state.lastRefreshFinish === null ? 'full' : { lo, hi })
      if (def.refreshType === 'immediate') this.schedule(def.name)
    }
  }

  /** Notes a range (or everything) to refresh for view `name`. */
  addPending(name: string, r: Range | 'full'): void {
    const key = name.toLowerCase()
    const old = this.pending.get(key)
    if (old === 'full' || r === 'full') { this.pending.set(key, 'full'); return }
    this.pending.set(key, old === undefined ? { ...r } : { lo: Math.min(old.lo, r.lo), hi: Math.max(old.hi, r.hi) })
  }

  /** Runs view `name`'s pending refresh on a later turn (after any running one), then a REFRESH ... RANGE's `range`. */
  schedule(name: string, range?: Range): Promise<void> {
    const key = name.toLowerCase()
    const before = this.running.get(key) ?? Promise.resolve()
    const next = before.then(() => new Promise<void>((resolve) => { setImmediate(resolve) })).then(async () => {
      await this.refreshPending(name)
      // REFRESH ... RANGE: the buckets of the range, whatever the period under way or the limit (as QuestDB)
      if (range !== undefined && !this.closed) await this.refresh(name, range, true)
    }).catch((e: unknown) => {
      this.errors.set(key, e as Error)
      // as QuestDB: a refresh that fails makes the view invalid, its error the reason
      const state = this.catalog.matViews.find(name) === undefined ? undefined : this.catalog.matViews.state(name)
      if (state !== undefined && !this.closed) {
        state.invalid = true
        state.reason = e instanceof Error ? e.message : String(e)
        state.lastRefreshFinish = this.clock()
        this.invalidateDependents(name, 'base materialized view refresh failed')
        this.persistQuietly()
      }
    })
    this.running.set(key, next)
    void next.finally(() => { if (this.running.get(key) === next) this.running.delete(key) })
    return next
  }

  /**
   * As QuestDB (MatViewRefreshJob.invalidateDependentViews): the views over view `name` that have
   * finished a refresh become invalid with `reason`, and the views over those (whatever their
   * state, recursively) with `base materialized view is invalidated`. True when one changed.
   */
  invalidateDependents(name: string, reason: string): boolean {
    const mv = this.catalog.matViews
    let changed = false
    for (const child of mv.over(name)) {
      const s = mv.state(child.name)
      if (s.invalid) continue
      if (s.lastRefreshFinish !== null) {
        s.invalid = true
        s.reason = reason
        changed = true
      }
      if (this.invalidateDependents(child.name, 'base materialized view is invalidated')) changed = true
    }
    return changed
  }

  /** Resolves once the refreshes of views `names` (and of the views they read, first) queued so far are done. */
  async settled(names: Iterable<string>): Promise<void> {
    for (const n of names) {
      // a view over a view: the inner view's pending refresh first (its rows are an append that
      // queues this view's refresh), then this view's
      const def = this.catalog.matViews.find(n)
      if (def !== undefined && this.catalog.matViews.find(def.baseTable) !== undefined) await this.settled([def.baseTable])
      const p = this.running.get(n.toLowerCase())
      if (p !== undefined) await p
    }
  }

  /** True when view `name` has a refresh queued or running. */
  busy(name: string): boolean {
    return this.running.has(name.toLowerCase())
  }

  /** Refreshes what is pending for view `name` now. */
  private async refreshPending(name: string): Promise<void> {
    if (this.closed) return
    const key = name.toLowerCase()
    const p = this.pending.get(key)
    if (p === undefined) return
    this.pending.delete(key)
    await this.refresh(name, p)
  }

  /**
   * Refreshes view `name`: 'full' replaces every row with the query's result; a range recomputes
   * the buckets holding base rows in it — a period view's within the complete periods, a limited
   * view's within the limit, unless `explicit` (REFRESH ... RANGE). Records the refresh in the
   * view's state and persists it.
   */
  async refresh(name: string, what: Range | 'full', explicit = false): Promise<void> {
    const mv = this.catalog.matViews
    const def = mv.find(name)
    const table = this.catalog.find(name)
    if (def === undefined || table === undefined) return
    const state = mv.state(name)
    const base = this.catalog.find(def.baseTable)
    if (base === undefined) return
    const store = this.store()
    // the base table's acknowledged appends are applied (readers see them) before it is read
    if (store?.uncommitted === true) await store.commit().catch(() => undefined)
    const now = this.clock()
    const bounds: Bounds = explicit ? { range: what, truncate: false } : refreshBounds(def, state, what, now)
    if (bounds.range !== 'full' && bounds.range.lo > bounds.range.hi && !bounds.truncate) {
      // nothing to refresh (rows all in the period under way, or older than the limit): the base
      // table's commits count as seen all the same
      if (bounds.periodHi !== undefined) state.periodHi = bounds.periodHi
      state.refreshTxn = base.txn
      state.baseRows = base.rowCount
      this.persistQuietly()
      return
    }
    state.lastRefreshStart = now
    const txn = base.txn
    const baseRows = base.rowCount
    const query = parseQuery(def.sql)
    const release = await table.writers.exclusive()
    try {
      const r = bounds.range
      if (r === 'full') {
        const data = await this.run(query)
        table.truncate()
        this.write(table, data)
      } else {
        const slack = def.slackMicros ?? ZONE_SLACK
        const a = r.lo - def.bucketMicros - slack
        const b = r.hi
        const ts = base.meta.columns[base.meta.timestampIndex]!
        const scale = ts.type === 'TIMESTAMP_NS' ? 1000 : 1
        const data = r.lo > r.hi ? undefined : await this.run(restrictBase(query, def.baseTable, ts.name, a * scale, (b + def.bucketMicros + slack) * scale))
        if (bounds.truncate) table.truncate()
        if (data !== undefined) this.write(table, keepBuckets(data, table.meta.timestampIndex, a + 1, b, table.meta.columns[table.meta.timestampIndex]!.type === 'TIMESTAMP_NS'))
      }
      if (store?.uncommitted === true) await store.commit()
    } finally { release() }
    state.lastRefreshFinish = this.clock()
    state.refreshTxn = txn
    state.baseRows = baseRows
    if (bounds.periodHi !== undefined) state.periodHi = bounds.periodHi
    this.errors.delete(name.toLowerCase())
    // the rows are written: a failed save of the state is retried, not the view made invalid
    this.persistQuietly()
  }

  /** Appends a refresh's rows to the view's table (cast to its column types). */
  private write(table: Table, data: Batch): void {
    if (data.length === 0) return
    const vectors = table.meta.columns.map((c, i) => (data.vectors[i]!.type === c.type ? data.vectors[i]! : castVector(data.vectors[i]!, c.type)))
    table.append(vectors, data.length)
  }

  /** Writes the definitions and states to the data directory (nothing in memory); throws when the write fails. */
  persist(): void {
    try {
      this.store()?.writeInternal(MAT_VIEWS_FILE, this.catalog.matViews.encode())
    } catch (e) {
      this.persistError = e instanceof Error ? e : new Error(String(e))
      throw e
    }
    this.persistError = undefined
  }

  /**
   * {@link MatViewRefresher.persist} for a change that has happened already (an invalidation, a
   * refresh's state): a failed write is kept in {@link MatViewRefresher.persistError}, the change
   * stays in memory, and the next write (a DDL, a refresh, a timer, {@link MatViewRefresher.retryPersist}) carries it.
   */
  persistQuietly(): boolean {
    try { this.persist(); return true } catch {
      // and once more a while later, should nothing else write before
      if (this.persistRetry === undefined && !this.closed) {
        this.persistRetry = this.timerHost.set(() => { this.persistRetry = undefined; if (this.persistError !== undefined && !this.closed) this.persistQuietly() }, PERSIST_RETRY_MS)
      }
      return false
    }
  }

  /** Writes `_mat_views` again when the last write failed: true when nothing is left unwritten. */
  retryPersist(): boolean {
    return this.persistError === undefined || this.persistQuietly()
  }
}

/** What a refresh recomputes: everything, or the buckets of a base-row range (emptied first when `truncate`). */
interface Bounds { range: Range | 'full'; truncate: boolean; periodHi?: number }

/**
 * The base rows a refresh of `def` covers at `now` (QuestDB's MatViewRefreshJob.findRefreshIntervals):
 * a period view leaves out the period under way (rows at or after the end of the last complete
 * period) and adds the periods completed since its last refresh; a REFRESH LIMIT leaves out rows
 * older than now minus the limit. A full refresh with either becomes "empty the view, then
 * refresh that range".
 */
function refreshBounds(def: MatViewDef, state: MatViewState, what: Range | 'full', now: number): Bounds {
  let lo = what === 'full' ? -Infinity : what.lo
  let hi = what === 'full' ? Infinity : what.hi
  let periodHi: number | undefined
  const p = def.period
  if (p !== undefined) {
    const end = completePeriodsHi(now, periodMicros(p.count, p.unit), p.delay === undefined ? 0 : periodMicros(p.delay.count, p.delay.unit), p.start, p.timeZone)
    hi = Math.min(hi, end - 1)
    const from = what === 'full' ? -Infinity : state.periodHi ?? -Infinity
    if (from < end) {
      lo = Math.min(lo, from)
      hi = Math.max(hi, end - 1)
      periodHi = end
    }
  }
  const limit = def.refreshLimit
  if (limit !== undefined && limit.count > 0) {
    const oldest = limit.unit === 'MONTH' || limit.unit === 'YEAR'
      ? addMonths(now, -limit.count * (limit.unit === 'YEAR' ? 12 : 1))
      : now - limit.count * (limit.unit === 'WEEK' ? 168 : limit.unit === 'DAY' ? 24 : 1) * 3_600_000_000
    // a limit reaching back past any timestamp (or NaN from a huge count) limits nothing; below
    // this a bound would not fit a LONG once printed (or scaled to nanoseconds)
    if (oldest > -9e15) lo = Math.max(lo, oldest)
  }
  if (what === 'full' && lo === -Infinity && hi === Infinity) return { range: 'full', truncate: false, ...(periodHi === undefined ? {} : { periodHi }) }
  return { range: { lo, hi }, truncate: what === 'full', ...(periodHi === undefined ? {} : { periodHi }) }
}

/** The parsed query of a view's text. */
export function parseQuery(sql: string): Query {
  const s = parseStatement(sql)
  if (s.kind !== 'select' && s.kind !== 'setop' && s.kind !== 'with') throw new SqlError(SqlState.SYNTAX_ERROR, 'materialized view query expected', 0)
  return s
}

/** `query` with every FROM reference to `base` read through `base WHERE ts >= lo AND ts < hi` (an infinite bound: none). */
export function restrictBase(query: Query, base: string, ts: string, lo: number, hi: number): Query {
  const q = quote(ts)
  const where = [Number.isFinite(lo) ? `${q} >= ${Math.floor(lo)}` : '', Number.isFinite(hi) ? `${q} < ${Math.ceil(hi)}` : ''].filter((c) => c !== '').join(' and ')
  const sub = parseQuery(`select * from ${quote(base)}${where === '' ? '' : ` where ${where}`}`)
  const key = base.toLowerCase()
  const swap = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(swap)
    if (node === null || typeof node !== 'object') return node
    const o = node as Record<string, unknown>
    if (o.kind === 'table' && typeof o.name === 'string' && o.name.toLowerCase() === key && 'pos' in o && !('args' in o)) {
      const ref = o as TableRef & { kind: 'table' }
      return { kind: 'subquery', pos: ref.pos, query: sub, alias: ref.alias ?? ref.name, ...(ref.timestamp === undefined ? {} : { timestamp: ref.timestamp }) }
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(o)) out[k] = swap(v)
    return out
  }
  return swap(query) as Query
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

/** The rows of `data` whose bucket (timestamp column `ts`) starts in [lo, hi] (µs). */
function keepBuckets(data: Batch, ts: number, lo: number, hi: number, nanos: boolean): Batch {
  const v = data.vectors[ts] as I64Vector
  const sel = new Int32Array(data.length)
  let n = 0
  for (let i = 0; i < data.length; i++) {
    const x = Number(v.isConst ? v.data[0] : v.data[i]) / (nanos ? 1000 : 1)
    if (x >= lo && x <= hi) sel[n++] = i
  }
  if (n === data.length) return data
  return { length: n, vectors: data.vectors.map((c) => gather(c, sel, n)) }
}

/** How long after a failed write of `_mat_views` it is written again (ms), unless something else writes first. */
const PERSIST_RETRY_MS = 1000

/** Node's longest timer delay (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647

/** One interval of a timer or SAMPLE BY stride in µs (months 31 days, years 366: the longest they last). */
export function intervalMicros(count: number, unit: string): number {
  const u: Record<string, number> = {
    n: 0.001, U: 1, T: 1000, s: 1e6, m: 60e6, h: 3600e6, d: 86400e6, w: 7 * 86400e6, M: 31 * 86400e6, y: 366 * 86400e6,
  }
  return count * (u[unit] ?? 86400e6)
}

/**
 * At open: loads the views' definitions and states (`bytes`: the `_mat_views` file), follows
 * their base tables again, and refreshes in full, in the background, every valid IMMEDIATE view
 * whose base table has other rows than its last refresh saw (commits acknowledged after it and
 * not refreshed before a crash).
 */
export function resumeMatViews(catalog: Catalog, refresher: MatViewRefresher, bytes: Uint8Array | undefined): void {
  catalog.matViews.decode(bytes)
  for (const def of catalog.matViews.all()) {
    refresher.attach(def)
    const state = catalog.matViews.state(def.name)
    const base = catalog.find(def.baseTable)
    if (base === undefined) {
      if (!state.invalid) { state.invalid = true; state.reason = `table does not exist [table=${def.baseTable}]` }
      continue
    }
    // commit counts start again at open: the refresh seen so far is the table as it opened
    state.refreshTxn = base.txn
    // a damaged base table opens all the same (its reads fail with their own error): no refresh then
    let rows: number
    try { rows = base.rowCount } catch { continue }
    if (!state.invalid && def.refreshType === 'immediate' && rows !== state.baseRows) {
      refresher.addPending(def.name, 'full')
      void refresher.schedule(def.name)
    }
  }
}
