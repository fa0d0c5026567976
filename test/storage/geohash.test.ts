// GEOHASH on disk: QuestDB's widths (1, 2, 4 or 8 bytes by bit count) in partition files, WAL
// recovery, checkpoints, out-of-order rows, a column added later (its top reads null), reopen;
// Parquet export and Parquet partitions keep the precision (EpochDB's footer) and DuckDB reads
// the values as the signed integers QuestDB writes.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'

const ROWS = [
  ['2024-01-01T00:00:00.000000Z', null, null, null, null, null],
  ['2024-01-01T01:00:00.000000Z', 'z', 'zzz', 'zzzzzz', '000000000000', 'bbbbbbbbbbb'],
  ['2024-01-02T00:00:00.000000Z', 'p', 'u33', 'u33d8b', 'u33d8b121234', 'zzzzzzzzzzz'],
  ['2024-01-03T00:00:00.000000Z', '0', '000', '000000', 'zzzzzzzzzzzz', null],
]

async function rows(db: Database, sql: string): Promise<unknown[][]> {
  return (await db.query(sql)).rows.map((r) => r.map((v) => (typeof v === 'bigint' ? new Date(Number(v / 1000n)).toISOString().replace('Z', '000Z') : v)))
}

t.test('partition files in QuestDB widths; WAL, O3 and reopen keep every value', async (t) => {
  const root = tmpDir(t)
  let db = await Database.open({ path: root })
  await db.query('create table g (ts timestamp, a geohash(5b), b geohash(3c), c geohash(6c), d geohash(12c)) timestamp(ts) partition by day wal')
  await db.query("insert into g values ('2024-01-02', ##10101, #u33, #u33d8b, #u33d8b121234), ('2024-01-03', ##00000, #000, #000000, #zzzzzzzzzzzz)")
  await db.query('alter table g add column e geohash(55b)')
  // out of order, into the first day
  await db.query("insert into g values ('2024-01-01T01', ##11111, #zzz, #zzzzzz, #000000000000, #bbbbbbbbbbbb/55), ('2024-01-01', null, null, null, null, null)")
  await db.query("update g set e = #zzzzzzzzzzzz/55 where ts = '2024-01-02'")
  t.same(await rows(db, 'select * from g'), ROWS)
  await db.close()
  db = await Database.open({ path: root })
  t.same(await rows(db, 'select * from g'), ROWS, 'after reopen')
  t.same(await rows(db, 'select ts from g where d = #zzzzzzzzzzzz'), [['2024-01-03T00:00:00.000000Z']])
  await db.close()
  const dir = join(root, readdirSync(root).find((e) => e.startsWith('g~'))!)
  const day3 = join(dir, readdirSync(dir).find((e) => e.startsWith('2024-01-03'))!)
  t.same(['a', 'b', 'c', 'd'].map((c) => statSync(join(day3, `${c}.d`)).size), [1, 2, 4, 8], 'byte, short, int, long')
})

t.test('Parquet: export, read_parquet and Parquet partitions keep the type; DuckDB reads the integers', async (t) => {
  const root = tmpDir(t)
  const exp = tmpDir(t)
  const db = await Database.open({ path: root, exportRoot: exp, copyRoot: exp })
  t.teardown(() => db.close())
  await db.query('create table g (ts timestamp, a geohash(5b), b geohash(3c), c geohash(6c), d geohash(12c), e geohash(55b)) timestamp(ts) partition by day')
  await db.query("insert into g values ('2024-01-02', ##10101, #u33, #u33d8b, #u33d8b121234, #zzzzzzzzzzzz/55), ('2024-01-01T01', ##11111, #zzz, #zzzzzz, #000000000000, #bbbbbbbbbbbb/55), ('2024-01-01', null, null, null, null, null), ('2024-01-03', ##00000, #000, #000000, #zzzzzzzzzzzz, null)")
  await db.query("copy g to 'g1' with format parquet partition_by none")
  const file = join(exp, readdirSync(exp, { recursive: true }).map(String).find((f) => f.endsWith('.parquet'))!)
  const back = await db.query(`select * from read_parquet('${file}') order by ts`)
  t.same(back.columns.map((c) => c.type), ['TIMESTAMP', 'GEOHASH(1c)', 'GEOHASH(3c)', 'GEOHASH(6c)', 'GEOHASH(12c)', 'GEOHASH(11c)'])
  t.same(back.rows.map((r) => r.slice(1)), ROWS.map((r) => r.slice(1)))
  const duck = await duckRows(`SELECT typeof(a), typeof(b), typeof(c), typeof(d), a, b, d FROM read_parquet('${file}') WHERE a IS NOT NULL ORDER BY ts LIMIT 1`)
  // z = 31 (5 bits); zzz = 32767 (15 bits, a short); 000000000000 = 0
  t.same(duck.map((r) => r.map((x) => (typeof x === 'bigint' ? Number(x) : x))), [['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 31, 32767, 0]])
  await db.query('alter table g convert partition to parquet where ts >= 0')
  t.same(await rows(db, 'select * from g'), ROWS, 'Parquet partitions')
})
