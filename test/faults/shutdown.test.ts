/**
 * Shutdown of the standalone server with writes in flight: a long `INSERT ... SELECT` over REST
 * and one over pgwire at SIGINT are cancelled, their clients get 503 / ErrorResponse 57P01, the
 * server exits 0, and after a restart the table holds none of their rows. A second SIGINT exits
 * at once and committed rows survive it.
 */
import t, { type Test } from 'tap'
import { connect } from 'node:net'
import pg from 'pg'
import { exec, startServer, type ServerProcess } from './server-process.js'
import { tmpDir } from '../unit/storage/helpers.js'

/** ~10 s of work if it ran to the end (scans 300M rows), three rows of output, flat memory. */
const LONG_INSERT = 'insert into t select x::timestamp, x from long_sequence(300000000) where x % 100000000 = 0'

async function withTable(t: Test): Promise<{ dir: string; server: ServerProcess }> {
  const dir = tmpDir(t, 'epochdb-shutdown-')
  const server = await startServer(dir)
  t.teardown(() => { server.proc.kill('SIGKILL') })
  t.equal((await exec(server.url, 'create table t (ts timestamp, x long) timestamp(ts)')).status, 200)
  t.equal((await exec(server.url, "insert into t values ('2024-01-01', 1), ('2024-01-02', 2), ('2024-01-03', 3)")).status, 200)
  return { dir, server }
}

t.test('SIGINT cancels in-flight INSERT ... SELECT over REST and pgwire; nothing of them is committed', { timeout: 90_000 }, async (t) => {
  const { dir, server } = await withTable(t)
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb' })
  client.on('error', () => { /* the server closes the connection after the error */ })
  await client.connect()
  const rest = fetch(`${server.url}/exec?query=${encodeURIComponent(LONG_INSERT)}`).then(async (r) => ({ status: r.status, body: await r.text() }))
  const wire = client.query(LONG_INSERT).then(() => undefined, (e: unknown) => e)
  await new Promise((r) => setTimeout(r, 800))
  t.equal((await exec(server.url, 'select count() from t')).body.dataset?.[0]?.[0], 3, 'both inserts are still running')
  server.proc.kill('SIGINT')
  const r = await rest
  t.equal(r.status, 503, 'REST: 503')
  t.match(JSON.parse(r.body), { query: LONG_INSERT, error: /shutting down/ }, 'with QuestDB error JSON')
  t.match(await wire, { code: '57P01', message: /shutting down/ }, 'pgwire: ErrorResponse 57P01 admin_shutdown')
  t.equal(await server.exited, 0, 'the server exits 0')
  t.notMatch(server.err(), /\n\s+at /, 'no stack trace')
  const again = await startServer(dir)
  t.teardown(() => { again.proc.kill('SIGKILL') })
  t.same((await exec(again.url, 'select count(), sum(x) from t')).body.dataset, [[3, 6]], 'only the committed rows are there')
  again.proc.kill('SIGTERM')
  t.equal(await again.exited, 0)
})

t.test('a second SIGINT exits at once; committed rows survive', { timeout: 90_000 }, async (t) => {
  const { dir, server } = await withTable(t)
  const rest = fetch(`${server.url}/exec?query=${encodeURIComponent(LONG_INSERT)}`).then((r) => r.status, () => 'connection closed')
  // a client that never closes its side keeps the first shutdown waiting for its connection
  const stuck = connect({ host: '127.0.0.1', port: server.pgPort, allowHalfOpen: true })
  stuck.on('error', () => {})
  t.teardown(() => { stuck.destroy() })
  await new Promise((r) => stuck.once('connect', r))
  await new Promise((r) => setTimeout(r, 500))
  server.proc.kill('SIGINT')
  await new Promise((r) => setTimeout(r, 500))
  t.equal(server.proc.exitCode, null, 'the first SIGINT waits for the connection to close')
  const t0 = Date.now()
  server.proc.kill('SIGINT')
  const code = await server.exited
  t.equal(code, 130, 'the second SIGINT exits at once with 130')
  t.ok(Date.now() - t0 < 2000, `at once (${Date.now() - t0} ms)`)
  t.notMatch(server.err(), /\n\s+at /, 'no stack trace')
  t.ok(['connection closed', 503].includes(await rest as never), 'the in-flight write was not acknowledged')
  const again = await startServer(dir)
  t.teardown(() => { again.proc.kill('SIGKILL') })
  t.same((await exec(again.url, 'select count(), sum(x) from t')).body.dataset, [[3, 6]], 'committed rows survive; the cancelled write left nothing')
  again.proc.kill('SIGTERM')
  t.equal(await again.exited, 0)
})

t.test('SIGTERM: an idle pgwire client gets FATAL 57P01 terminating connection due to administrator command', { timeout: 60_000 }, async (t) => {
  const { server } = await withTable(t)
  const client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', database: 'qdb' })
  let error: { code?: string; severity?: string; message: string } | undefined
  client.on('error', (e) => { error ??= e }) // then pg's own "Connection terminated unexpectedly"
  const ended = new Promise<void>((resolve) => client.on('end', resolve))
  await client.connect()
  t.same((await client.query('select 1 x')).rows, [{ x: 1 }])
  server.proc.kill('SIGTERM')
  await ended
  t.match(error, { code: '57P01', severity: 'FATAL', message: 'terminating connection due to administrator command' }, 'pg saw the FATAL ErrorResponse before the close')
  t.equal(await server.exited, 0, 'the server exits 0')
})
