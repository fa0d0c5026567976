import { spawn } from 'node:child_process'
import net from 'node:net'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { ConfigError, loadConfig } from '../../../adapters/http/server/config.js'
import { get } from './helpers.js'
import { nodeScript } from '../../node-script.js'

t.test('config: defaults, server.conf, QDB_ overrides, warnings, bad values', async (t) => {
  const warnings: string[] = []
  const d = loadConfig(undefined, {}, (m) => warnings.push(m))
  t.same(d.http, { host: '0.0.0.0', port: 9000 })
  t.same(d.pg, { host: '0.0.0.0', port: 8812 })
  t.equal(d.cairoRoot, './qdb_root')
  t.equal(d.pgUser, 'admin')
  const c = loadConfig('# comment\nhttp.bind.to=127.0.0.1:19000\npg.net.bind.to = 127.0.0.1:18812\nhttp.user=joe\nhttp.password=pw\nmystery.key=1\n',
    { QDB_HTTP_BIND_TO: '127.0.0.1:29000', QDB_CAIRO_ROOT: '/data', QDB_NOPE: 'x', PATH: '/bin' }, (m) => warnings.push(m))
  t.same(c.http, { host: '127.0.0.1', port: 29000 }, 'environment wins over the file')
  t.same(c.pg, { host: '127.0.0.1', port: 18812 })
  t.equal(c.cairoRoot, '/data')
  t.equal(c.httpUser, 'joe')
  t.match(warnings, [/unknown key 'mystery.key'/, /QDB_NOPE/])
  t.throws(() => loadConfig('http.bind.to=nowhere', {}, () => {}), new ConfigError("bad value for http.bind.to (server.conf line 1): 'nowhere', expected host:port with a port 0-65535"))
  t.throws(() => loadConfig(undefined, { QDB_HTTP_SECURITY_READONLY: 'yes' }, () => {}), /bad value for http.security.readonly \(environment QDB_HTTP_SECURITY_READONLY\)/)
  t.throws(() => loadConfig('http.user=joe', {}, () => {}), /must be set together/)
  t.match(d, { httpConnectionLimit: 64, httpIdleTimeoutMs: 300000, httpHeaderTimeoutMs: 10000, httpRequestTimeoutMs: 300000, httpAllowedOrigins: [], httpAllowedHosts: [] }, 'exposure defaults')
  t.match(loadConfig('http.net.connection.limit=8\nhttp.security.allowed.origins=https://a.example, http://localhost:3000\n', { QDB_HTTP_SECURITY_ALLOWED_HOSTS: 'db.example.com' }, () => {}),
    { httpConnectionLimit: 8, httpAllowedOrigins: ['https://a.example', 'http://localhost:3000'], httpAllowedHosts: ['db.example.com'] })
  t.throws(() => loadConfig('http.security.allowed.origins=localhost:3000', {}, () => {}), /bad value for http.security.allowed.origins \(server.conf line 1\)/)
  t.same(loadConfig('http.net.bind.to=127.0.0.1:1', {}, () => {}).http, { host: '127.0.0.1', port: 1 }, "QuestDB's key name works too")
  t.equal(d.maxNameLength, 127)
  t.equal(loadConfig(undefined, { QDB_CAIRO_MAX_FILE_NAME_LENGTH: '40' }, () => {}).maxNameLength, 40)
  t.match(d, { columnAliasExpression: true, columnAliasMaxLength: 64 }, "result columns named after their expression, QuestDB 9's default")
  t.match(loadConfig('cairo.sql.column.alias.expression.enabled=false\ncairo.sql.column.alias.generated.max.size=10\n', {}, () => {}), { columnAliasExpression: false, columnAliasMaxLength: 10 })
})

