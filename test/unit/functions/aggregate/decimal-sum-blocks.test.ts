/**
 * The DECIMAL(p <= 18) sum/avg kernel sums blocks of rows into doubles and falls back to the
 * row-by-row carry loop for a block whose magnitudes sum to 2^52 or more: its answers must be the
 * exact decimal, the same on one thread and split across threads, keyed or not — with NULLs,
 * negatives, blocks of large values next to blocks of small ones, and totals past 2^53 units.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLELISM } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'

const N = 150_001 // not a multiple of the 4096-row block, not a multiple of 4 (the unrolled loop's tail)

/** Unscaled DECIMAL(18,4) value of row i, or null: mostly small, some blocks of values up to ~10^15 units (re-added row by row). */
function unscaled(i: number): bigint | null {
  if (i % 97 === 5) return null
  const big = Math.floor(i / 4096) % 5 === 2 // whole blocks carry the large values
  const u = BigInt(((i * 7919) % 100_000_000) + 1)
  const v = big && i % 3 === 0 ? u * 10_000_000n + 123n : u // up to ~10^15 units (a block of them passes 2^52)
  return i % 7 === 0 ? -v : v
}

function text(u: bigint, scale: number): string {
  const neg = u < 0n
  const s = (neg ? -u : u).toString().padStart(scale + 1, '0')
  return `${neg ? '-' : ''}${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`
}

/** avg as DECIMAL(18,4): the exact total over the count, rounded half to even. */
function avgText(total: bigint, count: bigint): string {
  const neg = total < 0n
  const a = neg ? -total : total
  let q = a / count
  const r2 = (a % count) * 2n
  if (r2 > count || (r2 === count && q % 2n === 1n)) q++
  return text(neg ? -q : q, 4)
}

t.test('DECIMAL(18,4) sum/avg: exact, one thread = split, keyed = not keyed', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 1000
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table d (k int, v decimal(18, 4))')
  const v = new Array<string | null>(N)
  const k = new Array<number>(N)
  let total = 0n
  let count = 0n
  const byKey = [0n, 0n]
  for (let i = 0; i < N; i++) {
    const u = unscaled(i)
    k[i] = i % 2
    v[i] = u === null ? null : text(u, 4)
    if (u !== null) { total += u; count++; byKey[i % 2]! += u }
  }
  await db.append('d', { k, v })
  t.ok(total > 2n ** 53n || total < -(2n ** 53n), 'the total passes 2^53 units (the carry runs)')
  const expectSum = text(total, 4)
  const expectAvg = avgText(total, count)
  const expectKeyed = [[0, text(byKey[0]!, 4)], [1, text(byKey[1]!, 4)]]
  const show = (x: unknown): string => String(x)

  for (const parallel of [false, true]) {
    PARALLELISM.enabled = parallel
    const runs = PARALLEL_STATS.runs
    const r = await db.query('select sum(v), avg(v), count(v) from d')
    t.same(r.rows[0]!.map(show), [expectSum, expectAvg, String(count)], `sum/avg/count, parallel=${parallel}`)
    const g = await db.query('select k, sum(v) from d order by k')
    t.same(g.rows.map((row) => [row[0], show(row[1])]), expectKeyed, `keyed sum, parallel=${parallel}`)
    // a filter that keeps only the small-valued blocks (the block path throughout) and one that keeps the large ones
    const f = await db.query('select sum(v) from d where v < 10000')
    let small = 0n
    for (let i = 0; i < N; i++) { const u = unscaled(i); if (u !== null && u < 100_000_000n) small += u }
    t.equal(show(f.rows[0]![0]), text(small, 4), `filtered sum, parallel=${parallel}`)
    if (parallel) t.ok(PARALLEL_STATS.runs > runs, 'the split ran')
    else t.equal(PARALLEL_STATS.runs, runs, 'one thread')
  }
})

t.test('DECIMAL(18,4) sum of only NULLs is NULL; one huge value among small ones is exact', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table n (v decimal(18, 4))')
  await db.append('n', { v: [null, null, null] })
  t.equal((await db.query('select sum(v) from n')).rows[0]![0], null)
  await db.query('create table h (v decimal(18, 4))')
  const v = new Array<string>(10_001).fill('0.0001')
  v[5000] = '99999999999999.9999' // 10^18 - 1 units: far past the block bound and 2^53
  await db.append('h', { v })
  t.equal(String((await db.query('select sum(v) from h')).rows[0]![0]), '100000000000000.9999')
})
