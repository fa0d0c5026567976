/**
 * The standalone server's login keys: pgwire TLS (QuestDB Enterprise's `tls.*` / `pg.tls.*`
 * keys, certificates generated at test time with openssl), the require-TLS mode, SCRAM by
 * default (`pg.auth.method`), HTTPS (`http.tls.*`) and the failed-login limits
 * (`auth.login.*`) shared by REST and pgwire. Real clients: psql and node `pg`.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import pg from 'pg'
import { loadConfig } from '../../adapters/http/server/config.js'
import { nodeScript } from '../node-script.js'

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'epochdb-auth-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const cert = join(dir, 'cert.pem')
const key = join(dir, 'key.pem')
await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', key, '-out', cert], { timeout: 30_000 })

t.test('config: tls.* and pg.tls.* / http.tls.* fallbacks, pg.auth.method, auth.login.*', async (t) => {
  const d = loadConfig(undefined, {}, () => {})
  t.equal(d.pgTls, undefined)
  t.equal(d.httpTls, undefined)
  t.equal(d.pgTlsRequired, true)
  t.equal(d.pgAuthMethod, 'scram-sha-256')
  t.same([d.loginFailuresMax, d.loginUserFailuresMax, d.loginLockoutMs], [5, 20, 60000])
  const g = loadConfig(`tls.enabled=true\ntls.cert.path=/c\ntls.private.key.path=/k\npg.tls.cert.path=/pgc\n`, {}, () => {})
  t.same(g.pgTls, { certPath: '/pgc', keyPath: '/k' }, 'per-protocol paths override the global ones')
  t.same(g.httpTls, { certPath: '/c', keyPath: '/k' }, 'and fall back to them')
  const off = loadConfig(`tls.enabled=true\ntls.cert.path=/c\ntls.private.key.path=/k\n`, { QDB_HTTP_TLS_ENABLED: 'false' }, () => {})
  t.equal(off.httpTls, undefined, 'http.tls.enabled=false turns TLS off for REST only')
  t.same(off.pgTls, { certPath: '/c', keyPath: '/k' })
  t.throws(() => loadConfig('pg.tls.enabled=true', {}, () => {}), /pg.tls.enabled: TLS needs pg.tls.cert.path and pg.tls.private.key.path/)
  t.throws(() => loadConfig('pg.auth.method=md5', {}, () => {}), /bad value for pg.auth.method .*expected password or scram-sha-256/)
  const l = loadConfig(undefined, { QDB_AUTH_LOGIN_FAILURES_MAX: '3', QDB_AUTH_LOGIN_LOCKOUT_MS: '1000', QDB_PG_TLS_REQUIRED: 'false', QDB_PG_AUTH_METHOD: 'password' }, () => {})
  t.same([l.loginFailuresMax, l.loginLockoutMs, l.pgTlsRequired, l.pgAuthMethod], [3, 1000, false, 'password'])
})

interface Child { readonly http: number; readonly pg: number; readonly out: () => string; stop(): Promise<void> }

/** Runs examples/server.ts with a server.conf of `conf` lines; resolves once the banner shows both ports. */
async function startServer(t: { teardown: (fn: () => void) => void }, conf: string[]): Promise<Child> {
  const root = mkdtempSync(join(dir, 'root-'))
  const file = join(root, 'server.conf')
  writeFileSync(file, ['http.bind.to=127.0.0.1:0', 'pg.net.bind.to=127.0.0.1:0', `cairo.root=${join(root, 'db')}`, ...conf].join('\n') + '\n')
  const child = spawn(process.execPath, [...nodeScript('examples/server.ts'), '--conf', file], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const ports = await new Promise<{ http: number; pg: number }>((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('no banner: ' + out)) }, 30_000)
    const onData = (c: Buffer): void => {
      out += c.toString()
      const h = /REST API\s+https?:\/\/127\.0\.0\.1:(\d+)\//.exec(out)
      const p = /PostgreSQL\s+postgresql:\/\/\w+@127\.0\.0\.1:(\d+)\//.exec(out)
      if (h !== null && p !== null) { clearTimeout(timer); resolve({ http: Number(h[1]), pg: Number(p[1]) }) }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (c: Buffer) => { out += c.toString() })
    child.on('exit', () => { clearTimeout(timer); reject(new Error('exited: ' + out)) })
  })
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return
    await new Promise<void>((resolve) => { child.on('exit', () => resolve()); child.kill('SIGTERM') })
  }
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  return { ...ports, out: () => out, stop }
}

/** psql -c `sql` with a connection string; resolves with the exit code and the output. */
async function psql(conninfo: string, sql: string, password: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('psql', [conninfo, '-X', '-A', '-t', '-c', sql], { env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '10' }, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, out: stdout + stderr })
    })
  })
}

const conn = (port: number, sslmode: string): string => `host=127.0.0.1 port=${port} user=admin dbname=qdb sslmode=${sslmode}`

/** A `pg` login: 'ok' after `select 1`, or the error's SQLSTATE (or message). */
async function pgLogin(port: number, password: string, ssl: boolean): Promise<string> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'admin', password, database: 'qdb', ...(ssl ? { ssl: { rejectUnauthorized: false } } : {}) })
  try {
    await c.connect()
    return (await c.query('select 1 as x')).rows[0].x === 1 ? 'ok' : 'wrong'
  } catch (e) {
    return (e as { code?: string }).code ?? (e as Error).message
  } finally {
    await c.end().catch(() => undefined)
  }
}

