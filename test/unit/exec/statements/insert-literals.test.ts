import t from 'tap'
import { Database, SqlError } from '../../../../lib/index.js'

// A multi-row INSERT converts plain DOUBLE literals and repeated string literals without binding
// each cell (lib/exec/statements/dml.ts): the rows must equal those of one-row INSERTs, which
// take the general path, for every column type a string literal converts into.
const DDL = `CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, vc VARCHAR, s STRING, d DOUBLE, dt DATE, u UUID, ip IPV4,
  dec DECIMAL(10, 2), c CHAR, l LONG, b BOOLEAN, tn TIMESTAMP_NS, f FLOAT, i INT) TIMESTAMP(ts) PARTITION BY DAY`

const ROWS = Array.from({ length: 60 }, (_, r) => {
  const k = r % 3
  return `('2024-01-0${1 + (r % 2)} 00:00:0${k}', 'host_${k}', 'v${k}', 's${r % 4}', ${['1.5', '2_000.25', '1e3', 'NaN', '7', '-0.0'][r % 6]},
    '2024-02-0${1 + k}', '6a10f5a3-5fa4-76fd-c125-0f6e6e2992d${k}', '10.0.0.${k}', '${k}.25', '${'xyz'[k]}', '${100 + k}',
    '${k === 0 ? 'true' : 'false'}', '2024-01-01T00:00:00.00000000${k}Z', '${k}.5', '${k}')`
})

async function rows(db: Database): Promise<string> {
  return JSON.stringify((await db.query('SELECT * FROM t')).rows, (_, v: unknown) => typeof v === 'bigint' ? `${v}n` : v)
}

t.test('one multi-row INSERT gives the rows of one-row INSERTs', async (t) => {
  const bulk = await Database.open()
  const single = await Database.open()
  t.teardown(async () => { await bulk.close(); await single.close() })
  await bulk.query(DDL)
  await single.query(DDL)
  await bulk.query(`INSERT INTO t VALUES ${ROWS.join(', ')}`)
  for (const r of ROWS) await single.query(`INSERT INTO t VALUES ${r}`)
  const got = await rows(bulk)
  t.equal(got, await rows(single))
  t.match(got, /host_2/)
})

t.test('a bad string literal fails at its own position, on its first and every later row', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('CREATE TABLE e (ts TIMESTAMP, sym SYMBOL) TIMESTAMP(ts) PARTITION BY DAY')
  for (const sql of [
    "INSERT INTO e VALUES ('2024-01-01', 'a'), ('nope', 'b'), ('nope', 'c')",
    "INSERT INTO e VALUES ('2024-01-01', 'a'), ('2024-01-01', 'b'), ('nope', 'c')",
  ]) {
    const err = await db.query(sql).then(() => undefined, (e: unknown) => e)
    t.ok(err instanceof SqlError, sql)
    t.equal((err as SqlError).position, sql.indexOf("'nope'"), 'the position of the first bad literal')
  }
  t.same((await db.query('SELECT count() FROM e')).rows, [[0]], 'nothing was written')
})
