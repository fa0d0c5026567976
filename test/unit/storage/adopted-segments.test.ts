/**
 * A large in-order batch into a durable table becomes an in-memory segment of its own, its vectors
 * adopted as they are (table.ts `applyAppendSteps`, `ColumnBuffer.adopt`): an ILP request's
 * builders, already in column memory, are not copied into the newest rows' buffers. The answers
 * must be those of the same rows appended the ordinary way (an in-memory table), around small
 * appends, out-of-order batches landing in an adopted segment, DEDUP, checkpoints and a reopen.
 */
import t from 'tap'
import { ColumnBuffer } from '../../../lib/storage/column-buffer.js'
import { sharedBuffer } from '../../../lib/storage/shared-memory.js'
import { SymbolTable, constVector, vectorOf } from '../../../lib/types/vector.js'
import { Database } from '../../../lib/index.js'
import type { Table } from '../../../lib/storage/table.js'
import { afterReopen, tmpDir } from './helpers.js'

t.test('ColumnBuffer.adopt keeps column memory of its own type as it is, copies anything else', async (t) => {
  const shared = new Float64Array(sharedBuffer(8 * 4))
  shared.set([1, 2, 3, 4])
  const a = ColumnBuffer.adopt('DOUBLE', vectorOf('DOUBLE', shared, 4))
  t.equal((a.view(0, 4).data as Float64Array).buffer, shared.buffer, 'shared DOUBLE values: the very array')
  t.same([...(a.view(0, 4).data as Float64Array)], [1, 2, 3, 4])
  const plain = Float64Array.of(5, 6)
  const b = ColumnBuffer.adopt('DOUBLE', vectorOf('DOUBLE', plain, 2))
  t.not((b.view(0, 2).data as Float64Array).buffer, plain.buffer, 'a plain array is copied (workers scan shared memory)')
  t.same([...(b.view(0, 2).data as Float64Array)], [5, 6])
  // an appended row reallocates: the adopted array is never written
  a.append(vectorOf('DOUBLE', Float64Array.of(9), 1))
  t.same([...shared], [1, 2, 3, 4], 'the adopted array is not written by a later append')
  t.same([...(a.view(0, 5).data as Float64Array)], [1, 2, 3, 4, 9])
  // SYMBOL keys of another dictionary are translated into the buffer's
  const theirs = new SymbolTable()
  const keys = new Int32Array(sharedBuffer(4 * 2))
  keys.set([theirs.intern('x'), theirs.intern('y')])
  const ours = new SymbolTable()
  ours.intern('y')
  const s = ColumnBuffer.adopt('SYMBOL', vectorOf('SYMBOL', keys, 2, theirs), ours)
  const sv = s.view(0, 2)
  t.not((sv.data as Int32Array).buffer, keys.buffer, 'keys of another dictionary are copied')
  t.same([...(sv.data as Int32Array)].map((k) => ours.values[k]), ['x', 'y'])
  // a constant vector is made into values
  const c = ColumnBuffer.adopt('LONG', constVector('LONG', 7, 3))
  t.same([...(c.view(0, 3).data as Float64Array)], [7, 7, 7])
})

const BATCH = 10_000
const T0 = 1_700_000_000_000_000
/** ILP lines for rows `from .. from + count - 1` at `T0 + ts(i)` µs (5 minutes apart: several DAY partitions). */
function lines(table: string, from: number, count: number, ts = (i: number): number => i * 300_000_000): Buffer {
  const out: string[] = []
  for (let i = from; i < from + count; i++) out.push(`${table},s=k${i % 7} v=${i % 1000}.5,n=${i}i ${T0 + ts(i)}t`)
  return Buffer.from(out.join('\n') + '\n')
}

async function ilp(db: Database, body: Buffer): Promise<void> {
  const w = db.lineWriter()
  w.write(body)
  await w.end()
}

/** The in-memory segments' row counts of table `name` (a look inside: how the rows are held). */
function segments(db: Database, name: string): number[] {
  const table = (db as unknown as { catalog: { get(n: string): Table } }).catalog.get(name)
  return table.inMemory().map((d) => d.rowCount)
}

const Q = [
  'select count(), sum(n), sum(v), count_distinct(s), min(timestamp), max(timestamp) from t',
  'select s, count(), sum(n), first(n), last(n) from t order by s',
  'select count() from (select timestamp, lag(timestamp) over () prev from t) where timestamp < prev',
  'select timestamp, s, v, n from t where n in (0, 9999, 10000, 25003, 40001, 55000) order by timestamp, n',
]

