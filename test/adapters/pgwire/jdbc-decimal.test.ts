/**
 * pgJDBC and DECIMAL (jdbc/JdbcDecimalProbe.java, compiled at test time): setBigDecimal into
 * DECIMAL(18,4) and DECIMAL(40,12), getBigDecimal back exact, ResultSetMetaData NUMERIC with
 * precision and scale, with text transfer and with binary transfer (server-prepared statements).
 * Skips when javac or the driver jar is missing.
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
const source = join(dirname(fileURLToPath(import.meta.url)), 'jdbc', 'JdbcDecimalProbe.java')
const hasJavac = await run('javac', ['-version']).then(() => true, () => false)

if (JAR === undefined || !hasJavac) {
  t.plan(0, `pgJDBC test skipped: ${JAR === undefined ? 'libpostgresql-jdbc-java not installed' : 'javac not found'}`)
} else {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-jdbc-decimal-'))
  const srv = await startServer()
  t.teardown(async () => {
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await run('javac', ['-d', dir, '-cp', JAR, source], { timeout: 60_000 })
  const { stdout } = await run('java', ['-cp', `${dir}:${JAR}`, 'JdbcDecimalProbe', String(srv.port)], { timeout: 60_000 })
  const out = Object.fromEntries(stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
  // java.sql.Types.NUMERIC = 2
  const expected = '2,numeric,18,4,java.math.BigDecimal;-1234.5678,123456789012345678901234.000000000001,-2469.1356;0.0500,null,0.1000;'
  t.equal(out['text'], expected, 'text transfer: setBigDecimal / getBigDecimal exact, metadata numeric(18,4)')
  t.equal(out['binary'], expected, 'binary transfer')
}
