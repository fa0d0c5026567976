/**
 * SCRAM-SHA-256 with every driver the suite tests: psql, node `pg` and `postgres` (also in
 * postgres-client.test.ts), psycopg2, psycopg 3, asyncpg and pgJDBC. The right password logs in and runs a
 * query; a wrong one is refused with 28P01. Missing drivers skip with the reason.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import pg from 'pg'
import postgres from 'postgres'
import { startServer } from './helpers.js'
import { missingModules, runProbe } from './python.js'

const run = promisify(execFile)
const srv = await startServer({ authMethod: 'scram-sha-256', password: 's3cret', loginThrottle: false })
t.teardown(() => srv.close())

function psql(password: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('psql', [`host=127.0.0.1 port=${srv.port} user=admin dbname=qdb sslmode=disable`, '-X', '-A', '-t', '-c', 'select 6'],
      { env: { ...process.env, PGPASSWORD: password }, timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : Number(err.code), out: stdout + stderr }))
  })
}

t.test('psql', async (t) => {
  t.equal((await psql('s3cret')).out.trim(), '6')
  const bad = await psql('nope')
  t.not(bad.code, 0)
  t.match(bad.out, /password authentication failed for user "admin"/)
})

t.test('pg and postgres', async (t) => {
  const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'admin', password: 's3cret', database: 'qdb' })
  await c.connect()
  t.same((await c.query('select 1 as x')).rows, [{ x: 1 }])
  await c.end()
  const sql = postgres({ host: '127.0.0.1', port: srv.port, user: 'admin', password: 'nope', max: 1 })
  const e = await sql`select 1`.catch((x: unknown) => x) as { code: string }
  t.equal(e.code, '28P01')
  await sql.end()
})

t.test('psycopg2, psycopg 3 and asyncpg', async (t) => {
  const missing = await missingModules(['psycopg2', 'psycopg', 'asyncpg'])
  if (missing !== undefined) { t.comment(`skipped: python drivers missing: ${missing}`); return }
  const r = await runProbe('scram_probe.py', srv.port, 60_000)
  if ('missing' in r) { t.fail(r.missing); return }
  t.equal(r.failure, undefined)
  t.equal(r.checks.get('psycopg2_ok'), 7)
  t.match(r.checks.get('psycopg2_wrong'), ['OperationalError', null, /password authentication failed for user "admin"/])
  t.equal(r.checks.get('psycopg_ok'), 5)
  t.match(r.checks.get('psycopg_wrong'), ['OperationalError', null, /password authentication failed for user "admin"/])
  t.equal(r.checks.get('asyncpg_ok'), 8)
  t.match(r.checks.get('asyncpg_wrong'), ['InvalidPasswordError', '28P01'])
})

const JAR = ['/usr/share/java/postgresql.jar', '/usr/share/java/postgresql-jdbc4.jar'].find((p) => existsSync(p))
const hasJavac = await run('javac', ['-version']).then(() => true, () => false)
t.test('pgJDBC', JAR === undefined || !hasJavac ? { skip: 'pgJDBC or javac missing' } : { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-scram-jdbc-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const source = join(dirname(fileURLToPath(import.meta.url)), 'jdbc', 'ScramProbe.java')
  await run('javac', ['-d', dir, '-cp', JAR!, source], { timeout: 60_000 })
  const probe = async (password: string): Promise<string> => (await run('java', ['-cp', `${dir}:${JAR}`, 'ScramProbe', String(srv.port), password], { timeout: 60_000 })).stdout.trim()
  t.equal(await probe('s3cret'), 'ok=9')
  t.equal(await probe('nope'), 'error=28P01')
})
