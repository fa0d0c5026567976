/**
 * SIGTERM of the standalone server while ILP/TCP connections hold rows not yet committed (the
 * commit interval is long): the rows of complete lines are committed before the database closes,
 * the server exits 0, and a restart finds them. A partial last line is dropped.
 */
import t from 'tap'
import net from 'node:net'
import { exec, freePort, startServer } from './server-process.js'
import { tmpDir } from '../unit/storage/helpers.js'

t.test('SIGTERM commits the rows ILP/TCP connections hold', { timeout: 90_000 }, async (t) => {
  const dir = tmpDir(t, 'epochdb-ilp-sigterm-')
  const ilpPort = await freePort()
  const env = { QDB_LINE_TCP_ENABLED: 'true', QDB_LINE_TCP_NET_BIND_TO: `127.0.0.1:${ilpPort}`, QDB_LINE_TCP_COMMIT_INTERVAL_DEFAULT: '600000' }
  const server = await startServer(dir, env)
  t.teardown(() => { server.proc.kill('SIGKILL') })
  const s = net.connect(ilpPort, '127.0.0.1')
  s.on('error', () => undefined)
  await new Promise((r) => s.once('connect', r))
  const body = Array.from({ length: 3000 }, (_, i) => `pending,k=k${i % 3} v=${i}i ${1_700_000_000_000_000 + i}t\n`).join('')
  s.write(body + 'pending,k=x v=-1')
  await new Promise((r) => setTimeout(r, 500))
  t.match((await exec(server.url, 'select count() from pending')).body, { error: /does not exist/ }, 'nothing committed before the signal')
  server.proc.kill('SIGTERM')
  t.equal(await server.exited, 0, 'the server exits 0')
  t.match(server.out(), /partial measurement dropped/, 'the partial line is logged')
  s.destroy()
  const again = await startServer(dir, env)
  t.teardown(() => { again.proc.kill('SIGKILL') })
  t.same((await exec(again.url, 'select count(), sum(v), count_distinct(k) from pending')).body.dataset, [[3000, 4_498_500, 3]], 'every complete line survived the shutdown')
  again.proc.kill('SIGTERM')
  t.equal(await again.exited, 0)
})
