/**
 * The standalone server's pgwire keys: defaults, and `npm start` with QDB_PG_SECURITY_READONLY,
 * QDB_PG_NET_CONNECTION_LIMIT and QDB_PG_NET_CONNECTION_TIMEOUT plumbed through to the adapter.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import pg from 'pg'
import { loadConfig } from '../../adapters/http/server/config.js'
import { nodeScript } from '../node-script.js'

t.setTimeout(60_000)

t.test('defaults and values', async (t) => {
  const d = loadConfig(undefined, {}, () => {})
  t.same([d.pgReadOnly, d.pgMaxConnections, d.pgIdleTimeoutMs, d.pgMaxMessageSize], [false, 64, 300_000, 64 * 1024 * 1024])
  const c = loadConfig('pg.security.readonly=true\npg.net.connection.limit=5\npg.net.connection.timeout=1000\npg.recv.buffer.size=1048576\n', {}, () => {})
  t.same([c.pgReadOnly, c.pgMaxConnections, c.pgIdleTimeoutMs, c.pgMaxMessageSize], [true, 5, 1000, 1048576])
  t.throws(() => loadConfig(undefined, { QDB_PG_NET_CONNECTION_LIMIT: 'many' }, () => {}), /bad value for pg.net.connection.limit/)
})

t.test('npm start with the pgwire keys', async (t) => {
  const root = join(mkdtempSync(join(tmpdir(), 'epochdb-pgkeys-')), 'root')
  const child = spawn(process.execPath, nodeScript('examples/server.ts'), {
    env: {
      ...process.env, QDB_HTTP_ENABLED: 'false', QDB_PG_NET_BIND_TO: '127.0.0.1:0', QDB_CAIRO_ROOT: root,
      QDB_PG_SECURITY_READONLY: 'true', QDB_PG_NET_CONNECTION_LIMIT: '1', QDB_PG_NET_CONNECTION_TIMEOUT: '500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let out = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no banner: ' + out)), 30_000)
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /PostgreSQL\s+postgresql:\/\/admin@127\.0\.0\.1:(\d+)\//.exec(out)
      if (m !== null) { clearTimeout(timer); resolve(Number(m[1])) }
    })
  })
  const cfg = { host: '127.0.0.1', port, user: 'admin', password: 'quest', database: 'qdb' }
  const a = new pg.Client(cfg)
  const idle = new Promise<Error & { code?: string }>((resolve) => a.on('error', resolve))
  await a.connect()
  await t.rejects(a.query('create table x (a int)'), { code: '25006' }, 'pg.security.readonly')
  const b = new pg.Client(cfg)
  await t.rejects(b.connect(), { code: '53300' }, 'pg.net.connection.limit')
  t.equal((await idle).code, '57P05', 'pg.net.connection.timeout')
  child.kill('SIGTERM')
})
