/**
 * `acl.oidc.pg.token.as.password.enabled`: user `_sso` (or an empty name) with an access token as
 * the password, through the same guard and cache, with psql, node `pg`, psycopg2 and psycopg 3.
 * Local users keep SCRAM.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { startServer } from '../pgwire/helpers.js'
import { missingModules, PYTHON } from '../pgwire/python.js'
import { setup } from './helpers.js'

const run = promisify(execFile)

t.test('token as the pgwire password', async (t) => {
  const s = await setup({ pgTokenAsPassword: true, cacheTtlMs: 60_000, httpTimeoutMs: 2000 })
  const srv = await startServer({ authMethod: 'scram-sha-256', authenticate: s.guard.pgwire, cleartextUser: s.guard.cleartextUser }, s.db)
  t.teardown(async () => { await srv.close(); await s.close() })
  const token = await s.token('alice')

  t.test('node pg', async (t) => {
    const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: '_sso', password: token, database: 'qdb' })
    await c.connect()
    t.same((await c.query('select current_user() u')).rows, [{ u: 'alice' }])
    await c.end()
    const bad = new pg.Client({ host: '127.0.0.1', port: srv.port, user: '_sso', password: 'garbage', database: 'qdb' })
    const e = await bad.connect().then(() => undefined, (x: unknown) => x) as { code?: string }
    t.equal(e?.code, '28P01', 'a refused token: 28P01')
  })

  t.test('psql', async (t) => {
    const r = await run('psql', ['-h', '127.0.0.1', '-p', String(srv.port), '-U', '_sso', '-d', 'qdb', '-X', '-At', '-c', 'select current_user()'], { env: { ...process.env, PGPASSWORD: token, PGCONNECT_TIMEOUT: '5' }, timeout: 20_000 })
    t.equal(r.stdout.trim(), 'alice')
  })

  for (const mod of ['psycopg2', 'psycopg']) {
    t.test(mod, async (t) => {
      const missing = await missingModules([mod])
      if (missing !== undefined) { t.fail(`${mod} is not installed: ${missing}`); return }
      const script = `import ${mod} as m, sys\nc = m.connect(host='127.0.0.1', port=${srv.port}, user='_sso', password=sys.argv[1], dbname='qdb')\ncur = c.cursor()\ncur.execute('select current_user()')\nprint(cur.fetchone()[0])\nc.close()`
      const r = await run(PYTHON, ['-c', script, token], { timeout: 30_000 })
      t.equal(r.stdout.trim(), 'alice')
    })
  }

  t.test('pgJDBC (libpostgresql-jdbc-java): user _sso with the token as the password', async (t) => {
    const jar = ['/usr/share/java/postgresql.jar', '/usr/share/java/postgresql-jdbc4.jar'].find((p) => existsSync(p))
    if (jar === undefined) { t.fail('libpostgresql-jdbc-java is not installed'); return }
    const dir = mkdtempSync(join(tmpdir(), 'epochdb-jdbc-token-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    await run('javac', ['-d', dir, '-cp', jar, join(import.meta.dirname, 'jdbc', 'TokenProbe.java')], { timeout: 60_000 })
    const probe = async (user: string, password: string): Promise<string> =>
      (await run('java', ['-cp', `${dir}:${jar}`, 'TokenProbe', String(srv.port), user, password], { timeout: 60_000 })).stdout.trim()
    t.equal(await probe('_sso', token), 'ok=alice', 'signed in as the token\'s subject')
    t.equal(await probe('_sso', 'garbage'), 'error=28P01', 'a refused token')
    t.equal(await probe('admin', 'quest'), 'ok=admin', 'a local user still signs in (SCRAM)')
  })

  t.test('an empty user name carries a token too; other users keep their own check', async (t) => {
    t.match(await s.guard.pgwire({ user: '', password: token, database: 'qdb', remoteAddress: undefined }), { name: 'alice', kind: 'external' })
    t.ok(s.guard.cleartextUser('') && s.guard.cleartextUser('_sso') && !s.guard.cleartextUser('admin'))
    const admin = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'admin', password: 'quest', database: 'qdb' })
    await admin.connect() // SCRAM, checked by the engine's users
    t.same((await admin.query('select current_user() u')).rows, [{ u: 'admin' }])
    await admin.end()
  })

  t.test('the provider down: 08006 "identity provider unreachable", not a password failure', async (t) => {
    s.guard.invalidate()
    await s.idp.close()
    const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: '_sso', password: token, database: 'qdb' })
    const e = await c.connect().then(() => undefined, (x: unknown) => x) as { code?: string; message?: string }
    t.equal(e?.code, '08006')
    t.match(e?.message, /identity provider unreachable/)
  })
})

t.test('with the option off, _sso is an ordinary (unknown) user', async (t) => {
  const s = await setup()
  const srv = await startServer({ authMethod: 'password', authenticate: s.guard.pgwire, cleartextUser: s.guard.cleartextUser }, s.db)
  t.teardown(async () => { await srv.close(); await s.close() })
  const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: '_sso', password: await s.token('alice'), database: 'qdb' })
  const e = await c.connect().then(() => undefined, (x: unknown) => x) as { code?: string }
  t.equal(e?.code, '28P01')
})
