/**
 * Out-of-order merges leave the rows before the overlap where they are (table.ts: frozen
 * in-memory segments) instead of copying every in-memory row per merge: readers of older
 * snapshots keep their rows, the segments stay few, and a checkpoint writes them as one version.
 */
import t from 'tap'
import { Table, type TableMeta } from '../../../lib/storage/table.js'
import { vectorOf, type Vector } from '../../../lib/types/vector.js'
import { Database } from '../../../lib/index.js'
import { afterReopen, tmpDir } from './helpers.js'

function meta(): TableMeta {
  return {
    id: 1, name: 't', timestampIndex: 0, partitionBy: 'DAY', wal: true, dedupKeys: [], ttl: undefined,
    maxUncommittedRows: 1000, o3MaxLag: 0,
    columns: [
      { name: 'ts', type: 'TIMESTAMP', indexed: false, symbolCapacity: 256, symbolCached: true },
      { name: 'v', type: 'DOUBLE', indexed: false, symbolCapacity: 256, symbolCached: true },
    ],
  }
}

const BATCH = 1000

/** Batch `b` of stream `k` (0 or 1): timestamps 2i + k for i in the batch, value = timestamp. */
function batch(table: Table, b: number, k: number): void {
  const ts = Float64Array.from({ length: BATCH }, (_, i) => 2 * (b * BATCH + i) + k)
  const vs: Vector[] = [vectorOf('TIMESTAMP', ts, BATCH), vectorOf('DOUBLE', Float64Array.from(ts), BATCH)]
  table.append(vs, BATCH)
}

/** The timestamps of a snapshot's rows, and of its value column (equal when nothing was torn). */
function read(snap: ReturnType<Table['snapshot']>): { ts: number[]; v: number[] } {
  const ts: number[] = []
  const v: number[] = []
  for (const p of snap.parts) {
    const r = p.open([0, 1])
    const a = r.view(0, 0, p.rows)
    const b = r.view(1, 0, p.rows)
    ts.push(...(a.data as Float64Array))
    v.push(...(b.data as Float64Array))
  }
  return { ts, v }
}

t.test('two interleaved in-order streams: every snapshot in order and whole, older snapshots unchanged, the rows before the overlap not copied', async (t) => {
  const table = new Table(meta())
  const held: { snap: ReturnType<Table['snapshot']>; ts: number[] }[] = []
  let maxParts = 0
  let kept = 0
  for (let b = 0; b < 28; b++) {
    batch(table, b, 0)
    const before = table.snapshot()
    batch(table, b, 1)
    const snap = table.snapshot()
    const got = read(snap)
    const n = 2 * (b + 1) * BATCH
    t.equal(got.ts.length, n)
    // every timestamp 0 .. n-1 once, ascending, values beside their timestamps
    if (!got.ts.every((x, i) => x === i) || !got.v.every((x, i) => x === i)) { t.fail(`batch ${b}: rows out of order or torn`); return }
    maxParts = Math.max(maxParts, snap.parts.length)
    if (b > 0) {
      // the first part's timestamps are the very array the snapshot before the merge read: not copied
      const first = (p: ReturnType<Table['snapshot']>): ArrayBufferLike => (p.parts[0]!.open([0]).view(0, 0, 1).data as Float64Array).buffer
      // (unless this merge joined segments, four at a time)
      if (first(snap) === first(before)) kept++
    }
    if (b % 7 === 0) held.push({ snap, ts: got.ts })
  }
  t.ok(kept >= 20, `the rows before the overlap stayed in their buffer in most merges (${kept} of 27)`)
  for (const h of held) t.same(read(h.snap).ts, h.ts, 'a snapshot taken before later merges reads what it read')
  // 56 batches: segments joined four at a time keep them few
  t.ok(maxParts > 1, 'merges left frozen segments')
  t.ok(maxParts <= 12, `at most 12 in-memory parts (saw ${maxParts})`)
  // joined into one version (UPDATE, DDL): the same rows
  const all = table.materialized()
  t.equal(all.rowCount, 56 * BATCH)
  t.equal(table.snapshot().parts.length, 1)
  t.same(read(table.snapshot()).ts.slice(0, 5), [0, 1, 2, 3, 4])
})

