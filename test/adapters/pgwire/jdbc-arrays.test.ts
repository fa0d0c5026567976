/**
 * pgJDBC and float8[] (jdbc/JdbcArrayProbe.java, compiled at test time): setArray with
 * createArrayOf("float8", ...) for 1-D and 2-D arrays, getArray back, with text transfer and with
 * binary transfer (server-prepared statements). Skips when javac or the driver jar is missing.
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
const source = join(dirname(fileURLToPath(import.meta.url)), 'jdbc', 'JdbcArrayProbe.java')
const hasJavac = await run('javac', ['-version']).then(() => true, () => false)

if (JAR === undefined || !hasJavac) {
  t.plan(0, `pgJDBC test skipped: ${JAR === undefined ? 'libpostgresql-jdbc-java not installed' : 'javac not found'}`)
} else {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-jdbc-arrays-'))
  const srv = await startServer()
  t.teardown(async () => {
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await run('javac', ['-d', dir, '-cp', JAR, source], { timeout: 60_000 })
  const { stdout } = await run('java', ['-cp', `${dir}:${JAR}`, 'JdbcArrayProbe', String(srv.port)], { timeout: 60_000 })
  const out = Object.fromEntries(stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
  const expected = '[1.5, null, 3.0];[[1.0, 2.0], [3.0, 4.0]];10.0;float8'
  t.equal(out['text'], expected, 'text transfer: setArray / getArray, 1-D with a null and 2-D')
  t.equal(out['binary'], expected, 'binary transfer')
}