t.test('tls.enabled: psql sslmode=require and pg with ssl log in (SCRAM); plaintext is refused with 28000; HTTPS', { timeout: 120_000 }, async (t) => {
  const s = await startServer(t, ['tls.enabled=true', `tls.cert.path=${cert}`, `tls.private.key.path=${key}`, 'pg.password=s3cret', 'auth.login.failures.max=2'])
  t.match(s.out(), /PostgreSQL\s+postgresql:\/\/admin@127\.0\.0\.1:\d+\/qdb\?sslmode=require\s+\(scram-sha-256\)/, 'the banner says how to connect')
  const ok = await psql(conn(s.pg, 'require'), '\\conninfo', 's3cret')
  t.equal(ok.code, 0, ok.out)
  t.match(ok.out, /SSL connection \(protocol: TLSv1\.[23]/, 'psql reports an SSL connection')
  const one = await psql(conn(s.pg, 'require'), 'select 41 + 1', 's3cret')
  t.equal(one.out.trim(), '42')
  const plain = await psql(conn(s.pg, 'disable'), 'select 1', 's3cret')
  t.not(plain.code, 0)
  t.match(plain.out, /SSL connection is required/, 'psql sslmode=disable gets the refusal')
  t.equal(await pgLogin(s.pg, 's3cret', true), 'ok', 'pg with ssl: { rejectUnauthorized: false }')
  t.equal(await pgLogin(s.pg, 's3cret', false), '28000', 'pg without ssl: 28000 and nothing else')
  const body = await new Promise<string>((resolve, reject) => {
    https.get({ host: '127.0.0.1', port: s.http, path: '/exec?query=select+1+x', rejectUnauthorized: false }, (res) => {
      let b = ''
      res.on('data', (c: Buffer) => { b += c.toString() })
      res.on('end', () => resolve(b))
    }).on('error', reject)
  })
  t.match(body, /"dataset":\[\[1\]\]/, 'REST over HTTPS (http.tls.* falls back to tls.*)')
  // wrong SCRAM passwords are counted (auth.login.failures.max=2), the lock covers the right one too
  const bad1 = await psql(conn(s.pg, 'require'), 'select 1', 'wrong')
  t.match(bad1.out, /password authentication failed for user "admin"/)
  t.equal(await pgLogin(s.pg, 'wrong-again', true), '28P01')
  const locked = await psql(conn(s.pg, 'require'), 'select 1', 's3cret')
  t.match(locked.out, /too many failed login attempts, retry in \d+ s/, 'psql shows the lock-out')
  t.match(s.out(), /"msg":"login lockout","scope":"address","key":"127\.0\.0\.1","failures":2,"lockoutMs":60000/, 'and the server logs it')
  await s.stop()
})

t.test('pg.tls.required=false accepts both; pg.auth.method=password asks for a cleartext password', { timeout: 120_000 }, async (t) => {
  const s = await startServer(t, ['pg.tls.enabled=true', `pg.tls.cert.path=${cert}`, `pg.tls.private.key.path=${key}`, 'pg.tls.required=false', 'pg.auth.method=password'])
  t.match(s.out(), /REST API\s+http:\/\//, 'REST stays plain: only pg.tls.* is on')
  t.equal((await psql(conn(s.pg, 'disable'), 'select 1', 'quest')).out.trim(), '1')
  const tls = await psql(conn(s.pg, 'require'), '\\conninfo', 'quest')
  t.match(tls.out, /SSL connection/)
  t.equal(await pgLogin(s.pg, 'quest', false), 'ok')
  t.equal(await pgLogin(s.pg, 'quest', true), 'ok')
  await s.stop()
})

t.test('SCRAM is the default without TLS too: psql and pg', { timeout: 120_000 }, async (t) => {
  const s = await startServer(t, [])
  t.match(s.out(), /\(scram-sha-256\)/)
  t.equal((await psql(conn(s.pg, 'disable'), 'select 1', 'quest')).out.trim(), '1')
  t.equal((await psql(conn(s.pg, 'prefer'), 'select 1', 'quest')).out.trim(), '1', 'sslmode=prefer falls back to plaintext when TLS is off')
  t.equal(await pgLogin(s.pg, 'quest', false), 'ok')
  t.equal(await pgLogin(s.pg, 'nope', false), '28P01')
  await s.stop()
})

t.test('a missing certificate file stops start-up naming the key', { timeout: 60_000 }, async (t) => {
  const child = spawn(process.execPath, nodeScript('examples/server.ts'), {
    env: { ...process.env, QDB_PG_TLS_ENABLED: 'true', QDB_PG_TLS_CERT_PATH: join(dir, 'nope.pem'), QDB_PG_TLS_PRIVATE_KEY_PATH: key, QDB_CAIRO_ROOT: join(dir, 'never') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr.on('data', (c: Buffer) => { err += c.toString() })
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
  t.equal(code, 2)
  t.match(err, /cannot read tls.cert.path \(pg.tls.cert.path or tls.cert.path\) .*nope.pem/)
})
