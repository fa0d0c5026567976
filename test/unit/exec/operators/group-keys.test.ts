import t from 'tap'
import { Database } from '../../../../lib/index.js'

// Group ids for one numeric key: small integers through an array, spread-out or 64-bit values
// through a map, and a switch from one to the other in the middle of a query.
async function groups(db: Database, sql: string): Promise<unknown[][]> {
  return (await db.query(sql)).rows
}

t.test('INT keys: small, negative and null values', async (t) => {
  const db = await Database.open()
  await db.query('create table t (k int, v long)')
  await db.query('insert into t values (3, 1), (-2, 2), (null, 3), (3, 4), (null, 5), (0, 6), (-2, 7)')
  t.same(await groups(db, 'select k, sum(v), count() from t order by k'), [[null, 8n, 2n], [-2, 9n, 2n], [0, 6n, 1n], [3, 5n, 2n]])
})

t.test('INT keys that stop fitting an array move to a map without losing groups', async (t) => {
  const db = await Database.open()
  await db.query('create table t (k int)')
  // 70k rows per batch-ish: small keys first, then a key two billion away, then the small keys again
  const n = 200_000
  const ks = new Int32Array(n)
  for (let i = 0; i < n; i++) ks[i] = i === 100_000 ? 2_000_000_000 : i === 100_001 ? -2_147_483_647 : i % 7
  await db.append('t', { k: ks })
  const rows = await groups(db, 'select k, count() from t order by k')
  const expected: unknown[][] = [[-2_147_483_647, 1n]]
  for (let k = 0; k < 7; k++) {
    let c = 0
    for (let i = 0; i < n; i++) if (i !== 100_000 && i !== 100_001 && i % 7 === k) c++
    expected.push([k, BigInt(c)])
  }
  expected.push([2_000_000_000, 1n])
  t.same(rows, expected)
})

t.test('LONG keys beyond 2^53 group exactly, also after safe values', async (t) => {
  const db = await Database.open()
  await db.query('create table t (k long)')
  await db.query('insert into t values (1), (2), (1)')
  await db.query('insert into t values (9223372036854775807), (9223372036854775806), (9223372036854775807), (1)')
  t.same(await groups(db, 'select k, count() from t order by k'), [[1n, 3n], [2n, 1n], [9223372036854775806n, 1n], [9223372036854775807n, 2n]])
})

t.test('SHORT, BYTE and IPv4 keys', async (t) => {
  const db = await Database.open()
  await db.query('create table t (s short, b byte, ip ipv4)')
  await db.query("insert into t values (-5, 1, '10.0.0.1'), (7, 1, null), (-5, 2, '10.0.0.1'), (7, 2, '200.1.1.1')")
  t.same(await groups(db, 'select s, count() from t order by s'), [[-5, 2n], [7, 2n]])
  t.same(await groups(db, 'select b, count() from t order by b'), [[1, 2n], [2, 2n]])
  t.same(await groups(db, 'select ip, count() from t order by ip'), [[null, 1n], ['10.0.0.1', 2n], ['200.1.1.1', 1n]])
})

t.test('a computed LONG key that passes 2^53 in a later batch only', async (t) => {
  const db = await Database.open()
  // x * 1e11 is a safe integer in the first batch (x <= 65536) and beyond 2^53 in the second
  const r = await db.query('select k, count() c from (select x * 100000000000L k from long_sequence(100000)) order by k desc limit 2')
  t.same(r.rows, [[10000000000000000n, 1n], [9999900000000000n, 1n]])
  const n = await db.query('select count(), sum(c) from (select x * 100000000000L k, count() c from long_sequence(100000))')
  t.same(n.rows, [[100000n, 100000n]])
})

t.test('SAMPLE BY keyed by a LONG that is beyond 2^53 in some batches only', async (t) => {
  const db = await Database.open()
  await db.query("create table t as (select timestamp_sequence('2024-01-01', 1000000) ts, x from long_sequence(100000)) timestamp(ts)")
  const r = await db.query('select ts, k, count() from (select ts, (x % 3) * 5000000000000000L k from t) timestamp(ts) sample by 1d order by ts, k')
  // 86,400 rows on Jan 1 (28,800 per key), 13,600 on Jan 2 (x = 86,401..100,000)
  t.same(r.rows, [
    [1704067200000000n, 0n, 28800n], [1704067200000000n, 5000000000000000n, 28800n], [1704067200000000n, 10000000000000000n, 28800n],
    [1704153600000000n, 0n, 4533n], [1704153600000000n, 5000000000000000n, 4534n], [1704153600000000n, 10000000000000000n, 4533n],
  ])
})
