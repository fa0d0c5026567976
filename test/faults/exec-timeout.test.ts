/**
 * Query timeouts end any query with 57014 "canceling statement due to statement timeout":
 * pgwire `SET statement_timeout` and the startup option (pg, psql), REST `timeout=` (seconds)
 * and `Statement-Timeout` (ms), the library's `queryTimeout` / per-query `timeout`, and the
 * server's `query.timeout` key (alias `query.timeout.sec`). A REST client that disconnects stops
 * its query.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import http from 'node:http'
import { Database } from '../../lib/index.js'
import { loadConfig } from '../../adapters/http/server/config.js'
import { ATTACKS, failure, pgClient, sleep, startServers } from './exec-helpers.js'

const TIMEOUT_MESSAGE = 'canceling statement due to statement timeout'
const srv = await startServers()
t.teardown(() => srv.close())

t.test('pgwire SET statement_timeout ends a cross join with 57014; 0 turns it off', { timeout: 60_000 }, async (t) => {
  const c = await pgClient(srv.pgPort)
  t.teardown(() => c.end())
  await c.query("SET statement_timeout = '300ms'")
  const started = Date.now()
  const e = await failure(c.query(ATTACKS.crossJoin))
  t.equal(e?.code, '57014')
  t.match(e?.message, TIMEOUT_MESSAGE)
  t.ok(Date.now() - started < 3000, `ended after ${Date.now() - started} ms`)
  await c.query('SET statement_timeout = 0')
  t.same((await c.query('select count(*) c from long_sequence(10) a cross join long_sequence(10) b')).rows, [{ c: '100' }])
  t.equal((await failure(c.query("SET statement_timeout = 'soon'")))?.code, '22023')
})

t.test('pg statement_timeout startup parameter and libpq -c option (psql)', { timeout: 60_000 }, async (t) => {
  const c = await pgClient(srv.pgPort, { statement_timeout: 300 })
  t.teardown(() => c.end())
  t.equal((await failure(c.query(ATTACKS.singleKeyJoin)))?.code, '57014')
  const out = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile('/usr/bin/psql', ['-h', '127.0.0.1', '-p', String(srv.pgPort), '-U', 'admin', '-d', 'qdb', '-c', ATTACKS.crossJoin],
      { env: { ...process.env, PGPASSWORD: 'quest', PGOPTIONS: '-c statement_timeout=300' }, timeout: 30_000 },
      (err, _stdout, stderr) => resolve({ code: err === null ? 0 : (err as { code?: number }).code ?? null, stderr }))
  })
  t.not(out.code, 0)
  t.match(out.stderr, TIMEOUT_MESSAGE)
})

/** GET /exec; resolves to the status and body. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: srv.httpPort, path, headers }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => { body += d.toString() })
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    }).on('error', reject)
  })
}

t.test('REST timeout= (seconds) and Statement-Timeout (ms) end /exec with the timeout error', { timeout: 60_000 }, async (t) => {
  const q = encodeURIComponent(ATTACKS.crossJoin)
  const started = Date.now()
  const a = await get(`/exec?query=${q}&timeout=0.3`)
  t.equal(a.status, 400)
  t.match(a.body, TIMEOUT_MESSAGE)
  const b = await get(`/exec?query=${q}`, { 'Statement-Timeout': '300' })
  t.match(b.body, TIMEOUT_MESSAGE)
  const c = await get(`/exp?query=${q}&timeout=0.3`)
  t.match(c.body, TIMEOUT_MESSAGE)
  t.ok(Date.now() - started < 6000, `three timed-out requests took ${Date.now() - started} ms`)
})

t.test('a REST client that disconnects stops its query: no work continues', { timeout: 60_000 }, async (t) => {
  const req = http.get({ host: '127.0.0.1', port: srv.httpPort, path: `/exec?query=${encodeURIComponent(ATTACKS.crossJoin)}` })
  req.on('error', () => {})
  // the server shares this process: a blocked event loop delays these timers (lag), a query
  // that keeps running after the disconnect keeps the process busy (CPU share)
  const due = Date.now() + 600
  await sleep(300)
  req.destroy()
  await sleep(300)
  const lag = Date.now() - due
  t.ok(lag < 2000, `timers ran ${lag} ms late`)
  const cpu0 = process.cpuUsage()
  const wall0 = Date.now()
  await sleep(1000)
  const cpu = process.cpuUsage(cpu0)
  const share = (cpu.user + cpu.system) / 1000 / (Date.now() - wall0)
  t.ok(share < 0.3, `CPU share after the disconnect: ${share.toFixed(2)}`)
})

t.test('library: Database.open queryTimeout and the per-query timeout', { timeout: 60_000 }, async (t) => {
  const db = await Database.open({ queryTimeout: 300 })
  t.teardown(() => db.close())
  const e = await failure(db.query(ATTACKS.window))
  t.equal(e?.code, '57014')
  t.match(e?.message, TIMEOUT_MESSAGE)
  const started = Date.now()
  t.equal((await failure(db.query(ATTACKS.crossJoin, [], { timeout: 200 })))?.code, '57014')
  t.ok(Date.now() - started < 3000, `ended after ${Date.now() - started} ms`)
  t.same((await db.query('select count(*) from long_sequence(100) a cross join long_sequence(100) b', [], { timeout: 0 })).rows, [[10000n]])
})

t.test('server config: query.timeout (QuestDB default 60s) and query.timeout.sec', async (t) => {
  t.equal(loadConfig(undefined, {}, () => {}).queryTimeoutMs, 60_000)
  t.equal(loadConfig('query.timeout=500ms', {}, () => {}).queryTimeoutMs, 500)
  t.equal(loadConfig('query.timeout=2m', {}, () => {}).queryTimeoutMs, 120_000)
  t.equal(loadConfig('query.timeout.sec=5', {}, () => {}).queryTimeoutMs, 5000)
  t.equal(loadConfig(undefined, { QDB_QUERY_TIMEOUT: '0' }, () => {}).queryTimeoutMs, 0)
  t.throws(() => loadConfig('query.timeout=forever', {}, () => {}), /bad value for query.timeout/)
})