t.test('DEDUP: interleaved streams, some rows sent again with new values: the rows before the oldest new timestamp not copied, each timestamp once, the last value kept', async (t) => {
  const table = new Table({ ...meta(), dedupKeys: ['ts'] })
  let kept = 0
  let maxParts = 0
  const held: { snap: ReturnType<Table['snapshot']>; ts: number[]; v: number[] }[] = []
  for (let b = 0; b < 28; b++) {
    batch(table, b, 0)
    const before = table.snapshot()
    // stream 1, and the last 10 rows of stream 0's batch again with their value negated
    const ts = Float64Array.from({ length: BATCH + 10 }, (_, i) => (i < BATCH ? 2 * (b * BATCH + i) + 1 : 2 * ((b + 1) * BATCH - 10 + i - BATCH)))
    const v = Float64Array.from(ts, (x, i) => (i < BATCH ? x : -x))
    table.append([vectorOf('TIMESTAMP', ts, ts.length), vectorOf('DOUBLE', v, v.length)], ts.length)
    const snap = table.snapshot()
    const got = read(snap)
    const n = 2 * (b + 1) * BATCH
    const last = (x: number): boolean => x % 2 === 0 && x % (2 * BATCH) >= 2 * (BATCH - 10)
    if (got.ts.length !== n || !got.ts.every((x, i) => x === i) || !got.v.every((x, i) => x === (last(i) ? -i : i))) { t.fail(`batch ${b}: rows out of order, twice, or with the wrong value`); return }
    maxParts = Math.max(maxParts, snap.parts.length)
    const first = (p: ReturnType<Table['snapshot']>): ArrayBufferLike => (p.parts[0]!.open([0]).view(0, 0, 1).data as Float64Array).buffer
    if (b > 0 && first(snap) === first(before)) kept++
    if (b % 9 === 0) held.push({ snap, ...got })
  }
  t.ok(kept >= 20, `the rows before the oldest new timestamp stayed in their buffer in most merges (${kept} of 27)`)
  t.ok(maxParts > 1 && maxParts <= 12, `frozen segments, few (saw ${maxParts})`)
  for (const h of held) t.same(read(h.snap), { ts: h.ts, v: h.v }, 'a snapshot taken before later merges reads what it read')
  // a row sent again that lands in a frozen segment: the segments are joined and it replaces its row
  table.append([vectorOf('TIMESTAMP', Float64Array.of(4), 1), vectorOf('DOUBLE', Float64Array.of(-4), 1)], 1)
  const got = read(table.snapshot())
  t.equal(got.ts.length, 56 * BATCH, 'no row added')
  t.same(got.v.slice(3, 6), [3, -4, 5], 'the row at 4 replaced')
})

t.test('a late row older than the frozen segments joins them and lands in order', async (t) => {
  const table = new Table(meta())
  for (let b = 0; b < 6; b++) { batch(table, b, 0); batch(table, b, 1) }
  t.ok(table.snapshot().parts.length > 1)
  table.append([vectorOf('TIMESTAMP', Float64Array.of(0.5), 1), vectorOf('DOUBLE', Float64Array.of(-1), 1)], 1)
  const got = read(table.snapshot())
  t.equal(got.ts.length, 12 * BATCH + 1)
  t.same(got.ts.slice(0, 3), [0, 0.5, 1])
  t.ok(got.ts.every((x, i) => i === 0 || x >= got.ts[i - 1]!), 'ascending')
})

t.test('durable: interleaved ILP streams through checkpoints (segments joined in the checkpoint steps) read back in order after a reopen', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 20 })
  const per = 3000
  for (let b = 0; b < 16; b++) {
    for (const k of [0, 1]) {
      const lines: string[] = []
      for (let i = 0; i < per; i++) { const ts = 1_700_000_000_000_000 + 2 * (b * per + i) + k; lines.push(`o3s,s=${k ? 'b' : 'a'} v=${ts % 1000}i ${ts}t`) }
      const w = db.lineWriter()
      w.write(Buffer.from(lines.join('\n') + '\n'))
      await w.end()
    }
  }
  const q = 'select count(), count_distinct(timestamp), min(timestamp) = first(timestamp), max(timestamp) = last(timestamp) from o3s'
  t.same((await db.query(q)).rows, [[96000n, 96000n, true, true]])
  await db.close()
  const [after, order] = await afterReopen(dir, q, 'select count() from (select timestamp, lag(timestamp) over () prev from o3s) where timestamp <= prev')
  t.same(after, [[96000n, 96000n, true, true]])
  t.same(order, [[0n]], 'strictly ascending after the reopen')
})

t.test('TTL over interleaved streams (partitions listed from the segments as held) drops what the same rows in order drop', async (t) => {
  const db = await Database.open()
  const hour = 3_600_000_000
  await db.query('create table a (ts timestamp, k int, v long) timestamp(ts) partition by hour ttl 3 hours')
  await db.query('create table b (ts timestamp, k int, v long) timestamp(ts) partition by hour ttl 3 hours')
  const per = 1500
  // stream k at ts0 + 2i + k, in steps of hour / 1000 µs: 12 batches pass through 6 hours
  const step = hour / 1000
  const at = (b: number, i: number, k: number): number => 1_700_000_000_000_000 + (2 * (b * per + i) + k) * step / 2
  for (let b = 0; b < 12; b++) {
    for (const k of [0, 1]) {
      const ts = Array.from({ length: per }, (_, i) => at(b, i, k))
      await db.append('a', { ts, k: ts.map(() => k), v: ts.map((_, i) => b * per + i) })
    }
    const both = Array.from({ length: 2 * per }, (_, j) => at(b, j >> 1, j & 1))
    await db.append('b', { ts: both, k: both.map((_, j) => j & 1), v: both.map((_, j) => b * per + (j >> 1)) })
  }
  const q = (x: string): Promise<unknown[][]> => db.query(`select count(), min(ts), max(ts), sum(v), sum(k) from ${x}`).then((r) => r.rows)
  const [ra, rb] = [await q('a'), await q('b')]
  t.same(ra, rb)
  t.ok(Number((ra[0] as bigint[])[0]) < 24 * per, 'old partitions were dropped')
})
