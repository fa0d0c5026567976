/**
 * Access-control statements through REST and pgwire (acl off: every session is the admin): the
 * SHOW statements and CREATE TOKEN answer with rows, the others with their command.
 */
import t from 'tap'
import pg from 'pg'
import { get, startServer } from './helpers.js'
import { startServer as startPgwire, pgConfig } from '../pgwire/helpers.js'

t.test('REST /exec returns the rows of SHOW USERS and of CREATE TOKEN', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const exec = async (q: string): Promise<{ status: number; json: Record<string, unknown> }> => {
    const r = await get(srv.port, `/exec?query=${encodeURIComponent(q)}`)
    return { status: r.status, json: JSON.parse(r.body) as Record<string, unknown> }
  }
  t.match((await exec("create user bob with password 'pw'")).json, { ddl: 'OK' })
  const users = await exec('show users')
  t.same(users.json['columns'], [{ name: 'name', type: 'STRING' }])
  t.same(users.json['dataset'], [['admin'], ['bob']])
  const token = await exec("alter user bob create token type rest with ttl '1h'")
  // QuestDB's console reads the token at dataset[0][1]: name, token, expires_at, refresh
  t.same((token.json['columns'] as { name: string }[]).map((c) => c.name), ['name', 'token', 'expires_at', 'refresh'])
  t.match(token.json['dataset'], [['bob', /^qt1/, String, false]])
  const tok = (token.json['dataset'] as string[][])[0]![1]!
  t.match(await srv.db.authenticateToken(tok), { name: 'bob' })
})

t.test('pgwire: SHOW PERMISSIONS and CREATE TOKEN are row sets, GRANT a command', async (t) => {
  const srv = await startPgwire()
  t.teardown(() => srv.close())
  const c = new pg.Client(pgConfig(srv.port))
  await c.connect()
  t.teardown(() => c.end())
  await c.query('create user bob')
  const g = await c.query('grant http to bob')
  t.equal(g.command, 'GRANT')
  const p = await c.query('show permissions bob')
  t.same(p.fields.map((f) => f.name), ['permission', 'table_name', 'column_name', 'grant_option', 'origin'])
  t.same(p.rows, [{ permission: 'HTTP', table_name: null, column_name: null, grant_option: false, origin: 'G' }])
  const tok = await c.query("alter user bob create token type rest with ttl '1d' refresh")
  t.match(tok.rows[0], { name: 'bob', token: /^qt1/, refresh: true })
  t.same(tok.fields.map((f) => f.name), ['name', 'token', 'expires_at', 'refresh'])
})
