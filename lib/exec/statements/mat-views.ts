/**
 * CREATE / REFRESH / DROP / ALTER MATERIALIZED VIEW (QuestDB 9). A materialized view is a table
 * of the catalog filled by its query — a SAMPLE BY (or GROUP BY timestamp_floor) over one base
 * table with a designated timestamp — whose designated timestamp is the bucket and whose
 * non-aggregate columns, with it, are DEDUP UPSERT KEYS; its definition and refresh state live in
 * `catalog.matViews` and the data directory's `_mat_views` file. Refreshing is the
 * {@link MatViewRefresher}'s business; this module checks and applies the statements, refuses
 * writes to a view, and invalidates the views a change of their base table breaks.
 */
import { SqlError, SqlState, internalError, notSupported } from '../../errors.js'
import { periodLength } from '../../sql/build/matview.js'
import type { CreateMatView, Expr, MatViewPeriod, MatViewRefresh, MatViewStatement, PartitionUnit, Query, Select, Statement } from '../../sql/ast.js'
import { bindQuery, type BindContext } from '../../plan/bind-query.js'
import { tablesRead } from '../../plan/tables-read.js'
import { containsAggregate } from '../../plan/naming.js'
import { type Execution, done } from '../../result.js'
import type { ColumnMeta } from '../../storage/table.js'
import type { MatViewDef, MatViewRefreshType } from '../../storage/mat-views.js'
import { parseTimestamp } from '../../types/timestamp.js'
import { checkTimeZone, utcToLocal } from '../../types/time-zone.js'
import { periodMicros } from '../mat-view-timer.js'
import { ZONE_SLACK, intervalMicros, parseQuery, type MatViewRefresher } from '../mat-view-refresh.js'
import { ddlInBackground, type RunEnv } from './run.js'
import { isNonPersisted, nonPersisted, tableMeta } from './ddl.js'

/** What the statements need besides the run environment: the refresher and the clock. */
export interface MatViewEnv extends RunEnv {
  readonly refresher: MatViewRefresher
}

