/**
 * psql (the CLI) run non-interactively against the adapter; skipped when psql is not installed.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { startServer } from './helpers.js'

const run = promisify(execFile)
const hasPsql = await run('psql', ['--version']).then(() => true, () => false)

if (!hasPsql) {
  t.plan(0, 'psql is not installed (apt-get install postgresql-client)')
} else {
  const srv = await startServer()
  const psql = (args: string[], password = 'quest'): Promise<{ stdout: string; stderr: string }> =>
    run('psql', ['-h', '127.0.0.1', '-p', String(srv.port), '-U', 'admin', '-d', 'qdb', '-X', '-v', 'ON_ERROR_STOP=1', ...args], { env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' }, timeout: 20_000 })

  t.test('queries, unaligned output', async (t) => {
    const r = await psql(['-At', '-c', 'select i, s, ts, b, v from t order by ts'])
    t.equal(r.stdout.trim().split('\n')[0], '3|héllo|2024-01-01 00:00:00.000001|t|1.5')
    const multi = await psql(['-At', '-c', 'select 1; select 2'])
    t.same(multi.stdout.trim().split('\n'), ['1', '2'])
  })

  t.test('errors are reported with position', async (t) => {
    const e = await psql(['-c', 'select nope from t']).catch((x: { stderr: string }) => x)
    t.match(e.stderr, /ERROR: {2}Invalid column: nope/)
    t.match(e.stderr, /LINE 1: select nope from t/)
  })

  t.test('wrong password', async (t) => {
    const e = await psql(['-c', 'select 1'], 'bad').catch((x: { stderr: string }) => x)
    t.match(e.stderr, /password authentication failed/)
  })

  t.test('\\timing and a script on stdin', async (t) => {
    const r = await psql(['-At', '-c', '\\timing on', '-c', 'select count(*) from t'])
    t.match(r.stdout, /^2$/m)
    t.match(r.stdout, /Time: /)
  })

  t.test('\\dt and \\d table', async (t) => {
    const dt = await psql(['-c', '\\dt'])
    t.match(dt.stdout, /public \| t {4}\| table \| admin/)
    const d = await psql(['-c', '\\d t'])
    t.match(d.stdout, /Table "public\.t"/)
    t.match(d.stdout, /sym +\| symbol/)
    t.match(d.stdout, /ts +\| timestamp/)
    const none = await psql(['-c', '\\d nosuch']).catch((x: { stderr: string }) => x)
    t.match(none.stderr, /Did not find any relation named "nosuch"/)
  })

  t.test('\\l, \\du, \\df, \\dT and \\dp', async (t) => {
    t.match((await psql(['-c', '\\l'])).stdout, /^ qdb +\| admin +\| UTF8 +\| C +\| C +\|/m, '\\l lists the database')
    t.match((await psql(['-c', '\\l nope'])).stdout, /\(0 rows\)/, 'a pattern that matches nothing')
    t.match((await psql(['-c', '\\du'])).stdout, /^ admin +\| Superuser, Create role, Create DB/m, '\\du: the admin role')
    t.match((await psql(['-c', '\\df'])).stdout, /List of functions[\s\S]*\(0 rows\)/, 'no user-defined functions')
    t.match((await psql(['-c', '\\dT'])).stdout, /List of data types[\s\S]*\(0 rows\)/, 'no user-defined types')
    t.match((await psql(['-c', '\\dp t'])).stdout, /^ public +\| t +\| table +\|/m, '\\dp lists the table')
  })

  t.test('listings of objects EpochDB does not have answer empty, not with an error', async (t) => {
    for (const [cmd, title] of [['\\db', 'tablespaces'], ['\\dc', 'conversions'], ['\\dC', 'casts'], ['\\do', 'operators'], ['\\dy', 'event triggers'],
      ['\\des', 'foreign servers'], ['\\dew', 'foreign-data wrappers'], ['\\deu', 'user mappings'], ['\\dL', 'languages'], ['\\dx', 'installed extensions']] as const) {
      const r = await psql(['-c', cmd])
      t.match(r.stdout, new RegExp(`List of ${title}[\\s\\S]*\\(0 rows\\)`, 'i'), cmd)
    }
  })

  t.test('close', async () => {
    await srv.close()
  })
}
