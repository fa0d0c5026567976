/**
 * REST with access control on (`Database.open({ acl: { enabled: true } })`): credentials are
 * checked against the engine's users (HTTP Basic, REST tokens), 401 as QuestDB answers for bad
 * ones, the same for an unknown user and a wrong password, /settings and /ping open.
 */
import t from 'tap'
import { ADMIN, Database } from '../../../lib/index.js'
import { get, startServer } from './helpers.js'

const basic = (user: string, password: string): Record<string, string> => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') })
const q = (sql: string): string => `/exec?query=${encodeURIComponent(sql)}`

t.test('acl on: Basic against the engine, 401 alike for unknown user and wrong password, open endpoints', async (t) => {
  const db = await Database.open({ acl: { enabled: true, admin: { user: 'root', password: 'pw1' } } })
  const srv = await startServer({ loginThrottle: false }, db)
  t.teardown(() => srv.close())
  const none = await get(srv.port, q('select 1'))
  t.equal(none.status, 401, 'no credentials')
  t.equal(none.body, 'Unauthorized\r\n')
  const ok = await get(srv.port, q('select current_user()'), basic('root', 'pw1'))
  t.equal(ok.status, 200, ok.body)
  t.match(ok.body, '"dataset":[["root"]]', 'statements run in a session of the principal')
  const wrong = await get(srv.port, q('select 1'), basic('root', 'nope'))
  const unknown = await get(srv.port, q('select 1'), basic('nobody', 'pw1'))
  t.equal(wrong.status, 401)
  t.same([unknown.status, unknown.headers['content-type'], unknown.body], [wrong.status, wrong.headers['content-type'], wrong.body], 'unknown user answers as a wrong password')
  t.equal((await get(srv.port, q('select 1'), basic('admin', 'quest'))).status, 401, 'the default admin is not the configured one')
  t.equal((await get(srv.port, q('select 1'), { Authorization: 'Bearer qt1nosuchtoken' })).status, 401, 'unknown REST token')
  t.equal((await get(srv.port, q('select 1'), { Authorization: 'Bearer eyJhbGciOi.x.y' })).status, 401, 'a Bearer token that is not a REST token')
  t.equal((await get(srv.port, q('select 1'), { Authorization: 'Basic !!!' })).status, 401, 'undecodable Basic')
  t.equal((await get(srv.port, '/ping')).status, 204, '/ping stays open')
  const settings = await get(srv.port, '/settings')
  t.equal(settings.status, 200)
  t.match(settings.body, '"acl.enabled":true', '/settings says so')
})

t.test('acl off: today\'s behaviour (open REST, http.user Basic), /settings without acl.enabled', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  t.equal((await get(srv.port, q('select 1'))).status, 200)
  t.notMatch((await get(srv.port, '/settings')).body, 'acl.enabled')
})

t.test('acl on: http.user is ignored, the engine answers', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  const srv = await startServer({ user: 'joe', password: 'pw', loginThrottle: false }, db)
  t.teardown(() => srv.close())
  t.equal((await get(srv.port, q('select 1'), basic('joe', 'pw'))).status, 401)
  t.equal((await get(srv.port, q('select 1'), basic('admin', 'quest'))).status, 200)
})

t.test('acl on: the authenticate hook goes first; its null falls back to the engine\'s credentials', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  const srv = await startServer({ loginThrottle: false, authenticate: (req) => (req.headers.authorization === 'Bearer good' ? { ...ADMIN, name: 'alice' } : null) }, db)
  t.teardown(() => srv.close())
  t.match((await get(srv.port, q('select current_user()'), { Authorization: 'Bearer good' })).body, '"dataset":[["alice"]]')
  t.equal((await get(srv.port, q('select 1'), { Authorization: 'Bearer bad' })).status, 401)
  t.equal((await get(srv.port, q('select 1'), basic('admin', 'quest'))).status, 200)
})
