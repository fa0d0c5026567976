/**
 * The timeout ceiling: a client cannot ask for more time than the server allows. REST
 * `timeout=`, `Statement-Timeout` and pgwire `SET statement_timeout` (0 included) above
 * `epochdb.query.timeout.max` (library: `maxQueryTimeout`; default on the standalone server:
 * `query.timeout`) are lowered to it.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'
import { loadConfig } from '../../adapters/http/server/config.js'
import { ATTACKS, failure, pgClient, startServers } from './exec-helpers.js'

const srv = await startServers({ queryTimeout: 300, maxQueryTimeout: 300 })
t.teardown(() => srv.close())

t.test('pgwire: SET statement_timeout = 0 or 60s still ends at the ceiling', { timeout: 60_000 }, async (t) => {
  const c = await pgClient(srv.pgPort)
  t.teardown(() => c.end())
  for (const v of ['0', "'60s'"]) {
    await c.query(`SET statement_timeout = ${v}`)
    const started = Date.now()
    const e = await failure(c.query(ATTACKS.crossJoin))
    t.equal(e?.code, '57014', `statement_timeout ${v}: ${e?.message}`)
    t.ok(Date.now() - started < 3000, `ended after ${Date.now() - started} ms`)
  }
  await c.query("SET statement_timeout = '100ms'")
  t.equal((await failure(c.query(ATTACKS.crossJoin)))?.code, '57014', 'a shorter timeout still applies')
})

t.test('REST: timeout=3600 and Statement-Timeout still end at the ceiling', { timeout: 60_000 }, async (t) => {
  for (const [query, headers] of [[`timeout=3600`, {}], ['', { 'Statement-Timeout': '3600000' }]] as const) {
    const started = Date.now()
    const r = await fetch(`http://127.0.0.1:${srv.httpPort}/exec?query=${encodeURIComponent(ATTACKS.crossJoin)}&${query}`, { headers })
    const body = await r.json() as { error?: string }
    t.match(body.error, /statement timeout/, `${query || 'Statement-Timeout'}: ${r.status}`)
    t.ok(Date.now() - started < 3000, `ended after ${Date.now() - started} ms`)
  }
})

t.test('library: the per-call timeout is capped by maxQueryTimeout', { timeout: 60_000 }, async (t) => {
  const db = await Database.open({ maxQueryTimeout: 300 })
  t.teardown(() => db.close())
  const started = Date.now()
  t.equal((await failure(db.query(ATTACKS.crossJoin, [], { timeout: 60_000 })))?.code, '57014')
  t.ok(Date.now() - started < 3000, `ended after ${Date.now() - started} ms`)
})

t.test('server config: epochdb.query.timeout.max defaults to query.timeout', async (t) => {
  t.equal(loadConfig(undefined, {}, () => {}).maxQueryTimeoutMs, 60_000)
  t.equal(loadConfig('query.timeout=5s', {}, () => {}).maxQueryTimeoutMs, 5000)
  t.equal(loadConfig('query.timeout=5s\nepochdb.query.timeout.max=10m', {}, () => {}).maxQueryTimeoutMs, 600_000)
  t.equal(loadConfig(undefined, { QDB_EPOCHDB_QUERY_TIMEOUT_MAX: '0' }, () => {}).maxQueryTimeoutMs, 0)
})
