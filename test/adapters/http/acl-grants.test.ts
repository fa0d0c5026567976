/**
 * REST with access control on and real users and grants (curl-like requests): the HTTP endpoint
 * permission, table and column grants, WITH GRANT OPTION, a disabled user, REST tokens, and the
 * 403 bodies QuestDB answers.
 */
import t, { type Test } from 'tap'
import { Database } from '../../../lib/index.js'
import { get, startServer } from './helpers.js'

const basic = (user: string, password: string): Record<string, string> => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') })
const q = (sql: string): string => `/exec?query=${encodeURIComponent(sql)}`

const db = await Database.open({ acl: { enabled: true, admin: { user: 'root', password: 'pw1' } } })
const srv = await startServer({ loginThrottle: false }, db)
t.teardown(() => srv.close())
const root = basic('root', 'pw1')
const alice = basic('alice', 'a-pw')
const bob = basic('bob', 'b-pw')
/** Runs `sql` as root over REST; fails the test unless it answers 200. */
async function admin(t: Test, sql: string): Promise<void> {
  const r = await get(srv.port, q(sql), root)
  t.equal(r.status, 200, `${sql}: ${r.body}`)
}

t.test('setup as the admin over REST', async (t) => {
  await admin(t, 'create table t (ts timestamp, a int, secret string) timestamp(ts)')
  await admin(t, "insert into t values ('2024-01-01T00:00:00Z', 1, 'x')")
  await admin(t, "create user alice with password 'a-pw'")
  await admin(t, "create user bob with password 'b-pw'")
})

t.test('a user without HTTP: 403 with QuestDB\'s body; with it, statements are checked', async (t) => {
  const no = await get(srv.port, q('select 1'), alice)
  t.equal(no.status, 403)
  t.match(no.headers['content-type'], /^application\/json/)
  t.same(JSON.parse(no.body), { query: '', error: 'Access denied for alice [HTTP]', position: 0 })
  await admin(t, 'grant http to alice')
  t.equal((await get(srv.port, q('select 1'), alice)).status, 200)
  const denied = await get(srv.port, q('select a from t'), alice)
  t.equal(denied.status, 403)
  t.match(JSON.parse(denied.body), { query: 'select a from t', error: 'Access denied for alice [SELECT on t(a)]' })
})

t.test('column grants: granted columns read, select * and other columns denied', async (t) => {
  await admin(t, 'grant select on t(a) to alice')
  const ok = await get(srv.port, q('select ts, a from t'), alice)
  t.equal(ok.status, 200, ok.body)
  t.match(ok.body, '"dataset":[["2024-01-01T00:00:00.000000Z",1]]', 'the designated timestamp comes with any column')
  t.equal((await get(srv.port, q('select * from t'), alice)).status, 403, 'select * needs every column')
  const secret = await get(srv.port, q('select secret from t'), alice)
  t.equal(secret.status, 403)
  t.match(JSON.parse(secret.body).error, /^Access denied for alice \[SELECT on t/)
  t.equal((await get(srv.port, q("insert into t values ('2024-01-02T00:00:00Z', 2, 'y')"), alice)).status, 403, 'no INSERT')
})

t.test('WITH GRANT OPTION: passing a permission on needs it', async (t) => {
  await admin(t, 'grant http to bob')
  t.equal((await get(srv.port, q('grant select on t to bob'), alice)).status, 403, 'alice holds no grant option')
  await admin(t, 'grant select on t to alice with grant option')
  const g = await get(srv.port, q('grant select on t to bob'), alice)
  t.equal(g.status, 200, g.body)
  t.equal((await get(srv.port, q('select * from t'), bob)).status, 200, 'bob reads through alice\'s grant')
  t.equal((await get(srv.port, q('grant select on t to alice'), bob)).status, 403, 'bob got no grant option')
})

t.test('REST tokens: Bearer qt1… works until dropped', async (t) => {
  const made = await get(srv.port, q("alter user alice create token type rest with ttl '1d'"), alice)
  t.equal(made.status, 200, made.body)
  const token = (JSON.parse(made.body) as { dataset: unknown[][] }).dataset[0]!.find((v) => typeof v === 'string' && v.startsWith('qt1')) as string
  t.ok(token, 'a qt1 token')
  const byToken = await get(srv.port, q('select current_user()'), { Authorization: `Bearer ${token}` })
  t.match(byToken.body, '"dataset":[["alice"]]')
  await admin(t, `alter user alice drop token type rest '${token}'`)
  t.equal((await get(srv.port, q('select 1'), { Authorization: `Bearer ${token}` })).status, 401)
})

t.test('a disabled user answers as a wrong password; enabling restores', async (t) => {
  const wrong = await get(srv.port, q('select 1'), basic('alice', 'nope'))
  await admin(t, 'alter user alice disable')
  const disabled = await get(srv.port, q('select 1'), alice)
  t.same([disabled.status, disabled.body], [wrong.status, wrong.body])
  await admin(t, 'alter user alice enable')
  t.equal((await get(srv.port, q('select 1'), alice)).status, 200)
})

t.test('/imp: an import into a table without INSERT answers 403', async (t) => {
  const boundary = 'XyZ'
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="t.csv"\r\nContent-Type: text/csv\r\n\r\nts,a,secret\r\n2024-01-03T00:00:00.000000Z,3,z\r\n--${boundary}--\r\n`
  const r = await get(srv.port, '/imp?name=t&fmt=json', { ...bob, 'Content-Type': `multipart/form-data; boundary=${boundary}` }, 'POST', body)
  t.equal(r.status, 403, r.body)
  t.match(JSON.parse(r.body).status, /^Access denied for bob \[INSERT on t/)
})