/** Runs a materialized-view statement. */
export async function runMatView(stmt: MatViewStatement, bc: BindContext, env: MatViewEnv, now: number): Promise<Execution> {
  switch (stmt.op) {
    case 'create': return createMatView(stmt, bc, env, now)
    case 'drop': {
      const def = env.catalog.matViews.find(stmt.name)
      if (def === undefined) {
        if (stmt.ifExists && env.catalog.find(stmt.name) === undefined) return done('drop_materialized_view')
        throw notMatView(env, stmt.name, stmt.namePos)
      }
      env.refresher.detach(def.name)
      await env.refresher.settled([def.name])
      await ddlInBackground(env, () => { env.catalog.drop(def.name) }, done('drop_materialized_view'))
      env.catalog.matViews.remove(def.name)
      env.refresher.persist()
      return done('drop_materialized_view')
    }
    case 'refresh': {
      const def = env.catalog.matViews.find(stmt.name)
      if (def === undefined) throw notMatView(env, stmt.name, stmt.namePos)
      const state = env.catalog.matViews.state(def.name)
      let range: { lo: number; hi: number } | undefined
      if (stmt.mode === 'full') {
        const base = env.catalog.find(def.baseTable)
        if (base === undefined) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${def.baseTable}]`, stmt.namePos)
        state.invalid = false
        state.reason = ''
        env.refresher.attach(def)
        env.refresher.addPending(def.name, 'full')
      } else if (stmt.mode === 'range') {
        const lo = parseTimestampLiteral(stmt.from!.value, stmt.from!.pos)
        const hi = parseTimestampLiteral(stmt.to!.value, stmt.to!.pos)
        if (hi < lo) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'TO timestamp must not be earlier than FROM timestamp', stmt.to!.pos)
        range = { lo, hi: hi - 1 }
      } else if (!state.invalid) {
        // INCREMENTAL: what commits noted and a MANUAL or timer view has not applied yet; as QuestDB,
        // a view never refreshed (DEFERRED) takes the whole base table, a period view its periods
        // completed since its last refresh
        if (state.lastRefreshFinish === null) env.refresher.addPending(def.name, 'full')
        else if (def.period !== undefined) env.refresher.addPending(def.name, { lo: Infinity, hi: -Infinity })
      }
      env.refresher.errors.delete(def.name.toLowerCase())
      if (!state.invalid || stmt.mode === 'full') await env.refresher.schedule(def.name, state.invalid ? undefined : range)
      const err = env.refresher.errors.get(def.name.toLowerCase())
      if (err !== undefined) throw err
      return done('refresh_materialized_view')
    }
    case 'alter': {
      const def = env.catalog.matViews.find(stmt.name)
      if (def === undefined) throw notMatView(env, stmt.name, stmt.namePos)
      const a = stmt.action
      if (a.kind === 'set_ttl') {
        const t = env.catalog.get(def.name)
        await ddlInBackground(env, () => { t.setMeta({ ...t.meta, ttl: { count: a.count, unit: a.unit } }) }, done('alter_materialized_view'))
      } else if (a.kind === 'set_refresh_limit') {
        // QuestDB: SET REFRESH LIMIT 0 ... clears the limit
        const { refreshLimit: _old, ...rest } = def
        const next: MatViewDef = { ...rest, ...(a.count > 0 ? { refreshLimit: { count: a.count, unit: a.unit } } : {}) }
        env.catalog.matViews.put(next)
        env.refresher.persist()
      } else {
        // a timer or period left from before goes (materialized_views() would show it); DEFERRED,
        // a property of the CREATE, stays
        const { timer: _old, period: _oldPeriod, ...rest } = def
        const next: MatViewDef = { ...rest, ...refreshOf(a.refresh, now, sampledSelect(parseQuery(def.sql))), ...(def.deferred === true ? { deferred: true } : {}) }
        env.catalog.matViews.put(next)
        // a new period starts counting from its own boundary
        if (next.period === undefined || def.period === undefined || next.period.count !== def.period.count || next.period.unit !== def.period.unit || next.period.timeZone !== def.period.timeZone) {
          env.catalog.matViews.state(def.name).periodHi = null
        }
        env.refresher.attach(next)
        env.refresher.persist()
      }
      return done('alter_materialized_view')
    }
  }
}

/** 42809 / 42P01 for a name that is not a materialized view's. */
function notMatView(env: RunEnv, name: string, pos: number): SqlError {
  return env.catalog.find(name) !== undefined || env.catalog.findView(name) !== undefined
    ? new SqlError(SqlState.WRONG_OBJECT_TYPE, `materialized view name expected, got table name [table=${name}]`, pos)
    : new SqlError(SqlState.UNDEFINED_TABLE, `materialized view does not exist [view=${name}]`, pos)
}

/**
 * The refresh type, timer and period of a REFRESH clause at `now`. A timer's START is a wall-clock
 * time in its TIME ZONE (QuestDB's timer counts in the zone's local time); a period's start is the
 * boundary of the period under way on its zone's wall clock (periods are aligned to the epoch there).
 */
function refreshOf(r: MatViewRefresh, now: number, sel: Select | undefined): Pick<MatViewDef, 'refreshType' | 'timer' | 'deferred' | 'period'> {
  const refreshType: MatViewRefreshType = r.kind === 'every' ? 'timer' : r.kind
  const deferred = r.deferred ? { deferred: true } : {}
  const period = r.period === undefined ? {} : { period: periodOf(r.period.length === undefined ? sampleByPeriod(r.period, sel) : r.period, now) }
  if (r.kind !== 'every') return { refreshType, ...deferred, ...period }
  const zone = r.timeZone === undefined ? {} : { timeZone: checkTimeZone(r.timeZone.value, r.timeZone.pos) }
  // no START: now, on the zone's wall clock
  const start = r.start !== undefined ? parseTimestampLiteral(r.start.value, r.start.pos) : zone.timeZone === undefined ? now : utcToLocal(zone.timeZone, now)
  const timerStart = period.period?.start ?? start
  return { refreshType, timer: { count: r.every!.count, unit: r.every!.unit, start: timerStart, ...zone }, ...deferred, ...period }
}

/**
 * `PERIOD (SAMPLE BY INTERVAL)` (QuestDB's compact form): the period of the query's SAMPLE BY, its
 * stride and TIME ZONE, with LENGTH's checks at the stride; a non-zero WITH OFFSET is refused.
 */
function sampleByPeriod(p: MatViewPeriod, sel: Select | undefined): MatViewPeriod {
  const sb = sel?.sampleBy
  if (sb === undefined) throw notSupported('PERIOD (SAMPLE BY INTERVAL) needs a SAMPLE BY query', p.pos)
  const length = periodLength(sb.interval, sb.intervalPos)
  const align = sb.align
  const literal = (e: Expr | undefined): string | undefined => e !== undefined && e.kind === 'literal' && e.type === 'string' ? e.value : undefined
  const zone = align.kind === 'calendar' ? literal(align.timeZone) : undefined
  const offset = align.kind === 'calendar' ? literal(align.offset) : undefined
  if (offset !== undefined && !/^[+-]?0?0:00$/.test(offset)) throw new SqlError(SqlState.SYNTAX_ERROR, "PERIOD (SAMPLE BY INTERVAL) can't be used with WITH OFFSET", sb.intervalPos)
  return { pos: p.pos, length, ...(zone === undefined ? {} : { timeZone: { value: zone, pos: sb.intervalPos } }) }
}

/** A PERIOD clause as the definition keeps it (22023 `invalid timezone` at an unknown zone). */
function periodOf(p: MatViewPeriod, now: number): NonNullable<MatViewDef['period']> {
  if (p.length === undefined) throw internalError('a PERIOD without its LENGTH')
  const timeZone = p.timeZone === undefined ? undefined : checkTimeZone(p.timeZone.value, p.timeZone.pos)
  const length = periodMicros(p.length.count, p.length.unit)
  const local = timeZone === undefined ? now : utcToLocal(timeZone, now)
  return {
    count: p.length.count, unit: p.length.unit, start: Math.floor(local / length) * length,
    ...(timeZone === undefined ? {} : { timeZone }),
    ...(p.delay === undefined ? {} : { delay: { count: p.delay.count, unit: p.delay.unit } }),
  }
}

/** The SELECT that carries the SAMPLE BY (through WITH). */
function sampledSelect(q: Query): Select | undefined {
  if (q.kind === 'with') return sampledSelect(q.body)
  return q.kind === 'select' ? q : undefined
}

/** The stride of a `timestamp_floor('1h', ts)` key, or undefined. */
function floorStride(e: Expr): string | undefined {
  if (e.kind !== 'call' || e.name.toLowerCase() !== 'timestamp_floor') return undefined
  const a = e.args[0]
  return a !== undefined && a.kind === 'literal' && a.type === 'string' ? a.value : undefined
}

/** A timestamp literal in µs, or 22007 at `pos`. */
function parseTimestampLiteral(text: string, pos: number): number {
  const v = parseTimestamp(text)
  if (v === null) throw new SqlError(SqlState.INVALID_DATETIME_FORMAT, `invalid timestamp: ${text}`, pos)
  return v
}

/** Functions whose value a refresh could not reproduce (QuestDB refuses them in a view's query). */
const NON_DETERMINISTIC = new Set(['now', 'now_ns', 'sysdate', 'systimestamp', 'systimestamp_ns', 'today', 'yesterday', 'tomorrow', 'read_parquet', 'parquet_scan'])

/** QuestDB's `non-deterministic function cannot be used in materialized view: now` at the first such call in `query`. */
function refuseNonDeterministic(query: Query): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) { for (const n of node) visit(n); return }
    if (node === null || typeof node !== 'object') return
    const o = node as { kind?: unknown; name?: unknown; pos?: unknown }
    if (o.kind === 'call' && typeof o.name === 'string') {
      const name = o.name.toLowerCase()
      if (NON_DETERMINISTIC.has(name) || name.startsWith('rnd_')) {
        throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `non-deterministic function cannot be used in materialized view: ${name}`, typeof o.pos === 'number' ? o.pos : -1)
      }
    }
    for (const v of Object.values(node)) visit(v)
  }
  visit(query)
}

/** QuestDB's default partitioning for a sampling interval: by DAY up to a minute, MONTH up to an hour, YEAR above. */
function defaultPartition(bucket: number): PartitionUnit {
  if (bucket > 3600e6) return 'YEAR'
  if (bucket > 60e6) return 'MONTH'
  return 'DAY'
}

async function createMatView(stmt: CreateMatView, bc: BindContext, env: MatViewEnv, now: number): Promise<Execution> {
  const { catalog } = env
  const tag = 'create_materialized_view'
  if (catalog.matViews.find(stmt.name) !== undefined) {
    if (stmt.ifNotExists) return done(tag)
    throw new SqlError(SqlState.DUPLICATE_TABLE, `view already exists [view=${stmt.name}]`, stmt.namePos)
  }
  if (catalog.find(stmt.name) !== undefined || catalog.findView(stmt.name) !== undefined) {
    if (stmt.ifNotExists) return done(tag)
    throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${stmt.name}]`, stmt.namePos)
  }
  const queryPos = stmt.query.pos
  const plan = bindQuery(stmt.query, bc)
  refuseNonDeterministic(stmt.query)
  // the base table: named by WITH BASE, else the one table the query reads
  const read = [...tablesRead(plan).keys()]
  let baseName: string
  if (stmt.base !== undefined) {
    const t = catalog.find(stmt.base.name)
    if (t === undefined) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${stmt.base.name}]`, stmt.base.pos)
    if (!read.includes(t)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'base table is not referenced in materialized view query', stmt.base.pos)
    baseName = t.meta.name
  } else {
    if (read.length !== 1) {
      throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, read.length === 0
        ? 'missing base table, materialized views have to be based on a table'
        : "more than one table used in query, base table has to be set using 'WITH BASE'", queryPos)
    }
    baseName = read[0]!.meta.name
  }
  const base = catalog.get(baseName)
  if (base.meta.timestampIndex < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `base table has no designated timestamp [table=${baseName}]`, stmt.base?.pos ?? queryPos)
  if (catalog.findView(baseName) !== undefined) throw notSupported('materialized views over views are not supported', stmt.base?.pos ?? queryPos)
  // the sampling interval: SAMPLE BY, or a GROUP BY key timestamp_floor('<stride>', ts)
  const sel = sampledSelect(stmt.query)
  let stride: string | undefined
  // buckets aligned to UTC need no slack around them; under a time zone a day (a week, ...) may
  // last an hour longer than its stride (daylight saving)
  let slackMicros = 0
  if (sel?.sampleBy !== undefined) {
    const sb = sel.sampleBy
    if (sb.fill.length > 0 && !(sb.fill.length === 1 && sb.fill[0]!.kind === 'none')) throw notSupported('FILL is not supported for materialized views', sb.fill[0]!.pos)
    if (sb.from !== undefined || sb.to !== undefined) throw notSupported('FROM-TO is not supported for materialized views', (sb.from ?? sb.to)!.pos)
    if (sb.align.kind === 'first observation') throw notSupported('ALIGN TO FIRST OBSERVATION is not supported for materialized views', sb.pos)
    stride = sb.interval
    if (sb.align.kind === 'calendar' && (sb.align.timeZone !== undefined || sb.align.offset !== undefined)) slackMicros = ZONE_SLACK
  } else if (sel?.groupBy !== undefined) {
    for (const c of sel.columns) {
      if (stride !== undefined) break
      stride = floorStride(c.expr)
      // timestamp_floor(unit, ts, offset / time zone)
      if (stride !== undefined && c.expr.kind === 'call' && c.expr.args.length > 2) slackMicros = ZONE_SLACK
    }
  }
  if (sel === undefined || stride === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'materialized view query requires a sampling interval, use SAMPLE BY or GROUP BY timestamp_floor()', queryPos)
  const m = /^(\d*)([a-zA-Z])$/.exec(stride)
  const bucketMicros = m === null ? 86400e6 : intervalMicros(m[1] === '' ? 1 : Number(m[1]), m[2]!)
  // GROUP BY timestamp_floor(...): the floored column is the view's designated timestamp
  const floorAt = sel.sampleBy === undefined ? sel.columns.findIndex((c) => floorStride(c.expr) !== undefined) : -1
  const tsIndex = floorAt >= 0 && plan.output[floorAt]?.type === 'TIMESTAMP' ? floorAt : plan.timestampIndex
  if (tsIndex < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'TIMESTAMP column is not present in select list', queryPos)
  for (const c of plan.output) if (isNonPersisted(c.type)) throw nonPersisted(c.type, queryPos, c.name)
  if (sel.columns.length !== plan.output.length) throw notSupported('materialized view query must name its columns (no *)', queryPos)
  // the bucket and the non-aggregate columns identify a row: a refreshed bucket's rows replace the old ones
  const keys = plan.output.filter((_, i) => i === tsIndex || !containsAggregate(sel.columns[i]!.expr)).map((c) => ({ name: c.name, pos: queryPos }))
  const columns: ColumnMeta[] = plan.output.map((c) => {
    const src = base.meta.columns.find((x) => x.name.toLowerCase() === c.name.toLowerCase() && x.type === c.type)
    return { name: c.name, type: c.type, indexed: false, symbolCapacity: src?.symbolCapacity ?? 128, symbolCached: true }
  })
  const partitionBy = stmt.partitionBy ?? defaultPartition(bucketMicros)
  if (partitionBy === 'NONE') throw new SqlError(SqlState.SYNTAX_ERROR, 'materialized view has to be partitioned', stmt.partitionByPos ?? stmt.pos)
  const meta = tableMeta(stmt.name, stmt.namePos, columns, {
    timestamp: { name: plan.output[tsIndex]!.name, pos: queryPos }, partitionBy, dedupKeys: keys,
    ...(stmt.ttl === undefined ? {} : { ttl: stmt.ttl }),
  }, stmt.pos, catalog.maxNameLength)
  // the refresh clause is checked (time zones, PERIOD (SAMPLE BY INTERVAL)) before the view's table exists
  const refresh = refreshOf(stmt.refresh, now, sel)
  let id = 0
  await ddlInBackground(env, () => { id = catalog.create(meta, stmt.namePos).meta.id }, done(tag))
  const def: MatViewDef = { id, name: stmt.name, baseTable: baseName, sql: stmt.sql, bucketMicros, slackMicros, ...refresh }
  catalog.matViews.put(def)
  catalog.matViews.state(def.name)
  try { env.refresher.persist() } catch (e) {
    // no definition kept, and no plain, writable table of the view's name left behind either
    catalog.matViews.remove(def.name)
    await ddlInBackground(env, () => { catalog.drop(def.name) }, done(tag)).catch(() => undefined)
    throw e
  }
  env.refresher.attach(def)
  if (!stmt.refresh.deferred) {
    env.refresher.addPending(def.name, 'full')
    void env.refresher.schedule(def.name)
  }
  return done(tag)
}

/** 42809 `cannot modify materialized view [view=v]` (QuestDB's message) when `name` is a materialized view's table. */
export function refuseMatView(env: Pick<RunEnv, 'catalog'>, name: string, pos: number): void {
  const v = env.catalog.matViews.find(name)
  if (v !== undefined) throw new SqlError(SqlState.WRONG_OBJECT_TYPE, `cannot modify materialized view [view=${v.name}]`, pos)
}

/** Why a statement that succeeded invalidates the views over the tables it changed (QuestDB's reasons). */
function invalidations(stmt: Statement): { table: string; reason: string }[] {
  switch (stmt.kind) {
    case 'drop_table': return stmt.names.map((n) => ({ table: n.name, reason: `table does not exist [table=${n.name}]` }))
    case 'truncate_table': return stmt.names.map((n) => ({ table: n.name, reason: 'truncate operation' }))
    case 'rename_table': return [{ table: stmt.from, reason: 'table rename operation' }]
    case 'update': return [{ table: stmt.table, reason: 'update operation' }]
    case 'alter_table': {
      const k = stmt.action.kind
      const reason = k === 'drop_column' ? 'drop column operation' : k === 'rename_column' ? 'rename column operation'
        : k === 'alter_column_type' ? 'change column type operation' : k === 'drop_partition' ? 'drop partition operation' : undefined
      return reason === undefined ? [] : [{ table: stmt.table, reason }]
    }
    default: return []
  }
}

/**
 * After a statement succeeded: the views over a table it dropped, truncated, renamed, updated or
 * whose columns it changed become invalid (they refresh no more until REFRESH ... FULL; a view
 * that never finished a refresh stays valid, except after DROP / RENAME), and the
 * definitions of views whose own table is gone (DROP ALL TABLES) go too.
 */
export function afterStatement(stmt: Statement, env: MatViewEnv): void {
  const mv = env.catalog.matViews
  if (mv.size === 0) return
  let changed = false
  // a DROP or RENAME of the base table leaves a view nothing to read: it goes invalid whatever its state
  const forced = stmt.kind === 'drop_table' || stmt.kind === 'rename_table'
  for (const { table, reason } of invalidations(stmt)) {
    for (const def of mv.over(table)) {
      const s = mv.state(def.name)
      if (s.invalid) continue
      if (!forced && s.lastRefreshFinish === null) {
        // QuestDB (MatViewRefreshJob.invalidateView, testBaseTableTruncateDoesNotInvalidateFreshMatView):
        // a view that never finished a refresh holds nothing the change could make stale, so it
        // stays valid; a refresh already under way may have read the base table before the change,
        // so it runs again after
        if (env.refresher.busy(def.name)) {
          env.refresher.addPending(def.name, 'full')
          void env.refresher.schedule(def.name)
        }
      } else {
        s.invalid = true
        s.reason = reason
        changed = true
      }
      // and the views over it (QuestDB: whether or not it was marked)
      if (env.refresher.invalidateDependents(def.name, 'base materialized view is invalidated')) changed = true
    }
  }
  // only DROP TABLE (one, several or ALL) can take a view's table away
  if (stmt.kind === 'drop_table') {
    for (const def of mv.all()) {
      if (env.catalog.find(def.name) === undefined) { env.refresher.detach(def.name); mv.remove(def.name); changed = true }
    }
  }
  // a failed write keeps the invalidation in memory (the views refresh no more) and is retried
  // by every later write: see MatViewRefresher.persistQuietly
  if (changed || env.refresher.persistError !== undefined) env.refresher.persistQuietly()
}
