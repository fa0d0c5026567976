/**
 * The 14 TSBS `cpu-only` query types in three dialects: EpochDB (QuestDB's, as TSBS's QuestDB
 * target writes them: SAMPLE BY, LATEST ON), DuckDB and PostgreSQL (GROUP BY time_bucket /
 * date_trunc, DISTINCT ON). One instance per type with hosts and windows drawn from a seeded
 * generator, so every run and every engine asks the same question.
 */
import { METRICS, Rng, START_MICROS, endMicros, type Shape } from './generate.js'

/** One query, in each engine's dialect. */
export interface TsbsQuery {
  readonly name: string
  readonly epoch: string
  readonly duck: string
  readonly pg: string
}

const HOUR = 3_600_000_000
const MINUTE = 60_000_000

/** `2016-01-01 05:00:00` */
function sqlTs(micros: number): string {
  return new Date(micros / 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')
}

/** The queries for a data set of this shape. */
export function tsbsQueries(shape: Shape): TsbsQuery[] {
  const rng = new Rng(0x0051_7b5b)
  const end = endMicros(shape)
  /** a window of `hours` inside the data, starting on a whole minute */
  const window = (hours: number): [number, number] => {
    const span = Math.max(0, end - START_MICROS - hours * HOUR)
    const lo = START_MICROS + Math.floor((rng.next() * span) / MINUTE) * MINUTE
    return [lo, Math.min(end, lo + hours * HOUR)]
  }
  const hostsOf = (n: number): string[] => {
    const picked = new Set<number>()
    while (picked.size < Math.min(n, shape.hosts)) picked.add(rng.int(shape.hosts))
    return [...picked].map((h) => `'host_${h}'`)
  }
  const qs: TsbsQuery[] = []
  const timeEpoch = ([lo, hi]: [number, number]): string => `ts >= '${sqlTs(lo)}' AND ts < '${sqlTs(hi)}'`
  const timeOther = ([lo, hi]: [number, number]): string => `ts >= TIMESTAMP '${sqlTs(lo)}' AND ts < TIMESTAMP '${sqlTs(hi)}'`
  const add = (name: string, epoch: string, duck: string, pg: string): void => { qs.push({ name, epoch, duck, pg }) }

  const bucketDuck = (unit: 'minute' | 'hour'): string => `time_bucket(INTERVAL '1 ${unit}', ts)`
  const bucketPg = (unit: 'minute' | 'hour'): string => `date_trunc('${unit}', ts)`
  const singleGroupby = (metrics: number, hosts: number, hours: number): void => {
    const w = window(hours)
    const hs = hostsOf(hosts).join(', ')
    const aggs = METRICS.slice(0, metrics).map((m) => `max(${m}) AS max_${m}`).join(', ')
    add(`single-groupby-${metrics}-${hosts}-${hours}`,
      `SELECT ts, ${aggs} FROM cpu WHERE hostname IN (${hs}) AND ${timeEpoch(w)} SAMPLE BY 1m`,
      `SELECT ${bucketDuck('minute')} AS ts, ${aggs} FROM cpu WHERE hostname IN (${hs}) AND ${timeOther(w)} GROUP BY 1 ORDER BY 1`,
      `SELECT ${bucketPg('minute')} AS ts, ${aggs} FROM cpu WHERE hostname IN (${hs}) AND ${timeOther(w)} GROUP BY 1 ORDER BY 1`)
  }
  singleGroupby(1, 1, 1)
  singleGroupby(1, 1, 12)
  singleGroupby(1, 8, 1)
  singleGroupby(5, 1, 1)
  singleGroupby(5, 8, 1)
  for (const hosts of [1, 8]) {
    const w = window(8)
    const hs = hostsOf(hosts).join(', ')
    const aggs = METRICS.map((m) => `max(${m}) AS max_${m}`).join(', ')
    add(`cpu-max-all-${hosts}`,
      `SELECT ts, ${aggs} FROM cpu WHERE hostname IN (${hs}) AND ${timeEpoch(w)} SAMPLE BY 1h`,
      `SELECT ${bucketDuck('hour')} AS ts, ${aggs} FROM cpu WHERE hostname IN (${hs}) AND ${timeOther(w)} GROUP BY 1 ORDER BY 1`,
      `SELECT ${bucketPg('hour')} AS ts, ${aggs} FROM cpu WHERE hostname IN (${hs}) AND ${timeOther(w)} GROUP BY 1 ORDER BY 1`)
  }
  for (const [label, n] of [['1', 1], ['5', 5], ['all', METRICS.length]] as const) {
    const w = window(12)
    const aggs = METRICS.slice(0, n).map((m) => `avg(${m}) AS avg_${m}`).join(', ')
    add(`double-groupby-${label}`,
      `SELECT ts, hostname, ${aggs} FROM cpu WHERE ${timeEpoch(w)} SAMPLE BY 1h`,
      `SELECT ${bucketDuck('hour')} AS ts, hostname, ${aggs} FROM cpu WHERE ${timeOther(w)} GROUP BY 1, 2 ORDER BY 1, 2`,
      `SELECT ${bucketPg('hour')} AS ts, hostname, ${aggs} FROM cpu WHERE ${timeOther(w)} GROUP BY 1, 2 ORDER BY 1, 2`)
  }
  for (const label of ['1', 'all'] as const) {
    const w = window(12)
    const host = label === '1' ? ` AND hostname IN (${hostsOf(1).join(', ')})` : ''
    add(`high-cpu-${label}`,
      `SELECT * FROM cpu WHERE usage_user > 90.0 AND ${timeEpoch(w)}${host}`,
      `SELECT * FROM cpu WHERE usage_user > 90.0 AND ${timeOther(w)}${host}`,
      `SELECT * FROM cpu WHERE usage_user > 90.0 AND ${timeOther(w)}${host}`)
  }
  add('lastpoint',
    'SELECT * FROM cpu LATEST ON ts PARTITION BY hostname',
    'SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, ts DESC',
    'SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, ts DESC')
  {
    const [, hi] = window(1)
    add('groupby-orderby-limit',
      `SELECT ts, max(usage_user) AS max_usage_user FROM cpu WHERE ts < '${sqlTs(hi)}' SAMPLE BY 1m ORDER BY ts DESC LIMIT 5`,
      `SELECT ${bucketDuck('minute')} AS ts, max(usage_user) AS max_usage_user FROM cpu WHERE ts < TIMESTAMP '${sqlTs(hi)}' GROUP BY 1 ORDER BY 1 DESC LIMIT 5`,
      `SELECT ${bucketPg('minute')} AS ts, max(usage_user) AS max_usage_user FROM cpu WHERE ts < TIMESTAMP '${sqlTs(hi)}' GROUP BY 1 ORDER BY 1 DESC LIMIT 5`)
  }
  // the same questions written as GROUP BY timestamp_floor(...) / date_trunc(...) (issue #16 part 6)
  const byName = (n: string): TsbsQuery => qs.find((q) => q.name === n)!
  for (const [name, bucket] of [['double-groupby-all', "timestamp_floor('h', ts)"], ['single-groupby-5-8-1', "date_trunc('minute', ts)"]] as const) {
    const q = byName(name)
    const sample = /^SELECT ts, (.*) FROM cpu WHERE (.*) SAMPLE BY 1[mh]$/.exec(q.epoch)!
    const keyed = sample[1]!.startsWith('hostname, ')
    qs.push({ ...q, name: `${name} (GROUP BY ${bucket.slice(0, bucket.indexOf('('))})`, epoch: `SELECT ${bucket} AS ts, ${sample[1]} FROM cpu WHERE ${sample[2]} GROUP BY 1${keyed ? ', 2' : ''}` })
  }
  return qs
}
