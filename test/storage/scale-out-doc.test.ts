// docs/scale-out.md's two queries, taken from the page itself and run as written: DuckDB over the
// converted partitions' files in the data directory (only the path replaced), EpochDB over the
// table; their per-symbol answers for the history agree, and EpochDB's over everything adds the
// hot partitions.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'

const doc = readFileSync(new URL('../../docs/scale-out.md', import.meta.url), 'utf8')
const blocks = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/^--.*\n/gm, '').trim().replace(/;$/, ''))
const convert = blocks.find((b) => b.startsWith('ALTER TABLE trades CONVERT'))!
const duckSql = blocks.find((b) => b.includes('read_parquet('))!
const epochSql = blocks.find((b) => b.startsWith('SELECT symbol, count(), avg(price) FROM trades'))!

t.test('the page\'s DuckDB query over the data directory agrees with EpochDB', async (t) => {
  t.ok(convert && duckSql && epochSql, 'the three statements are on the page')
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await db.query(`CREATE TABLE trades AS (SELECT rnd_symbol('BTC-USD', 'ETH-USD', 'SOL-USD') symbol, rnd_double() * 100 price,
    timestamp_sequence('2024-05-25', 600000000) timestamp FROM long_sequence(2880, 7, 9)) TIMESTAMP(timestamp) PARTITION BY DAY`)
  await db.query(convert)
  const tableDir = join(dir, readdirSync(dir).find((e) => e.startsWith('trades~'))!)
  t.equal(readdirSync(tableDir).filter((e) => /^2024-05-\d\d\.\d+$/.test(e)).length, 7, 'May\'s seven days are Parquet')
  const duck = await duckRows(`${duckSql.replace(/'\/var\/lib\/epochdb\/qdb_root\/trades~1\//, `'${tableDir}/`)} ORDER BY symbol`)
  const history = (await db.query(`SELECT symbol, count(), avg(price) FROM trades WHERE timestamp < '2024-06-01' ORDER BY symbol`)).rows
  t.same(duck.map((r) => [r[0], Number(r[1])]), history.map((r) => [r[0], Number(r[1])]), 'the same counts per symbol')
  duck.forEach((r, i) => t.ok(Math.abs((r[2] as number) - (history[i]![2] as number)) < 1e-9, `avg(price) of ${String(r[0])}`))
  const all = (await db.query(`${epochSql} ORDER BY symbol`)).rows
  t.equal(all.reduce((a, r) => a + Number(r[1]), 0), 2880, 'EpochDB answers over history and hot data together')
})
