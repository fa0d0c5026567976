import t from 'tap'
import { Database, IlpError } from '../../../lib/index.js'

/** Writes `body` (in the given chunks) through a fresh line writer and ends it. */
async function ingest(db: Database, body: string | Buffer | (string | Buffer)[], options: Parameters<Database['lineWriter']>[0] = {}): Promise<number> {
  const w = db.lineWriter(options)
  for (const c of Array.isArray(body) ? body : [body]) w.write(Buffer.isBuffer(c) ? c : Buffer.from(c))
  return w.end()
}

async function failure(db: Database, body: string | Buffer, options: Parameters<Database['lineWriter']>[0] = {}): Promise<IlpError> {
  try {
    await ingest(db, body, options)
  } catch (e) {
    if (e instanceof IlpError) return e
    throw e
  }
  throw new Error('expected an IlpError')
}

const rows = async (db: Database, sql: string): Promise<unknown[][]> => (await db.query(sql)).rows

t.test('field types, tags and the created table', async (t) => {
  const db = await Database.open()
  const n = await ingest(db, 'm,host=a\\ b,dc=x i=-42i,d=1.5,e=-2.5e3,b=tRuE,f=F,s="q\\"uo\\\\te",ts=1700000000000000t,l=0x1fi 1700000000123456789\n')
  t.equal(n, 1)
  t.same(await rows(db, 'select * from m'), [['a b', 'x', -42n, 1.5, -2500, true, false, 'q"uo\\te', 1700000000000000n, '0x1f', 1700000000123456n]])
  const ddl = String((await rows(db, 'show create table m'))[0]![0])
  t.match(ddl, /host SYMBOL CAPACITY 256 CACHE,\s+dc SYMBOL CAPACITY 256 CACHE,\s+i LONG,\s+d DOUBLE,\s+e DOUBLE,\s+b BOOLEAN,\s+f BOOLEAN,\s+s VARCHAR,\s+ts TIMESTAMP,\s+l LONG256,\s+timestamp TIMESTAMP/)
  t.match(ddl, /timestamp\(timestamp\) PARTITION BY DAY WAL/)
})

t.test('precision of unsuffixed timestamps, suffixes, the server clock', async (t) => {
  const db = await Database.open({ clock: () => 1_000_000_000 })
  await ingest(db, 'p v=1 1700000000\n', { precision: 's' })
  await ingest(db, 'p v=2 1700000000001\n', { precision: 'ms' })
  await ingest(db, 'p v=3 1700000000000002\n', { precision: 'u' })
  await ingest(db, 'p v=4 1700000000000003999\n')
  await ingest(db, 'p v=5 1700000000000004t\np v=6 1700000000005m\np v=7\n', { precision: 's' })
  t.same(await rows(db, 'select v, timestamp from p order by v'), [
    [1, 1700000000000000n], [2, 1700000000001000n], [3, 1700000000000002n], [4, 1700000000000003n],
    [5, 1700000000000004n], [6, 1700000000005000n], [7, 1000000000n],
  ])
})

t.test('a body split at every byte parses the same (incomplete lines wait for the rest)', async (t) => {
  const v2 = Buffer.alloc(9)
  v2[0] = 0x10
  v2.writeDoubleLE(10.25, 1) // 10.25 has no newline byte; the next one does
  const nl = Buffer.alloc(9)
  nl[0] = 0x10
  nl.writeDoubleLE(Buffer.from([10, 10, 10, 10, 10, 10, 0x24, 0x40]).readDoubleLE(0), 1)
  const body = Buffer.concat([Buffer.from('s,k=v a=1i,b=="'.slice(0, -1)), v2, Buffer.from(',c=="'.slice(0, -1)), nl, Buffer.from(',d="x y" 1000t\ns,k=w a=2i\n')])
  // the designated timestamp too: a cut just after a complete line once cleared that line's timestamp
  const whole = await Database.open({ clock: () => 5000 })
  await ingest(whole, body)
  const expected = await rows(whole, 'select k, a, b, c, d, timestamp from s')
  t.equal(expected.length, 2)
  t.equal(expected[0]![2], 10.25)
  t.same(expected.map((r) => r[5]), [1000n, 5000n])
  for (let cut = 1; cut < body.length; cut++) {
    const db = await Database.open({ clock: () => 5000 })
    await ingest(db, [body.subarray(0, cut), body.subarray(cut)])
    const got = await rows(db, 'select k, a, b, c, d, timestamp from s')
    if (JSON.stringify(got, (_, x) => typeof x === 'bigint' ? String(x) : x) !== JSON.stringify(expected, (_, x) => typeof x === 'bigint' ? String(x) : x)) { t.fail(`cut at ${cut}`); return }
  }
  t.pass('every cut')
})

t.test('CRLF, empty lines, tag-only lines, a last line without newline, duplicate names', async (t) => {
  const db = await Database.open()
  t.equal(await ingest(db, 'x,a=1 v=1.0,V=2.0 10t\r\n\r\n\nx,a=2 20t\nx,a=3 v=3.0 30t'), 3)
  t.same(await rows(db, 'select a, v from x'), [['1', 1], ['2', null], ['3', 3]])
})

