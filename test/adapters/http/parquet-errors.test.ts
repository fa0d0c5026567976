// REST answers for Parquet files: a file the client names in read_parquet() that is missing or
// damaged is the client's mistake, answered 400 with QuestDB's error body (as QuestDB answers its
// SqlException); a damaged Parquet partition of the server's own data directory stays a server
// fault (500, XX001).
import '../../unit/parquet/resolve-hook.js'
import t from 'tap'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database, SqlError } from '../../../lib/index.js'
import { statusOf } from '../../../adapters/http/http-error.js'
import { tmpDir } from '../../unit/parquet/helpers.js'
import { get, startServer } from './helpers.js'

const base = tmpDir(t)
const imp = join(base, 'import')
mkdirSync(imp)
const db = await Database.open({ copyRoot: imp })
await db.query(`CREATE TABLE t AS (SELECT x, x * 1.5 d, timestamp_sequence('2024-01-01', 60000000) ts FROM long_sequence(3000)) TIMESTAMP(ts) PARTITION BY DAY`)
await db.exportParquet('SELECT * FROM t', join(imp, 'good.parquet'), { rowGroupSize: 1000 })
const good = readFileSync(join(imp, 'good.parquet'))
writeFileSync(join(imp, 'text.parquet'), 'ts,x\n2024-01-01,1\n')
writeFileSync(join(imp, 'truncated.parquet'), good.subarray(0, Math.floor(good.length / 2)))
const garbled = Buffer.from(good)
garbled.fill(0xa5, 4, Math.floor(garbled.length / 2))
writeFileSync(join(imp, 'garbled-data.parquet'), garbled)
const srv = await startServer({}, db)
t.teardown(async () => { await srv.close(); await db.close() })

const q = (sql: string): string => encodeURIComponent(sql)

t.test('a missing or damaged read_parquet file is a 400 with QuestDB\'s body', async (t) => {
  const cases: [string, string][] = [
    ['missing.parquet', 'error reading parquet file [2]: could not open read-only [file=missing.parquet]'],
    ['text.parquet', 'failed to read parquet file: text.parquet: '],
    ['truncated.parquet', 'failed to read parquet file: truncated.parquet: '],
    ['garbled-data.parquet', 'failed to read parquet file: garbled-data.parquet: '],
  ]
  for (const [file, message] of cases) {
    const sql = `select sum(d) from read_parquet('${file}')`
    for (const ep of ['exec', 'exp']) {
      const r = await get(srv.port, `/${ep}?query=${q(sql)}`)
      t.equal(r.status, 400, `${ep} ${file}: 400`)
      const body = JSON.parse(r.body) as { query: string; error: string; position: number }
      t.same(Object.keys(body), ['query', 'error', 'position'], `${ep} ${file}: QuestDB's error body`)
      t.equal(body.query, sql)
      t.ok(body.error.startsWith(message), `${ep} ${file}: ${body.error}`)
      t.equal(body.position, sql.indexOf(`'${file}'`), 'at the path argument')
    }
  }
  t.equal((await get(srv.port, `/exp?fmt=parquet&query=${q(`select * from read_parquet('missing.parquet')`)}`)).status, 400, '/exp?fmt=parquet too')
  // the good file still answers
  const ok = await get(srv.port, `/exec?query=${q(`select count() from read_parquet('good.parquet')`)}`)
  t.equal(ok.status, 200)
  t.match(JSON.parse(ok.body), { dataset: [[3000]] })
})

t.test('a path out of the import root is a 400 (22023), as QuestDB answers it, not 403', async (t) => {
  for (const path of ['../outside/secret.parquet', 'a/../../x.parquet', join(base, 'x.parquet')]) {
    const sql = `select * from read_parquet('${path}')`
    for (const ep of ['exec', 'exp']) {
      const r = await get(srv.port, `/${ep}?query=${q(sql)}`)
      t.equal(r.status, 400, `${ep} ${path}: 400`)
      const body = JSON.parse(r.body) as { query: string; error: string; position: number }
      t.same(Object.keys(body), ['query', 'error', 'position'])
      t.match(body.error, /relative path is not allowed|path is outside 'cairo.sql.copy.root'/)
      t.equal(body.position, sql.indexOf(`'${path}'`), 'at the path argument')
    }
  }
  await t.rejects(db.query(`select * from read_parquet('../x.parquet')`), { code: '22023' }, 'pgwire and the library: 22023')
})

t.test('a damaged Parquet partition of the server\'s own data stays a 500 (XX001)', async (t) => {
  const dir = tmpDir(t)
  const own = await Database.open({ path: dir })
  await own.query(`CREATE TABLE p AS (SELECT x, timestamp_sequence('2024-01-01', 3600000000) ts FROM long_sequence(72)) TIMESTAMP(ts) PARTITION BY DAY`)
  await own.query(`ALTER TABLE p CONVERT PARTITION TO PARQUET LIST '2024-01-01'`)
  await own.close()
  const tableDir = join(dir, readdirSync(dir).find((e) => e.startsWith('p~'))!)
  const part = readdirSync(tableDir).find((e) => e.startsWith('2024-01-01.'))!
  writeFileSync(join(tableDir, part, 'data.parquet'), 'not parquet at all, but long enough')
  const again = await Database.open({ path: dir })
  const s = await startServer({}, again)
  t.teardown(async () => { await s.close(); await again.close() })
  const r = await get(s.port, `/exec?query=${q('select sum(x) from p')}`)
  t.equal(r.status, 500, 'a fault of the server\'s storage')
  t.match(JSON.parse(r.body), { error: /failed to read parquet file/ })
  await t.rejects(again.query('select sum(x) from p'), { code: 'XX001' })
})

t.test('statuses of the user-file codes', async (t) => {
  const e = (code: string): SqlError => new SqlError(code as never, 'x', 0)
  t.equal(statusOf(e('58P01')), 400, 'missing file')
  t.equal(statusOf(e('22P04')), 400, 'not Parquet, damaged')
  t.equal(statusOf(e('42809')), 400, 'a directory')
  t.equal(statusOf(e('53000')), 503, 'out of file descriptors: retry later')
  t.equal(statusOf(e('58030')), 500, 'an I/O error stays a server fault')
  const os = (code: string): Error => Object.assign(new Error(code), { code })
  t.equal(statusOf(new SqlError('42501', 'error reading parquet file [13]: could not open read-only [file=x]', 0, { cause: os('EACCES') })), 400, 'a file the OS does not let the server read: 400, as QuestDB')
  t.equal(statusOf(new SqlError('42501', 'x', 0, { cause: os('EPERM') })), 400)
  t.equal(statusOf(new SqlError('42501', 'Access denied for bob [SELECT on t]', 0)), 403, 'the access control\'s denial stays 403')
})
