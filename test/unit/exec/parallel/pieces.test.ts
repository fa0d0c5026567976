import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { MIN_PIECE_ROWS, PIECES_PER_THREAD, PIECE_STATS, STREAM_PIECES_PER_THREAD, pieceBounds } from '../../../../lib/exec/parallel/pieces.js'
import { PARALLEL_MIN_ROWS } from '../../../../lib/plan/physical/index.js'
import { PARALLELISM, workerPool } from '../../../../lib/exec/parallel/pool.js'

t.test('pieceBounds cuts each range into contiguous pieces that cover it', async (t) => {
  for (const [ranges, threads, per] of [
    [[0, 1_000_000], 2, 4], [[0, 1_000_000], 2, 1], [[5, 10], 2, 4], [[0, 100_000, 200_000, 230_000, 500_000, 900_001], 3, 4], [[0, MIN_PIECE_ROWS * 3], 2, 4],
  ] as [number[], number, number][]) {
    const b = pieceBounds(ranges, threads, per)
    for (let i = 0; i < b.length; i += 2) t.ok(b[i]! < b[i + 1]!, 'no empty piece')
    // the pieces, joined where they touch, give the ranges back
    const joined: number[] = [b[0]!]
    for (let i = 2; i < b.length; i += 2) if (b[i] !== b[i - 1]) joined.push(b[i - 1]!, b[i]!)
    joined.push(b[b.length - 1]!)
    t.same(joined, ranges, `${JSON.stringify(ranges)} over ${threads} threads, ${per} a thread`)
    t.ok(b.length / 2 <= Math.max(ranges.length / 2, threads * per + ranges.length / 2), `${b.length / 2} pieces, about ${per} a thread`)
    for (let i = 0; i < b.length; i += 2) {
      const whole = ranges.some((_, r) => r % 2 === 0 && ranges[r] === b[i] && ranges[r + 1] === b[i + 1])
      if (!whole) t.ok(b[i + 1]! - b[i]! >= MIN_PIECE_ROWS / 2, 'pieces of a cut range are not tiny')
    }
  }
  t.equal(pieceBounds([0, 1_000_000], 2, 4).length / 2, 8)
  t.equal(pieceBounds([0, 1_000_000], 2, 1).length / 2, 2)
})

// results compared with the single-threaded operator: doubles up to rounding (sums split in pieces add in another order)
function close(a: unknown[][], b: unknown[][]): boolean {
  return a.length === b.length && a.every((row, i) => row.every((x, j) => {
    const y = b[i]![j]
    if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y))
    return x === y
  }))
}

t.test('a keyed SAMPLE BY runs in pieces taken on demand and answers as one thread does', async (t) => {
  if (workerPool() === undefined) { t.pass('no worker threads on this machine: nothing to split'); return }
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table m (ts timestamp, host symbol, a double, b double, c double) timestamp(ts) partition by day')
  const n = PARALLEL_MIN_ROWS + 77_777
  const ts = new Float64Array(n)
  const a = new Float64Array(n)
  const b = new Float64Array(n)
  const c = new Float64Array(n)
  const host: (string | null)[] = []
  for (let i = 0; i < n; i++) {
    ts[i] = 1_451_606_400_000_000 + Math.floor(i / 50) * 10_000_000 // 50 hosts every 10 s: 18,000 rows an hour
    host.push(i % 50 === 49 ? null : `host_${(i * 7) % 50}`)
    a[i] = i % 101 === 0 ? NaN : (i % 997) / 10
    b[i] = (i * 13) % 1000
    c[i] = Math.sin(i)
  }
  await db.append('m', { ts, host, a, b, c })
  const queries = [
    'select ts, host, avg(a), avg(b), avg(c) from m sample by 1h',
    'select ts, host, avg(a), max(b), count() from m sample by 7m',
    'select ts, host, sum(a), min(c) from m where b > 100 sample by 1d',
  ]
  for (const q of queries) {
    PARALLELISM.enabled = false
    const serial = await db.query(q)
    PARALLELISM.enabled = true
    const before = PIECE_STATS.mine + PIECE_STATS.workers
    const parallel = await db.query(q)
    t.ok(close(parallel.rows, serial.rows), `${q}: same rows (${serial.rows.length})`)
    t.ok(PIECE_STATS.mine + PIECE_STATS.workers - before > (workerPool()!.size + 1), `${q}: more pieces than threads`)
  }
  const before = PIECE_STATS.mine + PIECE_STATS.workers
  const q = 'select host, avg(a), count() from m group by host order by host'
  PARALLELISM.enabled = false
  const serial = await db.query(q)
  PARALLELISM.enabled = true
  t.ok(close((await db.query(q)).rows, serial.rows), 'GROUP BY: same rows')
  t.equal(PIECE_STATS.mine + PIECE_STATS.workers - before, workerPool()!.size + 1, `GROUP BY: one piece a thread (its partials can each hold every group); ${PIECES_PER_THREAD} a thread for SAMPLE BY`)
})

