/**
 * WINDOW JOIN and HORIZON JOIN against DuckDB's nearest forms in one process: a range join with
 * GROUP BY for the window (DuckDB has no WINDOW JOIN), and an ASOF JOIN over left rows times
 * offsets for the horizon. Left `l`: LEFT rows, one a second; right `r`: RIGHT rows spread over
 * the same span; KEYS keys. Each query runs on both engines in turn; CPU time of the whole
 * process (best and median of ROUNDS) and the answers are printed, ours also as a ratio of
 * DuckDB's.
 *
 *   node --import tsx test/bench/window-join.ts [left=20000] [right=400000] [keys=50] [rounds=5]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
process.env.EPOCHDB_WORKERS ??= '0'
import { Database } from '../../lib/index.js'

const LEFT = Number(process.argv[2] ?? 20_000)
const RIGHT = Number(process.argv[3] ?? 400_000)
const KEYS = Number(process.argv[4] ?? 50)
const ROUNDS = Number(process.argv[5] ?? 5)
const T0 = Date.UTC(2024, 0, 1) * 1000
const SPAN = LEFT * 1_000_000

const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000 }
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]! }

const db = await Database.open()
await db.query('create table l (ts timestamp, k int, q double) timestamp(ts)')
await db.query('create table r (ts timestamp, k int, v double) timestamp(ts)')
{
  const ts = new Float64Array(LEFT), k = new Int32Array(LEFT), q = new Float64Array(LEFT)
  for (let i = 0; i < LEFT; i++) { ts[i] = T0 + i * 1_000_000; k[i] = (i * 7) % KEYS; q[i] = i % 10 }
  await db.append('l', { ts, k, q })
  const rts = new Float64Array(RIGHT), rk = new Int32Array(RIGHT), v = new Float64Array(RIGHT)
  for (let i = 0; i < RIGHT; i++) { rts[i] = T0 + Math.floor(i * (SPAN / RIGHT)); rk[i] = (i * 13) % KEYS; v[i] = (i % 1000) / 8 }
  await db.append('r', { ts: rts, k: rk, v })
}
const { DuckDBInstance } = await import('@duckdb/node-api')
const inst = await DuckDBInstance.create(':memory:')
const conn = await inst.connect()
await conn.run(`CREATE TABLE l AS SELECT make_timestamp(${T0}::BIGINT + x * 1000000) AS ts, ((x * 7) % ${KEYS})::INT AS k, (x % 10)::DOUBLE AS q FROM range(0, ${LEFT}) t(x)`)
await conn.run(`CREATE TABLE r AS SELECT make_timestamp(${T0}::BIGINT + floor(x * (${SPAN} / ${RIGHT}))::BIGINT) AS ts, ((x * 13) % ${KEYS})::INT AS k, (x % 1000) / 8.0 AS v FROM range(0, ${RIGHT}) t(x)`)
await conn.run('CREATE TABLE offs AS SELECT * FROM (VALUES (0), (1000000), (5000000), (30000000), (60000000)) t(o)')

const CASES: [string, string, string][] = [
  ['window ±10s keyed',
    'select count(), sum(s) from (select l.ts, l.k, sum(r.v) s from l window join r on (k) range between 10 seconds preceding and 10 seconds following exclude prevailing)',
    'SELECT count(*), sum(s) FROM (SELECT l.ts, l.k, sum(r.v) s FROM l LEFT JOIN r ON r.k = l.k AND r.ts BETWEEN l.ts - INTERVAL 10 SECOND AND l.ts + INTERVAL 10 SECOND GROUP BY l.ts, l.k)'],
  ['window ±2s no keys',
    'select count(), sum(s) from (select l.ts, sum(r.v) s from l window join r range between 2 seconds preceding and 2 seconds following exclude prevailing)',
    'SELECT count(*), sum(s) FROM (SELECT l.ts, sum(r.v) s FROM l LEFT JOIN r ON r.ts BETWEEN l.ts - INTERVAL 2 SECOND AND l.ts + INTERVAL 2 SECOND GROUP BY l.ts)'],
  ['horizon 5 offsets keyed',
    'select h.offset, avg(r.v) from l horizon join r on (k) list (0, 1s, 5s, 30s, 60s) as h order by 1',
    'SELECT o, avg(v) FROM (SELECT l.k, l.ts, o FROM l, offs) x ASOF LEFT JOIN r ON r.k = x.k AND x.ts + to_microseconds(o) >= r.ts GROUP BY o ORDER BY o'],
]

console.log(`WINDOW / HORIZON JOIN vs DuckDB: left ${LEFT}, right ${RIGHT}, ${KEYS} keys, ${ROUNDS} rounds, ${new Date().toISOString()}, workers=${process.env['EPOCHDB_WORKERS']}`)
for (const [name, ours, duck] of CASES) {
  const runOurs = async () => (await db.query(ours)).rows.map((r) => r.map(String).join(' ')).join('|')
  const runDuck = async () => (await conn.runAndReadAll(duck)).getRows().map((r) => r.map(String).join(' ')).join('|')
  const a = await runOurs()
  const b = await runDuck()
  const c: number[][] = [[], []]
  for (let i = 0; i < ROUNDS; i++) {
    let t = cpuMs(); await runOurs(); c[0]!.push(cpuMs() - t)
    t = cpuMs(); await runDuck(); c[1]!.push(cpuMs() - t)
  }
  const [o, d] = [Math.min(...c[0]!), Math.min(...c[1]!)]
  console.log(`${name}: epochdb cpu ${o.toFixed(1)} / ${median(c[0]!).toFixed(1)} ms, duckdb ${d.toFixed(1)} / ${median(c[1]!).toFixed(1)} ms (best ${(o / d).toFixed(2)}x, median ${(median(c[0]!) / median(c[1]!)).toFixed(2)}x)`)
  console.log(`  answers: epochdb ${a.slice(0, 160)}\n           duckdb  ${b.slice(0, 160)}`)
}
await db.close()
conn.closeSync()
inst.closeSync()
process.exit(0)
