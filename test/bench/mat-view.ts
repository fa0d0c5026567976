/**
 * Benchmark (not a test): what a materialized view costs and saves. A base table of `rows` rows
 * (one a second, 20 symbols) and an IMMEDIATE view `SELECT ts, sym, avg(price), sum(qty), count()
 * FROM base SAMPLE BY 1h`; then, in alternating rounds, CPU time (`process.cpuUsage`, every thread)
 * of:
 *
 * - `append, no view`: INSERT of 1,000 new rows into a table with no view over it (the INSERT's cost);
 * - `append+refresh`: INSERT of 1,000 new rows at the end, then a read of the view (which waits for
 *   the refresh of the touched buckets);
 * - `o3+refresh`: the same with 1,000 rows scattered over the last day (out of order);
 * - `full refresh`: REFRESH MATERIALIZED VIEW ... FULL and a read;
 * - `query on base`: the view's query run on the base table (what a reader pays without the view);
 * - `read view`: `SELECT * FROM` the view.
 *
 * Each round runs every case once, so all see the same load; reports best and median.
 *
 *   node --import tsx test/bench/mat-view.ts [rows [rounds [data directory]]]
 *
 * With a data directory (emptied first) the tables are durable: every INSERT and refresh commits.
 */
import { rmSync } from 'node:fs'
import { Database } from '../../lib/index.js'

const ROWS = Number(process.argv[2] ?? 2_000_000)
const ROUNDS = Number(process.argv[3] ?? 9)
const DIR = process.argv[4]
const START = Date.UTC(2024, 0, 1) * 1000
const VIEW = 'SELECT ts, sym, avg(price) AS p, sum(qty) AS q, count() AS n FROM base SAMPLE BY 1h'

function cpuMs(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

async function main(): Promise<void> {
  if (DIR !== undefined) rmSync(DIR, { recursive: true, force: true })
  const db = await Database.open(DIR === undefined ? {} : { path: DIR })
  await db.query('CREATE TABLE base (ts TIMESTAMP, sym SYMBOL, price DOUBLE, qty LONG) TIMESTAMP(ts) PARTITION BY DAY WAL')
  await db.query(`INSERT INTO base SELECT (${START} + x * 1000000)::timestamp, 's' || (x % 20), (x * 7919) % 1000 / 10.0, x % 100 FROM long_sequence(${ROWS})`)
  await db.query(`CREATE MATERIALIZED VIEW mv AS (${VIEW}) PARTITION BY DAY`)
  // the same rows into a table without a view: what the INSERT alone costs
  await db.query('CREATE TABLE plain (ts TIMESTAMP, sym SYMBOL, price DOUBLE, qty LONG) TIMESTAMP(ts) PARTITION BY DAY WAL')
  await db.query(`INSERT INTO plain SELECT * FROM base`)
  await db.query('SELECT count() FROM mv')
  let newest = START + ROWS * 1_000_000
  let seed = 1
  const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
  const rowsText = (ts: (i: number) => number): string => Array.from({ length: 1000 }, (_, i) => `(${ts(i)}::timestamp, 's${i % 20}', ${i % 97}.5, ${i})`).join(', ')
  let plainNewest = newest
  const cases: Record<string, () => Promise<void>> = {
    'append, no view': async () => {
      const base = plainNewest
      plainNewest += 1000 * 1_000_000
      await db.query(`INSERT INTO plain VALUES ${rowsText((i) => base + (i + 1) * 1_000_000)}`)
      await db.query('SELECT count() FROM plain')
    },
    'append+refresh': async () => {
      const base = newest
      newest += 1000 * 1_000_000
      await db.query(`INSERT INTO base VALUES ${rowsText((i) => base + (i + 1) * 1_000_000)}`)
      await db.query('SELECT count() FROM mv')
    },
    'o3+refresh': async () => {
      await db.query(`INSERT INTO base VALUES ${rowsText(() => newest - Math.floor(rnd() * 86_400_000_000))}`)
      await db.query('SELECT count() FROM mv')
    },
    'full refresh': async () => {
      await db.query('REFRESH MATERIALIZED VIEW mv FULL')
      await db.query('SELECT count() FROM mv')
    },
    'query on base': async () => { await db.query(VIEW) },
    'read view': async () => { await db.query('SELECT * FROM mv') },
  }
  const times = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]))
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, run] of Object.entries(cases)) {
      const c0 = cpuMs()
      await run()
      times.get(name)!.push(cpuMs() - c0)
    }
  }
  const check = (await db.query(`SELECT count() FROM (${VIEW})`)).rows[0]![0]
  const got = (await db.query('SELECT count() FROM mv')).rows[0]![0]
  console.log(`${DIR === undefined ? 'in memory' : 'durable'}: base rows ${ROWS} (+${ROUNDS * 2000}), view rows ${String(got)} (query: ${String(check)}), rounds ${ROUNDS}`)
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const full = med(times.get('full refresh')!)
  for (const [name, xs] of times) {
    console.log(`${name.padEnd(16)} best ${Math.min(...xs).toFixed(1).padStart(8)} ms  median ${med(xs).toFixed(1).padStart(8)} ms CPU  (${(med(xs) / full).toFixed(3)}x full refresh)`)
  }
  await db.close()
}

await main()
