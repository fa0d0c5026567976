import t from 'tap'
import { Database } from '../../../lib/index.js'

async function setup(): Promise<Database> {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, v double, s string) timestamp(ts) partition by day')
  // one row per hour over two days: 48 rows, v = hour index
  const values: string[] = []
  for (let h = 0; h < 48; h++) values.push(`('2024-01-01T00:00:00Z'::timestamp + ${h}L * 3600000000, '${h % 2 === 0 ? 'a' : 'b'}', ${h}, 'x${h}')`)
  await db.query(`insert into t values ${values.join(', ')}`)
  return db
}

const plan = async (db: Database, sql: string) => (await db.query(`explain ${sql}`)).rows.map((r) => String(r[0])).join('\n')
const col = async (db: Database, sql: string) => (await db.query(sql)).rows.map((r) => r[0])

t.test('timestamp conditions become scan intervals with the same rows', async (t) => {
  const db = await setup()
  const cases: [string, number[]][] = [
    ["ts in '2024-01-02T03'", [27]],
    ["ts > '2024-01-02T20:00:00Z'", [45, 46, 47]],
    ["ts >= '2024-01-02T21:00:00Z'", [45, 46, 47]],
    ["ts < '2024-01-01T02:00:00Z'", [0, 1]],
    ["ts <= '2024-01-01T02:00:00Z'", [0, 1, 2]],
    ["ts = '2024-01-01T05:00:00Z'", [5]],
    ["'2024-01-01T05:00:00Z' >= ts", [0, 1, 2, 3, 4, 5]],
    ["ts between '2024-01-01T03:00:00Z' and '2024-01-01T01:00:00Z'", [1, 2, 3]],
    ["ts in '2024-01-01T10' and v > 5", [10]],
    ["ts in '2024-01-01T10;3h' and sym = 'a'", [10, 12]],
    ["ts > '2024-01-01T10:00:00Z' and ts < '2024-01-01T13:00:00Z'", [11, 12]],
    ["ts in '2025'", []],
  ]
  for (const [where, expected] of cases) {
    const sql = `select v from t where ${where}`
    t.match(await plan(db, sql), /Interval forward scan/, `${where}: interval scan`)
    t.same(await col(db, sql), expected, where)
  }
  t.notMatch(await plan(db, "select v from t where v > 3 or ts > '2024-01-02'"), /Interval/, 'OR is not extracted')
  t.same((await col(db, "select v from t where v > 45 or ts < '2024-01-01T01:00:00Z'")), [0, 46, 47])
})

t.test('scans read only the columns the query uses', async (t) => {
  const db = await setup()
  t.match(await plan(db, 'select count() from t where v > 40'), /columns: v\b/)
  t.match(await plan(db, 'select sym, sum(v) from t'), /columns: sym,v/)
  t.same((await db.query('select sym, count() from t where v >= 40 order by sym')).rows, [['a', 4n], ['b', 4n]])
  t.same((await db.query('select s from t where v = 7')).rows, [['x7']])
  t.same((await db.query("select v, s from t where sym = 'b' and v < 4")).rows, [[1, 'x1'], [3, 'x3']])
  t.same((await db.query('select * from t where v = 2')).rows, [[1704074400000000n, 'a', 2, 'x2']])
})
