/**
 * porsager's `postgres` client with prepared statements on and off, and SCRAM-SHA-256 login
 * (both `pg` and `postgres` drive the SASL exchange).
 */
import t from 'tap'
import postgres from 'postgres'
import pg from 'pg'
import { pgConfig, startServer } from './helpers.js'

const srv = await startServer()
const scram = await startServer({ authMethod: 'scram-sha-256', password: 's3cret' })

for (const prepare of [true, false]) {
  t.test(`postgres prepare=${prepare}`, async (t) => {
    const sql = postgres({ host: '127.0.0.1', port: srv.port, user: 'admin', password: 'quest', database: 'qdb', prepare, max: 1, idle_timeout: 1 })
    try {
      const rows = await sql`select i, s, v, b, ts from t where sym = ${'a'}`
      t.equal(rows.length, 1)
      t.equal(rows[0]!['i'], 3)
      t.equal(rows[0]!['s'], 'héllo')
      t.equal(rows[0]!['v'], 1.5)
      t.equal(rows[0]!['b'], true)
      t.ok(rows[0]!['ts'] instanceof Date)
      const n = await sql`select count(*) as n from t where i = ${3}`
      t.equal(String(n[0]!['n']), '1')
      const e = await sql`select nope from t`.catch((x: unknown) => x) as { code: string; position: string }
      t.equal(e.code, '42703')
      t.equal(e.position, '8')
      // a JS array for the lone parameter of IN: Describe says text[], so postgres.js sends an array
      const listed = await sql.unsafe('select i from t where sym in ($1)', [['z', 'a']])
      t.same(listed.map((r) => r['i']), [3], 'IN ($1) with an array')
      t.same((await sql.unsafe('select i from t where sym in ($1)', ['a'])).map((r) => r['i']), [3], 'and with a scalar')
      const again = await sql`select ${'x'} as v`
      t.same(again.map((r) => r['v']), ['x'])
      const table = `pt_${prepare ? 'on' : 'off'}`
      await sql.unsafe(`create table ${table} (ts timestamp, x int) timestamp(ts)`)
      for (let i = 0; i < 5; i++) await sql`insert into ${sql(table)} values (${`2024-01-0${i + 1}T00:00:00.000000Z`}, ${i})`
      const sum = await sql.unsafe(`select sum(x) s from ${table}`)
      t.equal(String(sum[0]!['s']), '10')
      const multi = await sql.unsafe('select 1 as a; select 2 as b')
      t.equal(multi.length, 2)
    } finally {
      await sql.end()
    }
  })
}

t.test('SCRAM-SHA-256 with pg and postgres', async (t) => {
  const c = new pg.Client({ ...pgConfig(scram.port), password: 's3cret' })
  await c.connect()
  t.same((await c.query('select 1 as x')).rows, [{ x: 1 }])
  await c.end()
  const bad = new pg.Client({ ...pgConfig(scram.port), password: 'quest' })
  const e = await bad.connect().catch((x: unknown) => x) as { code: string }
  t.equal(e.code, '28P01')
  await bad.end().catch(() => undefined)
  const sql = postgres({ host: '127.0.0.1', port: scram.port, user: 'admin', password: 's3cret', max: 1 })
  t.same([...await sql`select 2 as y`], [{ y: 2 }])
  await sql.end()
})

t.test('authenticate hook', async (t) => {
  const hooked = await startServer({ authenticate: (c) => (c.password === 'token-123' ? { name: c.user, groups: [], admin: false } : null) })
  const ok = new pg.Client({ ...pgConfig(hooked.port), user: 'alice', password: 'token-123' })
  await ok.connect()
  t.same((await ok.query('select 1 as x')).rows, [{ x: 1 }])
  await ok.end()
  const no = new pg.Client({ ...pgConfig(hooked.port), user: 'alice', password: 'quest' })
  t.equal((await no.connect().catch((x: unknown) => x) as { code: string }).code, '28P01')
  await no.end().catch(() => undefined)
  await hooked.close()
})

t.test('close', async () => {
  await srv.close()
  await scram.close()
})
