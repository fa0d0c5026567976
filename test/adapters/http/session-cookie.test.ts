/**
 * The console's server session as QuestDB documents it: `/exec?...&session=true` with
 * credentials sets `qdb_session=qs1…` (HttpOnly; Path=/; SameSite=Strict; Max-Age=2592000);
 * requests with the cookie and no Authorization run as that principal; `session=false` ends it.
 * Also with an OIDC Bearer token (a real oidc-provider).
 */
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { basicAuth, get, startServer } from './helpers.js'
import { setup } from '../oidc/helpers.js'

const q = (sql: string, extra = ''): string => `/exec?query=${encodeURIComponent(sql)}${extra}`

t.test('exec?session=true / false with Basic credentials', async (t) => {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  await db.query("create user bob with password 'pw'")
  await db.query('grant http to bob')
  const srv = await startServer({}, db)
  t.teardown(async () => { await srv.close(); await db.close() })

  const first = await get(srv.port, q('select 2', '&session=true'), { authorization: basicAuth('bob', 'pw') })
  t.equal(first.status, 200, first.body)
  const setCookie = String(first.headers['set-cookie'])
  t.match(setCookie, /^qdb_session=qs1[A-Za-z0-9_-]{43}; HttpOnly; Path=\/; SameSite=Strict; Max-Age=2592000$/)
  const cookie = setCookie.split(';')[0]!

  const viaCookie = await get(srv.port, q('select current_user()'), { cookie })
  t.equal(viaCookie.status, 200, viaCookie.body)
  t.same(JSON.parse(viaCookie.body).dataset, [['bob']], 'the cookie stands for the credentials')
  t.equal((await get(srv.port, q('select 1'))).status, 401, 'neither cookie nor credentials')
  t.equal((await get(srv.port, q('select 1'), { cookie: 'qdb_session=qs1forged' })).status, 401, 'an unknown session')
  t.equal((await get(srv.port, q('select 1'), { cookie: `other=1; ${cookie}; x=y` })).status, 200, 'among other cookies')
  t.notOk((await get(srv.port, q('select 1'), { authorization: basicAuth('bob', 'pw') })).headers['set-cookie'], 'no session unless asked')

  // a disabled user's session is refused at its next request
  await db.query('alter user bob disable')
  t.equal((await get(srv.port, q('select 1'), { cookie })).status, 403)
  await db.query('alter user bob enable')
  t.equal((await get(srv.port, q('select 1'), { cookie })).status, 200)

  // session=false ends it and clears the cookie (the console's sign-out)
  const out = await get(srv.port, q('select 2', '&session=false'), { cookie })
  t.equal(out.status, 200)
  t.match(String(out.headers['set-cookie']), /^qdb_session=; HttpOnly; Path=\/; SameSite=Strict; Max-Age=0$/)
  t.equal((await get(srv.port, q('select 1'), { cookie })).status, 401, 'the ended session no longer signs in')

  // wrong credentials never start one
  const bad = await get(srv.port, q('select 2', '&session=true'), { authorization: basicAuth('bob', 'nope') })
  t.equal(bad.status, 401)
  t.notOk(bad.headers['set-cookie'])
})

t.test('a session from an OIDC access token', async (t) => {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  await db.query("CREATE GROUP analysts WITH EXTERNAL ALIAS 'analysts'")
  await db.query('GRANT HTTP TO analysts')
  const s = await setup({ cacheTtlMs: 60_000 }, {}, {}, db)
  t.teardown(() => s.close())
  const token = await s.token('alice')
  const r = await get(s.port, q('select 2', '&session=true'), { authorization: `Bearer ${token}` })
  t.equal(r.status, 200, r.body)
  const cookie = String(r.headers['set-cookie']).split(';')[0]!
  const me = await get(s.port, q('select current_user()'), { cookie })
  t.equal(me.status, 200, me.body)
  t.same(JSON.parse(me.body).dataset, [['alice']])
  // the grants still apply per statement: without HTTP for the group, the session is refused
  await db.query('REVOKE HTTP FROM analysts')
  t.equal((await get(s.port, q('select 1'), { cookie })).status, 403)
})
