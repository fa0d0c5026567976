/**
 * External principals with real access control: permissions from the groups whose EXTERNAL
 * ALIAS matches the provider's groups, HTTP vs PGWIRE, table grants, ALTER GROUP DROP / WITH
 * EXTERNAL ALIAS taking effect at the next request (the identity stays cached, the grants do
 * not), and users with no groups denied `[HTTP]`.
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { startServer } from '../pgwire/helpers.js'
import { setup } from './helpers.js'

t.test('grants through aliases over REST and pgwire', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  for (const sql of [
    'create table trades (ts timestamp, sym symbol, price double) timestamp(ts)',
    'create table secrets (ts timestamp, v long) timestamp(ts)',
    "insert into trades values ('2024-01-01T00:00:00Z', 'btc', 1.5)",
    "CREATE GROUP analysts WITH EXTERNAL ALIAS 'analysts'",
    'GRANT HTTP, PGWIRE TO analysts',
    'GRANT SELECT ON trades TO analysts',
    "CREATE GROUP web WITH EXTERNAL ALIAS 'web-only'",
    'GRANT HTTP TO web',
  ]) await db.query(sql)
  const s = await setup({ pgTokenAsPassword: true, cacheTtlMs: 60_000 }, {}, {}, db)
  const srv = await startServer({ authenticate: s.guard.pgwire, cleartextUser: s.guard.cleartextUser }, db)
  t.teardown(async () => { await srv.close(); await s.close() })
  const alice = await s.token('alice')

  const ok = await s.query('select sym, price from trades', alice)
  t.equal(ok.status, 200, ok.body)
  t.match(JSON.parse(ok.body).dataset, [['btc', 1.5]])
  t.match(JSON.parse((await s.query('select current_user()', alice)).body).dataset, [['alice']])
  const denied = await s.query('select * from secrets', alice)
  t.equal(denied.status, 403)
  t.match(JSON.parse(denied.body).error, /^Access denied for alice \[SELECT on secrets/)
  t.equal((await s.query("insert into trades values ('2024-01-02T00:00:00Z', 'eth', 2.0)", alice)).status, 403, 'no INSERT')

  // no groups at all: authenticated, but no HTTP
  const carol = await s.query('select 1', await s.token('carol'))
  t.equal(carol.status, 403)
  t.match(JSON.parse(carol.body).error, 'Access denied for carol [HTTP]')
  t.equal((await s.query('select 1', await s.token('bob'))).status, 403, 'no groups claim: 403 too')

  // pgwire: alice has PGWIRE; a web-only user does not
  const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: '_sso', password: alice, database: 'qdb' })
  await c.connect()
  t.same((await c.query('select count(*) n from trades')).rows, [{ n: '1' }])
  await c.end()
  s.users.get('bob')!.groups = ['web-only']
  const bob = await s.token('bob')
  t.equal((await s.query('select 1', bob)).status, 200, 'bob: HTTP through web-only')
  const b = new pg.Client({ host: '127.0.0.1', port: srv.port, user: '_sso', password: bob, database: 'qdb' })
  const e = await b.connect().then(() => undefined, (x: unknown) => x) as { code?: string; message?: string }
  t.equal(e?.code, '42501')
  t.match(e?.message, /Access denied for bob \[PGWIRE\]/)

  // aliases change at once: the cached identity keeps its groups, the grants are read per request
  await db.query("ALTER GROUP analysts DROP EXTERNAL ALIAS 'analysts'")
  t.equal((await s.query('select 1', alice)).status, 403, 'alias dropped: denied at the next request')
  await db.query("ALTER GROUP analysts WITH EXTERNAL ALIAS 'analysts'")
  t.equal((await s.query('select price from trades', alice)).status, 200, 'alias back: allowed again')
  await db.query('REVOKE SELECT ON trades FROM analysts')
  t.equal((await s.query('select price from trades', alice)).status, 403, 'grant revoked: denied')
})

t.test('SELECT flush_identity_cache([subject]) drops cached identities; it needs DISABLE USER', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  for (const sql of ["CREATE GROUP analysts WITH EXTERNAL ALIAS 'analysts'", 'GRANT HTTP TO analysts', "CREATE GROUP ops WITH EXTERNAL ALIAS 'ops'", 'GRANT HTTP, DISABLE USER TO ops']) await db.query(sql)
  const s = await setup({ cacheTtlMs: 60_000 }, {}, {}, db)
  t.teardown(() => s.close())
  s.users.set('olga', { sub: 'olga', name: 'Olga Ops', groups: ['ops'] })
  const alice = await s.token('alice')
  const olga = await s.token('olga')
  t.equal((await s.query('select 1', alice)).status, 200)
  const denied = await s.query("select flush_identity_cache('alice')", alice)
  t.equal(denied.status, 403)
  t.match(JSON.parse(denied.body).error, /Access denied for alice \[DISABLE USER\]/)
  const one = await s.query("select flush_identity_cache('alice')", olga)
  t.equal(one.status, 200, one.body)
  t.match(JSON.parse(one.body).dataset, [[1]], "alice's one cached identity dropped")
  const v = s.guard.stats().validations
  t.equal((await s.query('select 1', alice)).status, 200)
  t.equal(s.guard.stats().validations - v, 1, 'her next request is validated at the provider again')
  t.match(JSON.parse((await s.query('select flush_identity_cache()', olga)).body).dataset, [[2]], 'all: alice and olga')
  t.match((await db.query('select flush_identity_cache()')).rows, [[0]], 'the admin may; nothing left')
})
