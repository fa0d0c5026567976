/**
 * Starting the standalone server: an address in use ends with a message naming the key and
 * the address (exit 1, no stack trace) and releases the data-directory lock; the banner warns
 * when REST or pgwire is reachable beyond loopback without authentication.
 */
import t from 'tap'
import { createServer, type Server } from 'node:net'
import { readdirSync } from 'node:fs'
import { Database } from '../../lib/index.js'
import { freePort, spawnServer, startServer } from './server-process.js'
import { tmpDir } from '../unit/storage/helpers.js'

async function occupy(port: number): Promise<Server> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(port, '127.0.0.1', r))
  return s
}

for (const [key, env, which] of [['http.bind.to', 'QDB_HTTP_BIND_TO', 'http'], ['pg.net.bind.to', 'QDB_PG_NET_BIND_TO', 'pg']] as const) {
  t.test(`${key} in use: the key and address are named, exit 1, no stack, lock released`, { timeout: 60_000 }, async (t) => {
    const dir = tmpDir(t, 'epochdb-start-')
    const ports = { http: await freePort(), pg: await freePort() }
    const busy = await occupy(ports[which])
    t.teardown(() => { busy.close() })
    const s = await spawnServer(dir, {}, { ports })
    t.teardown(() => { s.proc.kill('SIGKILL') })
    t.equal(await s.exited, 1, 'exit code 1')
    t.match(s.err(), `cannot listen on 127.0.0.1:${ports[which]} (${key} / ${env}): the address is already in use`)
    t.notMatch(s.err(), /\n\s+at /, 'no stack trace')
    t.same(readdirSync(dir).filter((e) => e.startsWith('_lock')), [], 'the lock is released')
    const db = await Database.open({ path: dir })
    await db.close()
  })
}

t.test('the banner warns about unauthenticated REST and pgwire beyond loopback', { timeout: 60_000 }, async (t) => {
  const banner = async (wide: boolean, env: Record<string, string> = {}): Promise<string> => {
    const dir = tmpDir(t, 'epochdb-banner-')
    const ports = { http: await freePort(), pg: await freePort() }
    const bind: Record<string, string> = wide ? { QDB_HTTP_BIND_TO: `0.0.0.0:${ports.http}`, QDB_PG_NET_BIND_TO: `0.0.0.0:${ports.pg}` } : {}
    const s = await startServer(dir, { ...bind, ...env }, { ports })
    s.proc.kill('SIGTERM')
    t.equal(await s.exited, 0)
    return s.out()
  }
  const open = await banner(true)
  t.match(open, /WARNING +REST is open to anyone .* without a password: set http\.user and http\.password/)
  t.match(open, /WARNING +pgwire on 0\.0\.0\.0:\d+ accepts the default login admin\/quest/)
  const loop = await banner(false)
  t.notMatch(loop, /WARNING/, 'nothing to warn about on 127.0.0.1')
  const secured = await banner(true, { QDB_HTTP_USER: 'u', QDB_HTTP_PASSWORD: 'p', QDB_PG_PASSWORD: 'not-quest' })
  t.notMatch(secured, /WARNING/, 'nothing to warn about with passwords set')
})