/** Runs examples/server.ts with `env`; resolves with the child and its REST port (from the banner). */
function startChild(env: Record<string, string>, args: string[] = []): Promise<{ child: ReturnType<typeof spawn>; port: number; out: () => string }> {
  const child = spawn(process.execPath, [...nodeScript('examples/server.ts'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('no banner: ' + out)) }, 30000)
    const onData = (c: Buffer): void => {
      out += c.toString()
      const m = /REST API\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)
      if (m !== null) { clearTimeout(timer); resolve({ child, port: Number(m[1]), out: () => out }) }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (c: Buffer) => { out += c.toString() })
    child.on('exit', () => { clearTimeout(timer); reject(new Error('exited: ' + out)) })
  })
}

t.test('npm start: banner, REST, one log line per request, graceful SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-conf-'))
  const conf = join(dir, 'server.conf')
  // a data directory of its own (the server locks it): never the repository's ./qdb_root
  const root = join(dir, 'root')
  writeFileSync(conf, `http.bind.to=127.0.0.1:0\npg.net.bind.to=127.0.0.1:0\ncairo.root=${root}\n`)
  const { child, port, out } = await startChild({}, ['--conf', conf])
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  t.ok(out().includes(`${root} (cairo.root)`), 'the banner names the data directory')
  t.equal((await get(port, '/exec?query=select+1+x')).body, '{"query":"select 1 x","columns":[{"name":"x","type":"INT"}],"timestamp":-1,"dataset":[[1]],"count":1}')
  // cairo.sql.column.alias.expression.enabled defaults to true, as on a QuestDB 9 server
  t.match(JSON.parse((await get(port, '/exec?query=' + encodeURIComponent('select 1+1, 1+1'))).body).columns, [{ name: '1 + 1' }, { name: '1 + 1_2' }])
  t.match((await get(port, '/')).body, /EpochDB/)
  await new Promise((r) => setTimeout(r, 100))
  const line = out().split('\n').find((l) => l.includes('"path":"/exec"'))
  t.ok(line, 'a log line for the request')
  t.match(JSON.parse(line!), { msg: 'http', method: 'GET', path: '/exec', status: 200, rows: 1 })
  const code = await new Promise<number | null>((resolve) => { child.on('exit', (c) => resolve(c)); child.kill('SIGTERM') })
  t.equal(code, 0)
  t.match(out(), /"msg":"stopped"/)
})

t.test('a bad value stops start-up with a clear message', async (t) => {
  const child = spawn(process.execPath, nodeScript('examples/server.ts'), { env: { ...process.env, QDB_HTTP_BIND_TO: 'nope' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  child.stderr.on('data', (c: Buffer) => { err += c.toString() })
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
  t.equal(code, 2)
  t.match(err, "epochdb: bad value for http.bind.to (environment QDB_HTTP_BIND_TO): 'nope'")
})

t.test('npm start reads the exposure keys: connection limit and cross-site check', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-conf-'))
  const conf = join(dir, 'server.conf')
  writeFileSync(conf, `http.bind.to=127.0.0.1:0\npg.enabled=false\ncairo.root=${join(dir, 'root')}\nhttp.net.connection.limit=1\n`)
  const { child, port } = await startChild({ QDB_HTTP_SECURITY_ALLOWED_ORIGINS: 'http://app.example' }, ['--conf', conf])
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  t.equal((await get(port, '/exec?query=select+1', { origin: 'http://evil.example', connection: 'close' })).status, 403, 'a foreign origin')
  await new Promise((r) => setTimeout(r, 200)) // limit 1: let the server see the closed connection
  t.equal((await get(port, '/exec?query=select+1', { origin: 'http://app.example', connection: 'close' })).status, 200, 'an allowed origin')
  const idle = net.connect(port, '127.0.0.1')
  await new Promise((r) => idle.once('connect', r))
  await new Promise((r) => setTimeout(r, 200))
  t.equal((await get(port, '/exec?query=select+1', { connection: 'close' })).status, 503, 'a second connection while one is open')
  idle.destroy()
})
