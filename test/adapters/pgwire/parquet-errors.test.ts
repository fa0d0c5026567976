// pgwire answers for a read_parquet() file the client names that is missing or damaged: the
// SQLSTATE PostgreSQL gives such a file (58P01 undefined_file, 22P04 bad_copy_file_format), an
// ERROR that leaves the connection usable, not a storage fault of the server's own data.
import '../../unit/parquet/resolve-hook.js'
import t from 'tap'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { tmpDir } from '../../unit/parquet/helpers.js'
import { pgConfig, startServer } from './helpers.js'

const imp = join(tmpDir(t), 'import')
mkdirSync(imp)
writeFileSync(join(imp, 'text.parquet'), 'ts,x\n2024-01-01,1\n')
const db = await Database.open({ copyRoot: imp })
const srv = await startServer({}, db)
const client = new pg.Client(pgConfig(srv.port))
await client.connect()
t.teardown(async () => { await client.end(); await srv.close(); await db.close() })

t.test('missing and damaged files: their SQLSTATE and position, the session goes on', async (t) => {
  const sql = `select * from read_parquet('missing.parquet')`
  await t.rejects(client.query(sql), { code: '58P01', severity: 'ERROR', position: String(sql.indexOf("'") + 1), message: 'error reading parquet file [2]: could not open read-only [file=missing.parquet]' })
  await t.rejects(client.query(`select * from read_parquet('text.parquet')`), { code: '22P04', severity: 'ERROR', message: /failed to read parquet file: text.parquet: / })
  t.same((await client.query('select 1 x')).rows, [{ x: 1 }], 'the connection still answers')
})
