/**
 * Materialized views against an oracle: after random batches of rows (in order, out of order,
 * into old buckets, new keys, NULL keys), the view's rows equal its query run on the base table
 * now — in memory and in a data directory, through INSERT, multi-row transactions and a view over
 * a view. And the refresh is incremental: an append rewrites the touched buckets only.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { Database } from '../../../lib/index.js'

const HOUR = 3_600_000_000
const START = Date.UTC(2024, 0, 1) * 1000

/** A small deterministic generator (xorshift), so a failure replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296 }
}

const VIEW_SQL = 'select ts, k, sum(v) s, count() c, min(v) lo, max(v) hi from base sample by 1h'
/** days in New York: buckets 5 hours off UTC */
const TZ_SQL = "select ts, k, sum(v) s from base sample by 1d align to calendar time zone 'America/New_York'"

async function oracle(t: Test, db: Database, seed: number, batches: number, start = START): Promise<void> {
  const r = rng(seed)
  await db.query('create table base (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
  await db.query(`create materialized view mv as (${VIEW_SQL}) partition by day`)
  await db.query('create materialized view mv2 as (select ts, sum(s) s from mv sample by 1d) partition by month')
  await db.query(`create materialized view mv3 as (${TZ_SQL}) partition by month`)
  let newest = start
  for (let b = 0; b < batches; b++) {
    const rows: string[] = []
    const n = 1 + Math.floor(r() * 20)
    for (let i = 0; i < n; i++) {
      // mostly forward in time, a third of the rows anywhere in the past (out of order)
      const ts = r() < 0.33 ? start + Math.floor(r() * (newest - start + 1)) : (newest += Math.floor(r() * HOUR / 2))
      const k = r() < 0.1 ? 'null' : `'k${Math.floor(r() * 5)}'`
      rows.push(`(${ts}::timestamp, ${k}, ${Math.floor(r() * 1000) - 500})`)
    }
    if (r() < 0.3) {
      await db.query('begin')
      for (const row of rows) await db.query(`insert into base values ${row}`)
      await db.query('commit')
    } else {
      await db.query(`insert into base values ${rows.join(', ')}`)
    }
    if (b % 5 === 4 || b === batches - 1) {
      const want = (await db.query(`${VIEW_SQL} order by ts, k`)).rows
      const got = (await db.query('select * from mv order by ts, k')).rows
      t.same(got, want, `seed ${seed}, batch ${b}: view == query`)
      const want2 = (await db.query(`select ts, sum(s) s from (${VIEW_SQL}) sample by 1d order by ts`)).rows
      t.same((await db.query('select * from mv2 order by ts')).rows, want2, `seed ${seed}, batch ${b}: view over view == query`)
      t.same((await db.query('select * from mv3 order by ts, k')).rows, (await db.query(`${TZ_SQL} order by ts, k`)).rows, `seed ${seed}, batch ${b}: time-zone view == query`)
    }
  }
  const status = (await db.query('select view_name, view_status from materialized_views() order by view_name')).rows
  t.same(status, [['mv', 'valid'], ['mv2', 'valid'], ['mv3', 'valid']])
}

t.test('in memory: view == query after random batches', async (t) => {
  for (const seed of [1, 7, 42]) {
    const db = await Database.open()
    await oracle(t, db, seed, 30)
    await db.close()
  }
})

t.test('across the end of daylight saving time in New York (a 25-hour day)', async (t) => {
  const db = await Database.open()
  await oracle(t, db, 5, 30, Date.UTC(2024, 10, 1) * 1000)
  await db.close()
})

t.test('in a data directory: view == query after random batches', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-mv-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = await Database.open({ path: dir })
  await oracle(t, db, 99, 25)
  await db.close()
})

t.test('an append rewrites the buckets it touches, not the others', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table base (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
  await db.query(`insert into base select (${START} + x * ${HOUR})::timestamp, 'a', x from long_sequence(48)`)
  await db.query(`create materialized view mv as (${VIEW_SQL}) partition by day`)
  t.equal(Number((await db.query('select count() from mv')).rows[0]![0]), 48)
  // rows the view's table takes per refresh: 48 at first, then only the touched bucket's
  const before = Number((await db.query("select writerTxn from wal_tables() where name = 'mv'")).rows[0]![0])
  await db.query(`insert into base values ((${START} + 5 * ${HOUR} + 60000000)::timestamp, 'b', 7)`)
  t.same((await db.query(`select k, s from mv where ts = ${START + 5 * HOUR}::timestamp order by k`)).rows, [['a', 5], ['b', 7]])
  t.equal(Number((await db.query('select count() from mv')).rows[0]![0]), 49)
  t.equal(Number((await db.query("select writerTxn from wal_tables() where name = 'mv'")).rows[0]![0]), before + 1, 'one append for the refresh')
})

t.test('ILP rows refresh a view; ILP and append() into a view are refused', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table m (host symbol, v double, timestamp timestamp) timestamp(timestamp) partition by day wal')
  await db.query('create materialized view m_1h as (select timestamp, host, sum(v) s from m sample by 1h)')
  const ingest = async (body: string): Promise<number> => { const w = db.lineWriter({}); w.write(Buffer.from(body)); return w.end() }
  await ingest('m,host=a v=1.5 1704067200000000000\nm,host=a v=2 1704067300000000000\nm,host=b v=4 1704074400000000000\n')
  t.same((await db.query('select host, s from m_1h order by timestamp, host')).rows, [['a', 3.5], ['b', 4]])
  await t.rejects(ingest('m_1h,host=a s=1.5 1704067200000000000\n'), { message: /cannot modify materialized view \[view=m_1h\]/ })
  await t.rejects(db.append('m_1h', { host: ['a'], s: [1], timestamp: [1] }), { code: '42809' })
})

t.test("errors at QuestDB's positions", async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table table1 (ts timestamp, k symbol, v double) timestamp(ts) partition by day wal')
  const at = async (sql: string, position: number, message: RegExp): Promise<void> => {
    await t.rejects(db.query(sql), { position, message }, sql)
  }
  // CreateMatViewTest: testCreateMatViewNonDeterministicFunction, testCreateMatViewBaseTableDoesNotExist
  await at('create materialized view test as select coalesce(ts, now()) ts, avg(v) from table1 sample by 30s', 53, /non-deterministic function cannot be used in materialized view: now/)
  await at('create materialized view test as (select ts, avg(v) from table1 where ts in today() sample by 30s) partition by month', 76, /non-deterministic function cannot be used in materialized view: today/)
  await at('create materialized view testView as (select ts, avg(v) from table2 sample by 30s) partition by day', 61, /table does not exist \[table=table2\]/)
  // MatViewTest: INSERT into a view at the view's name
  await db.query('create materialized view curr_view as (select ts, k, avg(v) from table1 sample by 1h)')
  await at("insert into curr_view values ('2019-03-10T03:00:00.000000Z', 'x', 3)", 12, /cannot modify materialized view \[view=curr_view\]/)
})
