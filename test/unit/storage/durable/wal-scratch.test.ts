/**
 * The int64 words of WAL records (LONG / TIMESTAMP columns held as safe integers) are encoded into
 * one reused arena (wal-codec.ts `WalScratch`) instead of a fresh array per record and column. The
 * WAL keeps a record's pieces by reference until it writes them, so a region must not be handed
 * out twice before every record encoded into it was written: checked directly on the arena, and
 * end to end with several appends staged into one group commit (each its own record, all pending
 * at once) plus a large append of several records with writes between them, replayed from a copy
 * of the WAL as a crash leaves it. A reused region would change a pending record's bytes after its
 * CRC was taken (replay drops the group) or carry one record's words into another (wrong rows).
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { WalScratch } from '../../../../lib/storage/durable/wal-codec.js'
import { STEP_BYTES } from '../../../../lib/storage/durable/store.js'
import { afterReopen, crashCopy, tmpDir } from '../helpers.js'

t.test('regions never overlap until released; then the same memory is reused; full -> fresh arrays; grows', async (t) => {
  const s = new WalScratch(100, 1000)
  const a = s.take(40)
  const b = s.take(40)
  a.fill(1)
  b.fill(2)
  t.ok(a.every((x) => x === 1), 'the second region does not overlap the first')
  const c = s.take(40) // 120 > 100: a fresh array
  c.fill(3)
  t.ok(a.every((x) => x === 1) && b.every((x) => x === 2), 'a region past the arena is fresh memory')
  t.not(c.buffer, a.buffer)
  s.release()
  t.equal(s.capacity, 120, 'grown to what was asked between releases')
  const d = s.take(40)
  t.equal(d.buffer, s.take(0).buffer, 'after release, regions come from the arena again')
  s.release()
  s.take(5000)
  s.release()
  t.equal(s.capacity, 1000, 'never past its cap')
})

const T0 = Date.UTC(2024, 0, 1) * 1000

function rows(from: number, n: number): Record<string, unknown[]> {
  const ts = Array.from({ length: n }, (_, i) => T0 + (from + i) * 1000)
  return {
    ts,
    a: ts.map((_, i) => ((from + i) % 89 === 0 ? null : (from + i) * 7_000_003 - 2 ** 41)),
    b: ts.map((_, i) => -(from + i) * 13),
  }
}

const Q = [
  'select count(), count(a), sum(a), min(a), max(a), sum(b), min(b), max(b), min(ts), max(ts) from t',
  'select ts, a, b from t where ts in (\'2024-01-01T00:00:00.000000Z\', \'2024-01-01T02:46:39.000000Z\', \'2024-01-01T02:46:40.000000Z\', \'2024-01-01T05:33:19.000000Z\') order by ts',
  'select sum(a * 3 + b) from t where b % 7 = 0',
]

t.test('appends staged together and a many-record append replay exactly from the WAL', { timeout: 240_000 }, async (t) => {
  const dir = tmpDir(t)
  const mem = await Database.open()
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  for (const d of [db, mem]) await d.query('create table t (ts timestamp, a long, b long) timestamp(ts) partition by day wal')
  // five appends of 10,000 rows (each stays its own record: >= 8,192 rows) in one group commit
  const batch = 10_000
  await Promise.all(Array.from({ length: 5 }, (_, k) => db.append('t', rows(k * batch, batch))))
  for (let k = 0; k < 5; k++) await mem.append('t', rows(k * batch, batch))
  // then one append of several records with the WAL written between them (about 2.5 steps)
  const big = Math.ceil((STEP_BYTES * 2.5) / 24)
  for (const d of [db, mem]) await d.append('t', rows(5 * batch, big))
  // and small ones again, reusing the arena after the writes
  await Promise.all([db.append('t', rows(5 * batch + big, batch)), db.append('t', rows(6 * batch + big, batch))])
  for (let k = 0; k < 2; k++) await mem.append('t', rows((5 + k) * batch + big, batch))
  const copy = crashCopy(t, dir)
  await db.close()
  const expected: unknown[][][] = []
  for (const q of Q) expected.push((await mem.query(q)).rows)
  t.equal(expected[0]![0]![0], BigInt(7 * batch + big))
  t.same(await afterReopen(copy, ...Q), expected, 'every row replayed from the WAL, exactly')
  await mem.close()
})