t.test('an unkeyed aggregation runs in several pieces a thread (a late thread holds it up by one piece) and answers exactly as one thread does', async (t) => {
  if (workerPool() === undefined) { t.pass('no worker threads on this machine: nothing to split'); return }
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table d (v decimal(18,4), w double, l long)')
  const n = PARALLEL_MIN_ROWS + 55_555
  const v: (string | null)[] = new Array(n)
  const w = new Float64Array(n)
  const l = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const u = ((i + 1) * 7919) % 100_000_000
    v[i] = i % 1_000 === 999 ? null : `${i % 2 === 0 ? '' : '-'}${Math.floor(u / 10_000)}.${String(u % 10_000).padStart(4, '0')}`
    w[i] = u / 7
    l[i] = u
  }
  v[n - 1] = null // last() of the whole table is null, last_not_null() the row before
  await db.append('d', { v, w, l })
  const q = 'select sum(v), avg(v), min(v), max(v), first(v), last(v), last_not_null(v), count(v), sum(l), max(w), count() from d'
  PARALLELISM.enabled = false
  const serial = await db.query(q)
  PARALLELISM.enabled = true
  const before = PIECE_STATS.mine + PIECE_STATS.workers
  const parallel = await db.query(q)
  const pieces = PIECE_STATS.mine + PIECE_STATS.workers - before
  t.same(parallel.rows, serial.rows, 'the same answer, exactly')
  t.ok(pieces > workerPool()!.size + 1, `${pieces} pieces for ${workerPool()!.size + 1} threads (${STREAM_PIECES_PER_THREAD} a thread asked)`)
})

t.test('a keyed GROUP BY of order-free aggregates streams: each thread folds every piece it takes into one partial, answers exactly as one thread does', async (t) => {
  if (workerPool() === undefined) { t.pass('no worker threads on this machine: nothing to split'); return }
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table d (ts timestamp, k int, s symbol, v decimal(18,4), w double) timestamp(ts) partition by day')
  const n = PARALLEL_MIN_ROWS + 33_333
  const ts = new Float64Array(n)
  const k = new Int32Array(n)
  const sym: (string | null)[] = new Array(n)
  const v: (string | null)[] = new Array(n)
  const w = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    ts[i] = 1_700_000_000_000_000 + Math.floor(i * 200_000) // ~2.4 days: three partitions
    k[i] = i % 97 === 0 ? -2147483648 : (i * 31) % 1_000 - 300
    sym[i] = i % 13 === 0 ? null : `s${i % 40}`
    const u = ((i + 1) * 7919) % 100_000_000
    v[i] = i % 777 === 0 ? null : `${i % 3 === 0 ? '-' : ''}${Math.floor(u / 10_000)}.${String(u % 10_000).padStart(4, '0')}`
    w[i] = u / 3
  }
  await db.append('d', { ts, k, s: sym, v, w })
  const queries = [
    'select k, sum(v), avg(v), min(v), max(v), count(), count(v), min(w), max(w) from d group by k order by k',
    'select s, sum(v), count() from d where w > 1000000 group by s order by s',
    'select k, s, max(v) from d where k > 0 group by k, s order by k, s',
  ]
  for (const q of queries) {
    PARALLELISM.enabled = false
    const serial = await db.query(q)
    PARALLELISM.enabled = true
    const before = PIECE_STATS.mine + PIECE_STATS.workers
    const parallel = await db.query(q)
    const pieces = PIECE_STATS.mine + PIECE_STATS.workers - before
    t.same(parallel.rows, serial.rows, `${q}: the same ${serial.rows.length} rows, exactly`)
    t.ok(pieces > workerPool()!.size + 1, `${q}: ${pieces} pieces`)
  }
  // a double sum is not order-free: one piece a thread, a partial per piece in row order
  const before = PIECE_STATS.mine + PIECE_STATS.workers
  await db.query('select k, sum(w) from d group by k')
  t.equal(PIECE_STATS.mine + PIECE_STATS.workers - before, workerPool()!.size + 1, 'sum(double) keyed: one piece a thread')
})
