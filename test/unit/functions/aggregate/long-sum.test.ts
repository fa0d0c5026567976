/**
 * The exact INT / LONG sum kernel (long-sum.ts): its unkeyed LONG loop sums 4096-row blocks
 * unchecked and re-adds a block row by row when its magnitudes reach 2^53 (a null, or large
 * values); its unkeyed INT loop sums runs unchecked; its keyed loops go four rows a step. Every
 * answer must be the exact 64-bit sum (wrapped as Java's long), compared here with BigInt — with
 * nulls, negatives, blocks of values near 2^53 between blocks of small ones, lengths that are not
 * multiples of 4 or of a block, all-null groups — and the same on one thread and split across
 * threads (an unkeyed `sum(l)` is now folded streamed, in any order of pieces).
 */
import t from 'tap'
import { LongSumKernel } from '../../../../lib/functions/aggregate/long-sum.js'
import { INT_NULL, LONG_NULL } from '../../../../lib/types/column-type.js'
import type { Vector } from '../../../../lib/types/vector.js'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLELISM } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'

const N = 150_003 // not a multiple of the 4096-row block, nor of 4

/** LONG row i (a safe integer) or null: small values, and every 5th block holds values near 2^53. */
function long(i: number): number | null {
  if (i % 101 === 7) return null
  const big = Math.floor(i / 4096) % 5 === 3
  const v = big ? 9007199254740991 - (i % 1000) * 1_000_003 : (i * 7919) % 100_000_000
  return i % 3 === 0 ? -v : v
}

const wrap = (b: bigint): bigint => BigInt.asIntN(64, b)
const show = (x: unknown): string => (x === null ? 'null' : String(x))

/** The LONG column of rows [0, n) as doubles (nulls as LONG_NULL), and the exact sums by `groups` ids. */
function longs(n: number, value: (i: number) => number | null, groups: number): { data: Float64Array; sums: (bigint | null)[] } {
  const data = new Float64Array(n)
  const sums: (bigint | null)[] = new Array(groups).fill(null)
  for (let i = 0; i < n; i++) {
    const x = value(i)
    data[i] = x ?? LONG_NULL
    if (x !== null) sums[i % groups] = (sums[i % groups] ?? 0n) + BigInt(x)
  }
  return { data, sums: sums.map((s) => (s === null ? null : wrap(s))) }
}

function vec(data: Float64Array | Int32Array, from: number, to: number): Vector {
  return (data instanceof Float64Array
    ? { kind: 'i64', type: 'LONG', length: to - from, data: data.subarray(from, to) }
    : { kind: 'i32', type: 'INT', length: to - from, data: data.subarray(from, to) }) as Vector
}

/** The kernel's sums after folding `data` in batches of `batch` rows, unkeyed (`groups` 1) or by `i % groups`. */
function fold(data: Float64Array | Int32Array, groups: number, batch: number): string[] {
  const k = new LongSumKernel()
  k.resize(groups)
  for (let lo = 0; lo < data.length; lo += batch) {
    const hi = Math.min(lo + batch, data.length)
    if (groups === 1) k.updateOne(0, [vec(data, lo, hi)], hi - lo)
    else k.update(Int32Array.from({ length: hi - lo }, (_, j) => (lo + j) % groups), [vec(data, lo, hi)], hi - lo)
  }
  const out = k.result(groups).data as Float64Array | BigInt64Array
  const isNull = (x: number | bigint): boolean => (typeof x === 'bigint' ? x === -9223372036854775808n : x === LONG_NULL)
  return Array.from({ length: groups }, (_, g) => (isNull(out[g]!) ? 'null' : String(out[g])))
}

t.test('LONG: unkeyed blocks and keyed loops give the exact sum', async (t) => {
  const { data, sums } = longs(N, long, 1)
  t.ok(sums[0]! > 2n ** 53n || sums[0]! < -(2n ** 53n), 'the total passes 2^53 (the carry runs)')
  for (const batch of [65_536, 4096, 4095, 7]) t.same(fold(data, 1, batch), sums.map(show), `unkeyed, batches of ${batch}`)
  const keyed = longs(N, long, 7)
  for (const batch of [65_536, 4095, 3]) t.same(fold(keyed.data, 7, batch), keyed.sums.map(show), `keyed, batches of ${batch}`)
})

