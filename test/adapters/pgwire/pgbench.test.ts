/**
 * pgbench as a client: a custom script (a parameterized SELECT and an INSERT per transaction)
 * run by 4 concurrent clients in each query mode (simple, extended, prepared) must complete
 * every transaction without a failure, and every INSERT must be there afterwards. Speed is
 * measured by `npm run bench:pgwire`, not here.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startServer, type TestServer } from './helpers.js'

const run = promisify(execFile)
const CLIENTS = 4
const PER_CLIENT = 150

async function hasPgbench(): Promise<boolean> {
  try {
    await run('pgbench', ['--version'])
    return true
  } catch {
    return false
  }
}

if (!(await hasPgbench())) {
  t.plan(0, 'pgbench is not installed (Debian package postgresql-15; .ci/run installs it)')
} else {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-pgbench-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const script = join(dir, 'script.sql')
  writeFileSync(script, '\\set id random(1, 100000)\nSELECT :id + 1 AS next, now() AS at;\nINSERT INTO pb VALUES (now(), :id);\n')

  let srv: TestServer
  t.before(async () => {
    srv = await startServer()
    await srv.db.query('create table pb (ts timestamp, id long) timestamp(ts)')
  })

  let expected = 0
  for (const mode of ['simple', 'extended', 'prepared']) {
    t.test(`pgbench -M ${mode}: every transaction completes`, async (t) => {
      const { stdout } = await run('pgbench', ['-n', '-f', script, '-c', String(CLIENTS), '-t', String(PER_CLIENT), '-M', mode,
        '-h', '127.0.0.1', '-p', String(srv.port), '-U', 'admin', 'qdb'], { env: { ...process.env, PGPASSWORD: 'quest' } })
      t.match(stdout, new RegExp(`number of transactions actually processed: ${CLIENTS * PER_CLIENT}/${CLIENTS * PER_CLIENT}`))
      t.match(stdout, /number of failed transactions: 0 /)
      expected += CLIENTS * PER_CLIENT
      t.same((await srv.db.query('select count() from pb')).rows, [[expected]], 'every INSERT is in the table')
    })
  }

  t.test('close', async () => {
    await srv.close()
  })
}
