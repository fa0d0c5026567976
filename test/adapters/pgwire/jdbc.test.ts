/**
 * pgJDBC (Debian libpostgresql-jdbc-java) against the adapter: a tiny Java client
 * (jdbc/JdbcProbe.java) is compiled with javac into a temp dir at test time and run against a
 * server on an ephemeral loopback port. Covers typed parameters, timestamps, fetch-size
 * streaming (Execute with a row limit → PortalSuspended) and DatabaseMetaData.getTables.
 * Skips with a message when javac or the driver jar is missing.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startServer } from './helpers.js'

const run = promisify(execFile)
const JAR = ['/usr/share/java/postgresql.jar', '/usr/share/java/postgresql-jdbc4.jar'].find((p) => existsSync(p))
const source = join(dirname(fileURLToPath(import.meta.url)), 'jdbc', 'JdbcProbe.java')
const hasJavac = await run('javac', ['-version']).then(() => true, () => false)

if (JAR === undefined || !hasJavac) {
  t.plan(0, `pgJDBC test skipped: ${JAR === undefined ? 'libpostgresql-jdbc-java not installed' : 'javac not found'}`)
} else {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-jdbc-'))
  const srv = await startServer()
  t.teardown(async () => {
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await run('javac', ['-d', dir, '-cp', JAR, source], { timeout: 60_000 })
  const { stdout } = await run('java', ['-cp', `${dir}:${JAR}`, 'JdbcProbe', String(srv.port)], { timeout: 60_000 })
  const out = Object.fromEntries(stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
  t.equal(out['param'], '3,héllo', 'PreparedStatement with setInt')
  t.equal(out['ts'], '2024-01-03 00:00:00.0', 'setTimestamp / getTimestamp')
  t.equal(out['fetch'], '100000,5000050000', 'setFetchSize streams every row once')
  t.match(out['product'], /^PostgreSQL /, 'DatabaseMetaData product')
  t.equal(out['tables'], 't;', 'DatabaseMetaData.getTables')
}