t.test('durable ILP batches in order, small appends between them, a late batch into an adopted segment: the answers of the same rows in memory, before and after checkpoints and a reopen', { timeout: 240_000 }, async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  const mem = await Database.open()
  const both = async (body: Buffer): Promise<void> => { await ilp(db, body); await ilp(mem, body) }
  await both(lines('t', 0, BATCH))
  t.same(segments(db, 't').filter((n) => n > 0), [BATCH], 'the batch is a segment of its own')
  const snap = await db.query('select count() from t')
  await both(lines('t', BATCH, 3))
  await both(lines('t', BATCH + 3, BATCH))
  await both(lines('t', 2 * BATCH + 3, 2 * BATCH))
  t.same(segments(db, 't').filter((n) => n > 0), [BATCH, 3, BATCH, 2 * BATCH], 'small rows freeze between the batches')
  t.same(snap.rows, [[BigInt(BATCH)]])
  for (const q of Q) t.same((await db.query(q)).rows, (await mem.query(q)).rows, q)
  // late rows landing in the middle of the second adopted segment (odd minutes between its rows)
  await both(lines('t', 50_000, 5000, (i) => (BATCH + 3 + 2 * (i - 50_000)) * 300_000_000 + 150_000_000))
  t.ok(segments(db, 't').length < 5, 'the segments the late rows reach were joined')
  for (const q of Q) t.same((await db.query(q)).rows, (await mem.query(q)).rows, `after the late batch: ${q}`)
  // more in order, then past the end of a checkpoint
  await both(lines('t', 55_000, BATCH, (i) => (40_003 + i) * 300_000_000))
  const expected: unknown[][][] = []
  for (const q of Q) expected.push((await mem.query(q)).rows)
  for (const [i, q] of Q.entries()) t.same((await db.query(q)).rows, expected[i], `before the reopen: ${q}`)
  await db.close()
  await mem.close()
  t.same(await afterReopen(dir, ...Q), expected, 'after a reopen')
})

t.test('checkpoints between adopted batches (a small WAL threshold), and a DEDUP table: the same answers', { timeout: 240_000 }, async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 19 })
  const mem = await Database.open()
  for (const d of [db, mem]) {
    await d.query('create table u (s symbol, v double, n long, timestamp timestamp) timestamp(timestamp) partition by day wal dedup upsert keys(timestamp, s)')
  }
  const both = async (body: Buffer): Promise<void> => { await ilp(db, body); await ilp(mem, body) }
  for (let b = 0; b < 3; b++) {
    await both(lines('t', b * BATCH, BATCH))
    await both(lines('u', b * BATCH, BATCH))
    // the DEDUP table gets some rows again
    await both(lines('u', b * BATCH + 100, 50))
  }
  for (const q of [...Q, ...Q.map((x) => x.replace(/\bt\b/g, 'u'))]) t.same((await db.query(q)).rows, (await mem.query(q)).rows, q)
  t.same((await db.query('select count() from u')).rows, [[30000n]], 'DEDUP replaced the rows sent again')
  await db.close()
  await mem.close()
  t.same(await afterReopen(dir, 'select count(), sum(n) from t', 'select count(), sum(n) from u'), [[[30000n, BigInt(29999 * 30000 / 2)]], [[30000n, BigInt(29999 * 30000 / 2)]]])
})

t.test('large appends in one group commit stay apart (no concatenation copy): in order each is a segment, interleaved they merge, the answers of the same rows in memory', { timeout: 240_000 }, async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  const mem = await Database.open()
  /** Both bodies' requests at once (their appends staged before the sync starts: one group). */
  const together = async (d: Database, a: Buffer, b: Buffer): Promise<void> => {
    const w1 = d.lineWriter()
    const w2 = d.lineWriter()
    w1.write(a)
    w2.write(b)
    await Promise.all([w1.end(), w2.end()])
  }
  const pair = async (a: Buffer, b: Buffer): Promise<void> => { await together(db, a, b); await together(mem, a, b) }
  await pair(lines('t', 0, BATCH), lines('t', BATCH, BATCH))
  t.same(segments(db, 't').filter((n) => n > 0), [BATCH, BATCH], 'two in-order appends of one group: two adopted segments')
  // two interleaved streams: stream k at 2i + k (minutes apart), each request in order
  const at = (k: number) => (i: number): number => (2 * BATCH + 2 * (i - 2 * BATCH) + k) * 300_000_000
  await pair(lines('t', 2 * BATCH, BATCH, at(0)), lines('t', 3 * BATCH, BATCH, (i) => at(1)(i - BATCH)))
  for (const q of Q) t.same((await db.query(q)).rows, (await mem.query(q)).rows, q)
  await db.close()
  await mem.close()
  t.same(await afterReopen(dir, 'select count(), sum(n) from t'), [[[40000n, BigInt(39999 * 40000 / 2)]]])
})
