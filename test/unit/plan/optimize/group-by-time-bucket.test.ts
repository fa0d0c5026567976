// Rule group-by-time-bucket: GROUP BY timestamp_floor(...) / date_trunc(...) over the designated
// timestamp runs as SAMPLE BY (EXPLAIN shows it) and answers exactly what the hash aggregate
// answers for the same buckets computed in a subquery (which the rule does not touch), over
// random rows inserted out of order, with null keys and values.
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { Rng } from '../../../adapters/random-vectors.js'

const plan = async (db: Database, sql: string): Promise<string> => (await db.query(`explain ${sql}`)).rows.map((r) => String(r[0])).join('\n')

/** Rows as sorted text lines, doubles to 12 significant digits. */
async function rows(db: Database, sql: string): Promise<string[]> {
  return (await db.query(sql)).rows.map((r) => r.map((v) => (typeof v === 'number' ? String(Number(v.toPrecision(12))) : String(v))).join('|')).sort()
}

async function setup(seed: number): Promise<Database> {
  const r = new Rng(seed)
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, k int, v double) timestamp(ts) partition by day')
  const start = Date.UTC(2023, 10, 20) * 1000
  const values: string[] = []
  for (let i = 0; i < 600; i++) {
    // mostly minutes-apart rows over ~100 days, some within the same second, some far back
    const ts = start + (r.int(10) === 0 ? -r.int(2 ** 40) : r.int(100 * 86_400) * 1_000_000 + r.int(1_000_000))
    const sym = r.int(6) === 0 ? 'null' : `'s${r.int(4)}'`
    const k = r.int(6) === 0 ? 'null' : String(r.int(3))
    const v = r.int(8) === 0 ? 'null' : String(Math.round((r.next() - 0.3) * 1e4) / 100)
    values.push(`(${ts}::timestamp, ${sym}, ${k}, ${v})`)
  }
  await db.query(`insert into t values ${values.join(', ')}`)
  return db
}

const BUCKETS = [
  "timestamp_floor('s', ts)", "timestamp_floor('T', ts)", "timestamp_floor('250T', ts)", "timestamp_floor('m', ts)", "timestamp_floor('15m', ts)", "timestamp_floor('h', ts)",
  "timestamp_floor('7h', ts)", "timestamp_floor('d', ts)", "timestamp_floor('3d', ts)", "timestamp_floor('w', ts)", "timestamp_floor('2w', ts)", "timestamp_floor('M', ts)",
  "timestamp_floor('5M', ts)", "timestamp_floor('y', ts)", "timestamp_floor('10U', ts)", "timestamp_floor('1ms', ts)",
  "date_trunc('second', ts)", "date_trunc('minute', ts)", "date_trunc('hour', ts)", "date_trunc('day', ts)", "date_trunc('week', ts)", "date_trunc('month', ts)",
  "date_trunc('quarter', ts)", "date_trunc('year', ts)", "date_trunc('milliseconds', ts)", "date_trunc('HOUR', ts)",
]
const AGGS = 'count(), sum(v), avg(v), min(v), max(v), first(v), last(v), count(v), min(sym)'

t.test('bucketed GROUP BY answers what the hash aggregate answers', async (t) => {
  for (const seed of [1, 2, 3]) {
    const db = await setup(seed)
    for (const b of BUCKETS) {
      for (const [extra, group] of [['', 'b'], ['sym, ', 'b, sym'], ['sym, k, ', 'b, sym, k']] as const) {
        const fast = `select ${b} b, ${extra}${AGGS} from t group by ${group}`
        const reference = `select b, ${extra}${AGGS} from (select ${b} b, sym, k, v from t) group by ${group}`
        t.match(await plan(db, fast), /^Sample By/, `${b} ${group}: runs as SAMPLE BY`)
        t.notMatch(await plan(db, reference), /Sample By/, 'the reference runs the hash aggregate')
        t.same(await rows(db, fast), await rows(db, reference), `seed ${seed}: ${fast}`)
      }
    }
    // the same, filtered to a time window and with the bucket key not first
    const w = "where ts >= '2023-12-01' and ts < '2024-01-15' and v > 0"
    t.same(await rows(db, `select sym, timestamp_floor('h', ts) b, max(v) from t ${w} group by sym, b`),
      await rows(db, `select sym, b, max(v) from (select sym, timestamp_floor('h', ts) b, v from t ${w}) group by sym, b`), `seed ${seed}: filtered, key second`)
    await db.close()
  }
})

t.test('the SAMPLE BY it becomes answers the same rows as the written SAMPLE BY', async (t) => {
  const db = await setup(4)
  t.same(await rows(db, "select timestamp_floor('h', ts) ts, sym, avg(v) from t group by 1, 2"), await rows(db, 'select ts, sym, avg(v) from t sample by 1h'))
  t.same(await rows(db, "select date_trunc('month', ts) ts, count() from t group by 1"), await rows(db, 'select ts, count() from t sample by 1M'))
  await db.close()
})

t.test('forms with no SAMPLE BY equivalent stay GROUP BY', async (t) => {
  const db = await setup(5)
  for (const sql of [
    "select timestamp_floor('h', ts, '2024-01-01T00:30:00Z') b, count() from t group by b", // with an offset
    "select timestamp_floor('h', ts) b, ts, count() from t group by b, ts", // another key reads ts
    "select date_trunc('decade', ts) b, count() from t group by b", // no SAMPLE BY unit
    "select timestamp_floor('h', ts) b from t group by b", // no aggregate
    "select timestamp_floor('h', b) x, count() from (select dateadd('m', 1, ts) b, v from t) group by x", // not the designated timestamp
  ]) t.match(await plan(db, sql), /GroupBy/, sql)
  await db.close()
})

t.test('on a table large enough for worker threads, the rewritten GROUP BY still answers the hash aggregate\'s rows', async (t) => {
  const { PARALLEL_STATS } = await import('../../../../lib/exec/parallel/parallel-aggregate.js')
  const { PHYSICAL_TUNING } = await import('../../../../lib/plan/physical/index.js')
  // the physical planner splits scans of at least minRows rows: lowered so a small table takes worker threads
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 20_000
  t.teardown(() => { PHYSICAL_TUNING.minRows = minRows })
  const n = PHYSICAL_TUNING.minRows + 4321
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, v double) timestamp(ts) partition by day')
  const ts = new Float64Array(n)
  const v = new Float64Array(n)
  const sym: string[] = []
  for (let k = 0; k < n; k++) { ts[k] = 1704067200000000 + k * 997_000; v[k] = ((k * 31) % 1000) / 10; sym.push(`s${(k * 7) % 5}`) }
  await db.append('t', { ts, sym, v })
  const before = PARALLEL_STATS.runs
  const fast = "select timestamp_floor('h', ts) b, sym, max(v), min(v), count() from t group by b, sym"
  t.match(await plan(db, fast), /^(Async )?Sample By/) // the physical planner splits it across workers
  t.same(await rows(db, fast), await rows(db, "select b, sym, max(v), min(v), count() from (select timestamp_floor('h', ts) b, sym, v from t) group by b, sym"))
  t.comment(`parallel runs: ${PARALLEL_STATS.runs - before}`)
  await db.close()
})