t.test('errors: QuestDB\'s texts, the line number, nothing written', async (t) => {
  const db = await Database.open()
  await ingest(db, 't,s=a i=1i,d=1.5,v="x",b=t 1t\n')
  const cases: [string, RegExp, number | undefined][] = [
    ['t i=1.5\n', /line 1: table: t, column: i; cast error from protocol type: FLOAT to column type: LONG/, 1],
    ['t d=1i\nt d="x"\n', /line 2: table: t, column: d; cast error from protocol type: STRING to column type: DOUBLE/, 2],
    ['t b=1.0\n', /cast error from protocol type: FLOAT to column type: BOOLEAN/, 1],
    ['t,i=x d=1.0\n', /cast error from protocol type: TAG to column type: LONG/, 1],
    ['t\n', /line 1: No fields were provided/, 1],
    ['t d=hello\n', /field value is invalid. Field: d; value: hello/, 1],
    ['t d=1.5 12x\n', /Could not parse timestamp: 12x/, 1],
    ['t d=1.5 12 \n', /INVALID_FIELD_SEPARATOR/, 1],
    ['t v="open\n', /INVALID_FIELD_VALUE/, 1],
    ['t i=99999999999999999999i\n', /field value is invalid/, 1],
    ['t d=1.0 -5t\n', /designated timestamp before 1970-01-01 is not allowed/, 1],
    ['../../etc d=1.0\n', /invalid table name/, 1],
    ['t a\\\\b=1.0\n', /INVALID_COLUMN_NAME/, 1],
    ['t a.b=1.0\n', /table: t; invalid column name: a.b/, 1],
    ['t arr==\x0e\x05\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0\x3f\n', /ARRAY_INVALID_TYPE/, 1],
    ['t x==\x63\n', /UNSUPPORTED_BINARY_FORMAT/, 1],
  ]
  for (const [body, message, line] of cases) {
    const e = await failure(db, 'u,s=b d=9.0\n'.repeat(0) + body)
    t.match(e.message, message, JSON.stringify(body))
    t.equal(e.line, line, `line of ${JSON.stringify(body)}`)
    t.equal(e.status, 400)
    t.equal(e.ilpCode, 'invalid')
  }
  // good lines before the bad one, in another table too: none written, no table created
  const e = await failure(db, 'other v=1.0\nt i=5i\nt i=6.5\n')
  t.equal(e.line, 3)
  t.same(await rows(db, 'select count() from t'), [[1n]])
  t.same(await rows(db, "select count() from tables() where table_name = 'other'"), [[0n]])
  const bad = Buffer.concat([Buffer.from('t v="'), Buffer.from([0xc3, 0x28]), Buffer.from('"\n')])
  t.match((await failure(db, bad)).message, /invalid UTF-8/)
})

t.test('casts into existing columns of other types, as QuestDB', async (t) => {
  const db = await Database.open()
  await db.query('create table c (ts timestamp, b byte, s short, i int, f float, d double, sym symbol, v varchar, str string, ch char, u uuid, ip ipv4, dt date) timestamp(ts) partition by day wal')
  await ingest(db, 'c b=12i,s=-300i,i=70000i,f=1.5,d=7i,sym=3i,v="x",str="y",ch="z",u="11111111-1111-1111-1111-111111111111",ip="1.2.3.4",dt=1700000000000000t 5t\n')
  t.same(await rows(db, 'select b, s, i, f, d, sym, v, str, ch, u, ip, dt from c'), [[12, -300, 70000, 1.5, 7, '3', 'x', 'y', 'z', '11111111-1111-1111-1111-111111111111', '1.2.3.4', 1700000000000]])
  t.match((await failure(db, 'c b=1024i\n')).message, /line protocol value: 1024 is out bounds of column type: BYTE/)
  t.match((await failure(db, 'c b=1024\n')).message, /cast error from protocol type: FLOAT to column type: BYTE/)
  t.match((await failure(db, 'c i=1024.2\n')).message, /FLOAT to column type: INT/)
  t.match((await failure(db, 'c ch="zz"\n')).message, /STRING to column type: CHAR/)
  t.match((await failure(db, 'c u="nope"\n')).message, /STRING to column type: UUID/)
})

t.test('auto-create switches, partitioning', async (t) => {
  const db = await Database.open()
  t.match((await failure(db, 'n v=1.0\n', { autoCreateTables: false })).message, /table does not exist, creating new tables is disabled/)
  await ingest(db, 'n v=1.0\n', { partitionBy: 'HOUR' })
  t.match(String((await rows(db, 'show create table n'))[0]![0]), /PARTITION BY HOUR/)
  t.match((await failure(db, 'n w=1.0\n', { autoCreateColumns: false })).message, /table: n, column: w does not exist, creating new columns is disabled/)
  await ingest(db, 'n w=2.0\n')
  t.same(await rows(db, 'select v, w from n'), [[1, null], [null, 2]])
})

