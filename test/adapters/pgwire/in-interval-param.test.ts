/**
 * `ts IN $1` with a string bound to `$1` is an interval filter, as `ts IN '2024-01-02'` is
 * (QuestDB's InTimestampTimestampTest), not equality with the string's timestamp: through the
 * library, node-postgres and the Python drivers (psycopg 3 and psycopg2).
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer } from './helpers.js'
import { missingModules, runProbe } from './python.js'

const db = await Database.open()
await db.query('create table iv (ts timestamp, v int) timestamp(ts) partition by day')
// one row every 6 minutes for three days: 240 a day, 10 an hour
await db.query("insert into iv select timestamp_sequence('2024-01-01', 360000000L), x::int from long_sequence(720)")
const srv = await startServer({}, db)
const pythonMissing = await missingModules(['psycopg', 'psycopg2'])
t.teardown(() => srv.close())

const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await db.query(sql, params)).rows[0]![0])

t.test('library: a string parameter is an interval', async (t) => {
  t.equal(await count("select count(*) from iv where ts in '2024-01-02'"), 240, 'the literal')
  t.equal(await count('select count(*) from iv where ts in $1', ['2024-01-02']), 240, 'the parameter')
  t.equal(await count('select count(*) from iv where ts in $1', ['2024-01-02T12;1h']), 20, 'with a duration')
  t.equal(await count('select count(*) from iv where ts not in $1', ['2024-01-02']), 480, 'NOT IN')
  t.equal(await count('select count(*) from iv where ts in $1', [null]), 0, 'NULL matches nothing')
  const prepared = await db.prepare('select count(*) from iv where ts in $1')
  t.equal(Number((await prepared.query(['2024-01-01'])).rows[0]![0]), 240, 'prepared, first value')
  t.equal(Number((await prepared.query(['2024-01'])).rows[0]![0]), 720, 'prepared, another value')
  await t.rejects(db.query('select count(*) from iv where ts in $1', ['nope']), { code: '22007' }, 'a bad interval is 22007')
})

t.test('node-postgres: a string parameter is an interval', async (t) => {
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.teardown(() => client.end())
  t.same((await client.query("select count(*) from iv where ts in '2024-01-02'")).rows, [{ count: '240' }])
  t.same((await client.query('select count(*) from iv where ts in $1', ['2024-01-02'])).rows, [{ count: '240' }])
  t.same((await client.query('select count(*) from iv where ts in $1', ['2024-01-02T12;1h'])).rows, [{ count: '20' }])
})

t.test('psycopg 3 and psycopg2: a string parameter is an interval', { skip: pythonMissing }, async (t) => {
  const run = await runProbe('interval_param_probe.py', srv.port)
  if ('missing' in run) { t.fail(run.missing); return }
  t.equal(run.failure, undefined)
  for (const name of ['psycopg', 'psycopg2']) {
    t.equal(run.checks.get(`${name}_literal`), 240, `${name}: the literal`)
    t.equal(run.checks.get(`${name}_param`), 240, `${name}: the parameter`)
    t.equal(run.checks.get(`${name}_param_duration`), 20, `${name}: with a duration`)
  }
})
