/**
 * `acl.oidc.ropc.flow.enabled`: a user name and password arriving as HTTP Basic (REST) or as a
 * pgwire login, matching no local user, are exchanged at the provider's token endpoint (the
 * Resource Owner Password grant of a real oidc-provider); local users are checked first and
 * their passwords never reach the provider; the result is cached like a token.
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { startServer } from '../pgwire/helpers.js'
import { basicAuth } from '../http/helpers.js'
import { defaultUsers, setup } from './helpers.js'

async function aclDb(): Promise<Database> {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  for (const sql of [
    "CREATE GROUP analysts WITH EXTERNAL ALIAS 'analysts'", 'GRANT HTTP, PGWIRE TO analysts',
    "CREATE USER localbob WITH PASSWORD 'local-secret'", 'GRANT HTTP, PGWIRE TO localbob',
  ]) await db.query(sql)
  return db
}

function usersWithPasswords(): ReturnType<typeof defaultUsers> {
  const users = defaultUsers()
  users.get('alice')!.password = 'wonderland'
  users.get('carol')!.password = 'carol-pw'
  return users
}

t.test('ROPC over REST Basic and pgwire', async (t) => {
  const db = await aclDb()
  const s = await setup({ ropcFlowEnabled: true, cacheTtlMs: 60_000, httpTimeoutMs: 2000 }, { users: usersWithPasswords() }, {}, db)
  const srv = await startServer({ authMethod: 'scram-sha-256', authenticate: s.guard.pgwire, cleartextUser: s.guard.cleartextUser }, db)
  t.teardown(async () => { await srv.close(); await s.close() })
  const grants: string[] = []
  s.idp.provider.on('grant.success', (ctx) => { grants.push(String((ctx.oidc.params as { grant_type?: string } | undefined)?.grant_type)) })
  s.idp.provider.on('grant.error', () => { grants.push('error') })

  const r = await s.query('select current_user()', basicAuth('alice', 'wonderland'))
  t.equal(r.status, 200, r.body)
  t.same(JSON.parse(r.body).dataset, [['alice']], 'signed in as the provider\'s subject')
  t.same(grants, ['password'], 'one password grant at the token endpoint')
  t.equal((await s.query('select 1', basicAuth('alice', 'wonderland'))).status, 200)
  t.same(grants, ['password'], 'the second request is answered from the cache')

  t.equal((await s.query('select 1', basicAuth('alice', 'wrong'))).status, 401, 'a wrong password: 401')
  t.equal((await s.query('select 1', basicAuth('nobody', 'x'))).status, 401, 'an unknown user: 401')
  const noHttp = await s.query('select 1', basicAuth('carol', 'carol-pw'))
  t.equal(noHttp.status, 403, 'carol has no groups: authenticated, but no HTTP')
  t.match(JSON.parse(noHttp.body).error, /Access denied for carol \[HTTP\]/)

  // a local user is checked first: its password never goes to the provider
  const before = grants.length
  const local = await s.query('select current_user()', basicAuth('localbob', 'local-secret'))
  t.equal(local.status, 200, local.body)
  t.same(JSON.parse(local.body).dataset, [['localbob']])
  t.equal(grants.length, before, 'no call to the provider for a local user')

  // pgwire: cleartext for users that are not local, SCRAM for local ones
  t.ok(s.guard.cleartextUser('alice') && !s.guard.cleartextUser('localbob') && !s.guard.cleartextUser('admin'))
  const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'alice', password: 'wonderland', database: 'qdb' })
  await c.connect()
  t.same((await c.query('select current_user() u')).rows, [{ u: 'alice' }])
  await c.end()
  const bad = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'alice', password: 'nope', database: 'qdb' })
  t.equal(((await bad.connect().then(() => undefined, (x: unknown) => x)) as { code?: string })?.code, '28P01')
  const lb = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'localbob', password: 'local-secret', database: 'qdb' })
  await lb.connect()
  t.same((await lb.query('select current_user() u')).rows, [{ u: 'localbob' }])
  await lb.end()

  // the provider down: 503, not 401 (a cached identity still answers until its TTL)
  s.guard.invalidate()
  await s.idp.close()
  const down = await s.query('select 1', basicAuth('alice', 'wonderland'))
  t.equal(down.status, 503, down.body)
  t.match(down.body, /identity provider unreachable/)
})

t.test('off by default: provider passwords are not accepted', async (t) => {
  const db = await aclDb()
  const s = await setup({}, { users: usersWithPasswords() }, {}, db)
  t.teardown(() => s.close())
  t.equal((await s.query('select 1', basicAuth('alice', 'wonderland'))).status, 401)
  t.notOk(s.guard.cleartextUser('alice'))
})