t.test('out-of-order rows are merged, DEDUP UPSERT KEYS honoured', async (t) => {
  const db = await Database.open()
  await db.query('create table o (sym symbol, v double, ts timestamp) timestamp(ts) partition by day wal dedup upsert keys(ts, sym)')
  await ingest(db, 'o,sym=a v=1.0 3000t\no,sym=a v=2.0 1000t\no,sym=b v=3.0 2000t\n')
  await ingest(db, 'o,sym=a v=9.0 1000t\n')
  t.same(await rows(db, 'select sym, v, ts from o'), [['a', 9, 1000n], ['b', 3, 2000n], ['a', 1, 3000n]])
})

t.test('a durable table: rows survive a reopen', async (t) => {
  const dir = t.testdir()
  let db = await Database.open({ path: dir })
  await ingest(db, Array.from({ length: 1000 }, (_, i) => `d,k=${i % 7} v=${i}i ${i + 1}t\n`).join(''))
  await db.close()
  db = await Database.open({ path: dir })
  t.same(await rows(db, 'select count(), sum(v), count_distinct(k) from d'), [[1000n, 499500n, 7n]])
  await db.close()
})

t.test('ACL: CREATE TABLE, ADD COLUMN and INSERT of the writer\'s session', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  await db.query("create user w with password 'pw'")
  const p = (await db.authenticate('w', 'pw'))!
  const session = db.session(p)
  const e = await failure(db, 'g v=1.0\n', { session })
  t.equal(e.status, 403)
  t.equal(e.ilpCode, 'unauthorised')
  t.match(e.message, /Access denied for w/)
  await db.query('create table h (v double, ts timestamp) timestamp(ts) partition by day wal')
  t.equal((await failure(db, 'h v=1.0\n', { session })).status, 403, 'no INSERT yet')
  await db.query('grant insert on h to w')
  t.equal(await ingest(db, 'h v=2.0\n', { session }), 1)
  t.equal((await failure(db, 'h w=1.0\n', { session })).status, 403, 'no ADD COLUMN')
  t.same(await rows(db, 'select v from h'), [[2]])
  await db.query('grant create table to w')
  t.equal(await ingest(db, 'g v=1.0\n', { session }), 1, 'a table it creates is its own')
})

t.test('protocol 3 binary decimals: two\'s complement big-endian, null, bad scale or length', async (t) => {
  const db = await Database.open()
  await db.query('create table d (v decimal(76,3), ts timestamp) timestamp(ts) partition by day wal')
  const dec = (scale: number, bytes: number[]): Buffer => Buffer.concat([Buffer.from('d v=='), Buffer.from([0x17, scale, bytes.length, ...bytes]), Buffer.from(' 1000t\n')])
  await ingest(db, [dec(2, [0xff, 0x85]), dec(0, [0x01, 0x00]), dec(3, []), dec(0, [0x7f, ...Array(15).fill(0xff)])])
  t.same(await rows(db, 'select v::string from d'), [['-1.230'], ['256.000'], [null], ['170141183460469231731687303715884105727.000']])
  t.match(await failure(db, dec(77, [1])), { reason: 'DECIMAL_INVALID_SCALE' })
  t.match(await failure(db, dec(0, Array(33).fill(1))), { reason: 'DECIMAL_OVERFLOW' })
  t.match(await failure(db, dec(0, [0x7f, ...Array(31).fill(0xff)])), { reason: /does not fit column type: DECIMAL\(76,3\)/ })
  t.same(await rows(db, 'select count() from d'), [[4n]])
})

t.test('in memory: a large request is applied a slice per turn of the event loop; another query is answered meanwhile and sees none of its rows', async (t) => {
  const db = await Database.open()
  await ingest(db, 'big,s=a v=0i 1000000t\n')
  // 400,000 rows: several slices of about 4 MiB
  const n = 400_000
  const w = db.lineWriter()
  w.write(Buffer.from(Array.from({ length: n }, (_, i) => `big,s=${i & 1 ? 'a' : 'b'} v=${i + 1}i ${1_000_001 + i}t\n`).join('')))
  // parsed already: what is left is creating nothing, building the vectors and applying them
  let ended = false
  const answers: unknown[] = []
  const ending = w.end().then((rows) => { ended = true; return rows })
  // one query per turn of the event loop until the request has ended
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      if (ended) { resolve(); return }
      void db.query('select count(), max(v) from big').then((r) => { if (!ended) answers.push(r.rows[0]) })
      setImmediate(tick)
    }
    setImmediate(tick)
  })
  t.equal(await ending, n)
  t.ok(answers.length >= 1, `queries answered while the request was applied (${answers.length})`)
  t.same(answers[0], [1n, 0n], 'they see none of its rows')
  t.same(await rows(db, 'select count(), max(v) from big'), [[BigInt(n + 1), BigInt(n)]], 'all of them at once after')
})
