/**
 * float8[] with the real Python drivers (python/arrays_probe.py): psycopg2 and psycopg 3 send
 * lists as text arrays and read 1-D and 2-D arrays back (psycopg 3 in binary too); asyncpg
 * introspects the array type first (answered by asyncpg-typeinfo.ts), then binds and reads
 * arrays in binary. Skips when a driver is not installed.
 */
import t from 'tap'
import { startServer } from './helpers.js'
import { missingModules, runProbe } from './python.js'

const srv = await startServer()
t.teardown(() => srv.close())

const why = await missingModules(['psycopg2', 'psycopg', 'asyncpg'])
t.test('psycopg2, psycopg 3 and asyncpg round-trip float8[]', why === undefined ? {} : { skip: `a driver is not installed: ${why}` }, async (t) => {
  const run = await runProbe('arrays_probe.py', srv.port)
  if ('missing' in run) { t.fail(run.missing); return }
  t.equal(run.failure, undefined, 'the probe ran to the end')
  const c = (k: string) => run.checks.get(k)
  // probe.py prints Python floats as 'float:<repr>'
  const v = ['float:1.5', null, 'float:3.0']
  const m = [['float:1.0', 'float:2.0'], ['float:3.0', 'float:4.0']]
  t.same(c('psycopg2_text'), [v, m, 'float:10.0'])
  t.same(c('psycopg_text'), [v, m, 'float:10.0'])
  t.same(c('psycopg_binary'), [v, m])
  t.same(c('asyncpg'), [v, m, 2])
})