t.test('LONG: a block without nulls whose magnitudes pass 2^53 is re-added exactly', async (t) => {
  // two values each just under 2^53 of one sign, then their negatives: the block's running sum would pass 2^53
  const { data, sums } = longs(4096 * 2 + 3, (i) => (i % 4 < 2 ? 9007199254740991 - i : -(9007199254740991 - i - 2)), 1)
  t.same(fold(data, 1, 65_536), sums.map(show))
  // 2^63 - 1 wraps as Java's long: 1024 values of 2^53 - 1 sum past 2^62
  const many = longs(1100, () => 9007199254740991, 1)
  t.same(fold(many.data, 1, 65_536), many.sums.map(show), 'past 2^62')
  const wrapped = longs(2000, () => 9007199254740991, 1)
  t.same(fold(wrapped.data, 1, 65_536), wrapped.sums.map(show), 'past 2^63: wrapped')
})

t.test('all-null and empty groups are null; a group of zeros is 0', async (t) => {
  t.same(fold(new Float64Array(5000).fill(LONG_NULL), 1, 65_536), ['null'])
  t.same(fold(new Int32Array(5000).fill(INT_NULL), 1, 65_536), ['null'])
  t.same(fold(new Float64Array(5000), 1, 65_536), ['0'])
  t.same(fold(new Int32Array(5000), 1, 65_536), ['0'])
  // keyed: group 1 of 2 only sees nulls
  const d = Float64Array.from({ length: 4001 }, (_, i) => (i % 2 === 1 ? LONG_NULL : i))
  t.same(fold(d, 2, 1000), [String((2000 * 2001)), 'null'])
  const n = Int32Array.from({ length: 4001 }, (_, i) => (i % 2 === 1 ? INT_NULL : -i))
  t.same(fold(n, 2, 1000), [String(-(2000 * 2001)), 'null'])
})

t.test('INT: unkeyed runs and keyed loops give the exact sum', async (t) => {
  const rows = 1_200_001 // past one 2^20-row run of the unkeyed loop
  const d = new Int32Array(rows)
  const sums = [0n, 0n, 0n]
  for (let i = 0; i < rows; i++) {
    const x = i % 53 === 1 ? INT_NULL : (i % 2 === 0 ? 2147483647 - i : -2147483647 + i)
    d[i] = x
    if (x !== INT_NULL) sums[i % 3]! += BigInt(x)
  }
  const all = sums[0]! + sums[1]! + sums[2]!
  t.same(fold(d, 1, 2_000_000), [String(all)], 'one batch over a run boundary')
  t.same(fold(d, 1, 65_536), [String(all)], 'batches')
  t.same(fold(d, 3, 65_535), sums.map(String), 'keyed')
  const big = new Int32Array(rows).fill(2147483647)
  t.same(fold(big, 1, 2_000_000), [String(BigInt(rows) * 2147483647n)], 'INT max, past 2^52 in one batch')
})

t.test('SQL: sum(l) / sum(i) one thread = split across threads (streamed pieces)', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 1000
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table d (k int, l long, i int)')
  const { data, sums } = longs(N, long, 1)
  const keyed = longs(N, long, 2)
  const i = Int32Array.from({ length: N }, (_, j) => (j % 13 === 0 ? INT_NULL : (j % 2 === 0 ? 2147483000 : -5) + j))
  let iSum = 0n
  for (const x of i) if (x !== INT_NULL) iSum += BigInt(x)
  await db.append('d', { k: Array.from({ length: N }, (_, j) => j % 2), l: Array.from(data, (x) => (x === LONG_NULL ? null : x)), i: Array.from(i, (x) => (x === INT_NULL ? null : x)) })
  for (const parallel of [false, true]) {
    PARALLELISM.enabled = parallel
    const runs = PARALLEL_STATS.runs
    const r = await db.query('select sum(l), sum(i), count(l) from d')
    t.same(r.rows[0]!.map(show), [show(sums[0]), String(iSum), String(N - Math.ceil((N - 7) / 101))], `unkeyed, parallel=${parallel}`)
    const g = await db.query('select k, sum(l) from d order by k')
    t.same(g.rows.map((row) => [row[0], show(row[1])]), [[0, show(keyed.sums[0])], [1, show(keyed.sums[1])]], `keyed, parallel=${parallel}`)
    if (parallel) t.ok(PARALLEL_STATS.runs > runs, 'the split ran')
    else t.equal(PARALLEL_STATS.runs, runs, 'one thread')
  }
})
