/**
 * TIMESTAMP_NS over pgwire as QuestDB 9 sends it: `timestamp` (OID 1114) truncated to the
 * microsecond in text and binary (PostgreSQL's timestamp holds microseconds; psycopg2 refuses
 * nine digits), and the compat suite's nanoseconds case (TIMESTAMP parameters inserted into and
 * compared with a TIMESTAMP_NS column) with `pg`, `postgres` and psycopg2.
 */
import t from 'tap'
import pg from 'pg'
import postgres from 'postgres'
import { execFile } from 'node:child_process'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer } from './helpers.js'
import { PYTHON, missingModules } from './python.js'

const db = await Database.open()
await db.query('create table nanos (id int, temperature double, timestamp timestamp_ns)')
await db.query("insert into nanos values (1, 2.5, '2023-10-01T10:00:00.100000789Z'), (2, 3.5, null)")
const srv = await startServer({}, db)
t.teardown(() => srv.close())

t.test('pg: OID 1114, microsecond text, TIMESTAMP parameters widen to nanoseconds', async (t) => {
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.teardown(() => client.end())
  const r = await client.query({ text: 'select timestamp, timestamp::string s from nanos order by id', rowMode: 'array' })
  t.same(r.fields.map((f) => f.dataTypeID), [1114, 1043])
  t.equal((r.rows[0]![0] as Date).toISOString(), '2023-10-01T10:00:00.100Z')
  t.equal(r.rows[0]![1], '2023-10-01T10:00:00.100000789Z')
  t.equal(r.rows[1]![0], null)
  const raw = await client.query({ text: "select timestamp from nanos where id = 1", rowMode: 'array', types: { getTypeParser: () => (x: string) => x } })
  t.equal(raw.rows[0]![0], '2023-10-01 10:00:00.100000')
  // the compat suite's case: TIMESTAMP parameters into and against the nanosecond column
  await client.query('insert into nanos (id, temperature, timestamp) values ($1, $2, $3)', [3, 4.5, '2024-10-01T10:00:00.100000Z'])
  const back = await client.query('select id from nanos where timestamp = $1', ['2024-10-01T10:00:00.100000Z'])
  t.same(back.rows, [{ id: 3 }])
})

t.test('postgres: binary timestamp in microseconds', async (t) => {
  const sql = postgres({ ...pgConfig(srv.port), username: 'admin', max: 1 })
  t.teardown(() => sql.end())
  const rows = await sql`select timestamp from nanos where id = ${1}`
  t.equal((rows[0]!['timestamp'] as Date).toISOString(), '2023-10-01T10:00:00.100Z')
})

t.test('psycopg2: a datetime with microseconds', async (t) => {
  const missing = await missingModules(['psycopg2'])
  if (missing !== undefined) { t.fail(`psycopg2 missing: ${missing}`); return }
  const script = `
import psycopg2, json
c = psycopg2.connect(host='127.0.0.1', port=${srv.port}, user='admin', password='quest', dbname='qdb')
cur = c.cursor()
cur.execute('select timestamp from nanos where id = 1')
row = cur.fetchone()
print(json.dumps([row[0].isoformat(), cur.description[0].type_code]))
`
  const out = await new Promise<string>((resolve, reject) => execFile(PYTHON, ['-c', script], { timeout: 60_000 }, (e, so, se) => (e ? reject(new Error(se || String(e))) : resolve(so))))
  t.same(JSON.parse(out.trim()), ['2023-10-01T10:00:00.100000', 1114])
})
