// Hostile and oversized statements through the Database API and REST: each returns a result or
// a clear 54000/54001 quickly, and the server keeps answering.
import t from 'tap'
import { Database } from '../../lib/index.js'
import { exec, get, startServer } from '../adapters/http/helpers.js'

t.setTimeout(120_000)

/** The SQLSTATE `p` rejects with, or 'ok'. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'ok'
  } catch (e) {
    return (e as { code?: string }).code ?? String(e)
  }
}

t.test('Database API: bulk statements work, bombs are refused, nothing overflows the stack', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table t (x long, s symbol, v double)')
  const rows = Array.from({ length: 30_000 }, (_, i) => `(${i}, 'a${i % 7}', ${i}.5)`).join(', ')
  t.equal((await db.query(`insert into t values ${rows}`)).rowCount, 30_000, '30,000-row INSERT VALUES')
  const inList = Array.from({ length: 30_000 }, (_, i) => i * 2).join(',')
  t.same((await db.query(`select count() from t where x in (${inList})`)).rows, [[15_000n]], '30,000-item IN list')
  t.equal(await outcome(db.query(`select ${Array(3000).fill('1').join('+')}`)), '54001', '6 KB 1+1+...')
  t.equal(await outcome(db.query(`select ${'1+'.repeat(2_500_000)}1`)), '54000', '5 MB 1+1+...')
  // every shape at and past the default depth: a result or 54001, never XX000
  const shapes: Record<string, (n: number) => string> = {
    add: (n) => `select ${Array(n).fill('x').join('+')} from t limit 1`,
    or: (n) => `select count() from t where ${Array(n).fill('x = 1').join(' or ')}`,
    not: (n) => `select count() from t where ${'not '.repeat(n)}true`,
    neg: (n) => `select ${'- '.repeat(n)}x from t limit 1`,
    call: (n) => `select ${'abs('.repeat(n)}x${')'.repeat(n)} from t limit 1`,
    subquery: (n) => `select ${'(select '.repeat(n)}1${')'.repeat(n)}`,
    from: (n) => `${'select * from ('.repeat(n)}t${')'.repeat(n)} limit 1`,
    case: (n) => `select ${'case when x = 1 then '.repeat(n)}1${' end'.repeat(n)} from t limit 1`,
    union: (n) => Array(n).fill('select 1').join(' union all '),
    cast: (n) => `select x${'::long'.repeat(n)} from t limit 1`,
    paren: (n) => `select ${'('.repeat(n)}x${')'.repeat(n)} from t limit 1`,
  }
  for (const [name, make] of Object.entries(shapes)) {
    const seen = new Set<string>()
    for (const n of [100, 240, 330, 490, 990, 1000, 5000]) seen.add(await outcome(db.query(make(n))))
    t.notOk(seen.has('XX000'), `${name}: ${[...seen].join(', ')}`)
    t.ok(seen.has('ok') && seen.has('54001'), `${name} works below the cap and is refused above it`)
  }
  t.same((await db.query('select 1')).rows, [[1]])
})

t.test('limits are Database.open options', async (t) => {
  const db = await Database.open({ parseLimits: { maxLength: 1000, maxListItems: 10, maxDepth: 20 } })
  t.teardown(() => db.close())
  const err = await db.query(`select * from long_sequence(1) where x in (${Array(11).fill(1).join(',')})`).catch((e) => e)
  t.match(err, { code: '54001', position: 'select * from long_sequence(1) where x in (1,1,1,1,1,1,1,1,1,1'.length })
  t.match(await db.query(`select 1 ${' '.repeat(1000)}`).catch((e) => e), { code: '54000', position: 1000 })
})

t.test('REST: a 60 KB GET /exec with a 30,000-item IN list answers, and select 1 still does', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const list = Array.from({ length: 30_000 }, (_, i) => i % 10).join(',')
  const sql = `select count() from long_sequence(10) where x in (${list})`
  const path = `/exec?query=${encodeURI(sql)}` // commas and parentheses need no escaping
  t.ok(path.length > 60_000 && path.length < 65_536, `a ${path.length}-byte request line`)
  const bomb = get(srv.port, path)
  const t0 = performance.now()
  const ping = await exec(srv.port, 'select 1')
  t.equal(ping.status, 200)
  const r = await bomb
  t.equal(r.status, 200, r.body.slice(0, 200))
  t.match(r.body, '"dataset":[[9]]')
  t.ok(performance.now() - t0 < 30_000, 'did not freeze (generous bound)')
  const deep = await exec(srv.port, `select ${Array(3000).fill('1').join('+')}`)
  t.equal(deep.status, 400)
  t.match(deep.body, /too complex/)
  t.equal((await exec(srv.port, 'select 1')).status, 200)
})

t.test('the standalone server reads the limits from server.conf / QDB_ variables', async (t) => {
  const { loadConfig } = await import('../../adapters/http/server/config.js')
  t.same(loadConfig(undefined, {}, () => {}).parseLimits, { maxLength: 2_097_152, maxListItems: 1_000_000, maxDepth: 1000 })
  const c = loadConfig('epochdb.sql.max.statement.length=5000\nepochdb.sql.max.list.items=50\n', { QDB_EPOCHDB_SQL_MAX_EXPRESSION_DEPTH: '30' }, () => {})
  t.same(c.parseLimits, { maxLength: 5000, maxListItems: 50, maxDepth: 30 })
  t.throws(() => loadConfig('epochdb.sql.max.expression.depth=0', {}, () => {}), /expected a positive integer/)
  const db = await Database.open({ parseLimits: c.parseLimits })
  t.teardown(() => db.close())
  t.match(await db.query(`select ${Array(40).fill('1').join('+')}`).catch((e) => e), { code: '54001' })
})

t.test('pgwire (node-postgres): bulk lists and chains at the cap work, deeper ones get 54001 with a 1-based position, the connection stays usable', async (t) => {
  const { default: pg } = await import('pg')
  const { pgConfig, startServer: startPg } = await import('../adapters/pgwire/helpers.js')
  const srv = await startPg()
  t.teardown(() => srv.close())
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.teardown(() => client.end())
  const list = Array.from({ length: 30_000 }, (_, i) => i % 10).join(',')
  t.same((await client.query(`select count() c from long_sequence(10) where x in (${list})`)).rows, [{ c: '9' }], 'simple query, 30,000-item IN')
  const atCap = `select ${Array(990).fill('x').join('+')} + $1 s from long_sequence(1)` // extended protocol: parameter walk and describe
  t.equal(Number((await client.query(atCap, [1])).rows[0].s), 991)
  const deep = `select ${Array(3000).fill('1').join('+')}`
  const err = await client.query(deep).catch((e) => e)
  t.match(err, { code: '54001' })
  t.ok(Number(err.position) > 1, 'a position')
  t.same((await client.query('select 1 x')).rows, [{ x: 1 }])
})
