/**
 * Unit tests of the window operator's pieces: partition ids and window order, frame bounds,
 * the sliding aggregates (checked against a brute-force evaluation on random data), ranking and
 * value picks; plus error positions through the public API.
 */
import t from 'tap'
import { VectorWriter, type Vector } from '../../../../lib/types/vector.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'
import type { BoundFrame } from '../../../../lib/plan/nodes/window.js'
import { partitionIds, windowOrder } from '../../../../lib/exec/operators/window-sort.js'
import { frameBounds } from '../../../../lib/exec/operators/window-frame.js'
import { frameExtremes, frameSums, toFloat64 } from '../../../../lib/exec/operators/window-aggregate.js'
import { DEFAULT_PICK, NULL_PICK, framePicks, gatherPicks, offsetPicks, ranking } from '../../../../lib/exec/operators/window-value.js'
import { Database } from '../../../../lib/index.js'

function vec(type: ColumnType, values: readonly (number | string | null)[]): Vector {
  const w = new VectorWriter(type, values.length)
  values.forEach((v, i) => w.set(i, v))
  return w.finish()
}

const asc = { expr: { kind: 'const' as const, type: 'INT' as const, value: 0 }, desc: false, nullsFirst: true }

t.test('partition ids are dense in first-seen order for symbols, numbers and composite keys', async (t) => {
  t.same(Array.from(partitionIds([vec('SYMBOL', ['b', 'a', 'b', null])], 4).ids), [0, 1, 0, 2])
  t.same(partitionIds([vec('INT', [7, null, 7, 3])], 4), { ids: Int32Array.from([0, 1, 0, 2]), count: 3 })
  t.same(Array.from(partitionIds([vec('INT', [1, 1, 2]), vec('STRING', ['x', 'y', 'x'])], 3).ids), [0, 1, 2])
  t.same(partitionIds([], 3), { ids: new Int32Array(3), count: 1 })
})

t.test('window order sorts by partition then key then input position, with peer groups', async (t) => {
  const { ids, count } = partitionIds([vec('SYMBOL', ['a', 'b', 'a', 'a', 'b'])], 5)
  const o = windowOrder(ids, count, [vec('INT', [3, 1, 1, 3, 1])], [asc], false)
  t.same(Array.from(o.rows), [2, 0, 3, 1, 4])
  t.same(Array.from(o.partStart), [0, 0, 0, 3, 3])
  t.same(Array.from(o.partEnd), [3, 3, 3, 5, 5])
  t.same(Array.from(o.peerStart), [0, 1, 1, 3, 3])
  t.same(Array.from(o.peerEnd), [1, 3, 3, 5, 5])
  // descending with nulls last
  const d = windowOrder(new Int32Array(3), 1, [vec('DOUBLE', [null, 2, 5])], [{ ...asc, desc: true, nullsFirst: false }], false)
  t.same(Array.from(d.rows), [2, 1, 0])
})

t.test('frame bounds: ROWS offsets clamp to the partition, RANGE follows the key', async (t) => {
  const o = windowOrder(new Int32Array(5), 1, [vec('TIMESTAMP', [0, 10, 20, 20, 50])], [asc], true)
  const rows = frameBounds(o, { units: 'rows', lo: -2, hi: -1 }, true, undefined, false)
  t.same(Array.from(rows.start), [0, 0, 0, 1, 2])
  t.same(Array.from(rows.end), [0, 1, 2, 3, 4])
  const key = toFloat64(vec('TIMESTAMP', [0, 10, 20, 20, 50]), 5)
  const range = frameBounds(o, { units: 'range', lo: -10, hi: 0 }, true, key, false)
  t.same(Array.from(range.start), [0, 0, 1, 1, 4])
  t.same(Array.from(range.end), [1, 2, 4, 4, 5])
  const peers = frameBounds(o, { units: 'range', lo: -Infinity, hi: 0 }, true, key, false)
  t.same(Array.from(peers.end), [1, 2, 4, 4, 5])
  const whole = frameBounds(o, { units: 'range', lo: -Infinity, hi: 0 }, false, undefined, false)
  t.same(Array.from(whole.end), [5, 5, 5, 5, 5])
})

t.test('frame bounds: a TIMESTAMP_NS key (microseconds + remainders) compares to the nanosecond', async (t) => {
  // 1.000001, 1.000003, 1.001002 µs as micros [1, 1, 2] + remainders [1, 3, 2]... in sorted order
  const o = windowOrder(new Int32Array(3), 1, [vec('LONG', [1001, 1003, 2002])], [asc], true)
  const micros = Float64Array.of(1, 1, 2), sub = Uint16Array.of(1, 3, 2)
  // 2 ns preceding: 1003 reaches 1001, 2002 reaches nothing else
  const two = frameBounds(o, { units: 'range', lo: -0.002, hi: 0 }, true, micros, false, sub)
  t.same(Array.from(two.start), [0, 0, 2])
  t.same(Array.from(two.end), [1, 2, 3])
  // 1001 ns preceding to 1 ns preceding: 2002 reaches 1001 and 1003
  const back = frameBounds(o, { units: 'range', lo: -1.001, hi: -0.001 }, true, micros, false, sub)
  t.same(Array.from(back.start), [0, 0, 0])
  t.same(Array.from(back.end), [0, 1, 2])
  // without remainders (a TIMESTAMP key) the fractions truncate: -0.002 is 0 µs
  const us = frameBounds(o, { units: 'range', lo: -0.002, hi: 0 }, true, micros, false)
  t.same(Array.from(us.start), [0, 0, 2])
  t.same(Array.from(us.end), [2, 2, 3])
})

/** A deterministic generator (xorshift), so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296 }
}

t.test('sliding sums, counts and min/max equal a brute-force evaluation of every frame', async (t) => {
  const rand = rng(42)
  const n = 400
  const parts = Array.from({ length: n }, () => Math.floor(rand() * 4))
  const ts: number[] = []
  for (let i = 0, x = 0; i < n; i++) { x += Math.floor(rand() * 5); ts.push(x) }
  const vals = Array.from({ length: n }, () => (rand() < 0.2 ? null : Math.round(rand() * 2000 - 1000) / 8))
  const { ids, count } = partitionIds([vec('INT', parts)], n)
  const o = windowOrder(ids, count, [vec('TIMESTAMP', ts)], [asc], true)
  const x = toFloat64(vec('DOUBLE', vals), n)
  const key = toFloat64(vec('TIMESTAMP', ts), n)
  const frames: BoundFrame[] = [
    { units: 'rows', lo: -Infinity, hi: 0 }, { units: 'rows', lo: -3, hi: 0 }, { units: 'rows', lo: -5, hi: -2 },
    { units: 'rows', lo: -Infinity, hi: Infinity }, { units: 'range', lo: -Infinity, hi: 0 }, { units: 'range', lo: -7, hi: 0 },
    { units: 'range', lo: -12, hi: -3 }, { units: 'rows', lo: 0, hi: 0 },
  ]
  for (const frame of frames) {
    const f = frameBounds(o, frame, true, key, false)
    const sum = frameSums(o, f, x, 'sum')
    const cnt = frameSums(o, f, x, 'count')
    const max = frameExtremes(o, f, x, true)
    const min = frameExtremes(o, f, x, false)
    let bad = 0
    for (let p = 0; p < n; p++) {
      const row = o.rows[p]!
      // brute force: every row of the same partition whose position/key is inside the frame
      const inFrame: number[] = []
      for (let q = o.partStart[p]!; q < o.partEnd[p]!; q++) {
        const d = frame.units === 'rows' ? q - p : key[o.rows[q]!]! - key[row]!
        const hiOk = frame.units === 'range' && frame.hi === 0 ? key[o.rows[q]!]! <= key[row]! : d <= frame.hi
        if (d >= frame.lo && hiOk) { const v = x[o.rows[q]!]!; if (v === v) inFrame.push(v) }
      }
      const s = inFrame.length === 0 ? NaN : inFrame.reduce((a, b) => a + b, 0)
      const same = (a: number, b: number) => (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) < 1e-6
      if (!same(sum[row]!, s) || cnt[row] !== inFrame.length ||
        !same(max[row]!, inFrame.length === 0 ? NaN : Math.max(...inFrame)) ||
        !same(min[row]!, inFrame.length === 0 ? NaN : Math.min(...inFrame))) bad++
    }
    t.equal(bad, 0, `${frame.units} ${frame.lo}..${frame.hi}`)
  }
})

t.test('ranking functions and ntile bucket sizes', async (t) => {
  const o = windowOrder(new Int32Array(5), 1, [vec('INT', [1, 2, 2, 3, 4])], [asc], false)
  t.same(Array.from(ranking(o, 'row_number', 0)), [1, 2, 3, 4, 5])
  t.same(Array.from(ranking(o, 'rank', 0)), [1, 2, 2, 4, 5])
  t.same(Array.from(ranking(o, 'dense_rank', 0)), [1, 2, 2, 3, 4])
  t.same(Array.from(ranking(o, 'percent_rank', 0)), [0, 0.25, 0.25, 0.75, 1])
  t.same(Array.from(ranking(o, 'cume_dist', 0)), [0.2, 0.6, 0.6, 0.8, 1])
  t.same(Array.from(ranking(o, 'ntile', 3)), [1, 1, 2, 2, 3])
  t.same(Array.from(ranking(o, 'ntile', 7)), [1, 2, 3, 4, 5])
})

t.test('lag/lead picks, with IGNORE NULLS, and gathering with a default', async (t) => {
  const o = windowOrder(new Int32Array(5), 1, [], [], false)
  const nulls = Uint8Array.from([0, 1, 0, 1, 0])
  t.same(Array.from(offsetPicks(o, 1, true, undefined)), [DEFAULT_PICK, 0, 1, 2, 3])
  t.same(Array.from(offsetPicks(o, 2, false, undefined)), [2, 3, 4, DEFAULT_PICK, DEFAULT_PICK])
  t.same(Array.from(offsetPicks(o, 1, true, nulls)), [DEFAULT_PICK, 0, 0, 2, 2])
  t.same(Array.from(offsetPicks(o, 1, false, nulls)), [2, 2, 4, 4, DEFAULT_PICK])
  const v = vec('STRING', ['a', null, 'c', null, 'e'])
  const out = gatherPicks(v, Int32Array.from([4, NULL_PICK, DEFAULT_PICK, 0, 2]), vec('STRING', ['x', 'y', 'z', 'w', 'q']))
  t.same(out.data, ['e', null, 'z', 'a', 'c'])
  const longs = gatherPicks(vec('LONG', [5, 6]), Int32Array.from([1, DEFAULT_PICK]), undefined)
  t.same(Array.from(longs.data as Float64Array), [6, -9223372036854775808])
  const f = frameBounds(o, { units: 'rows', lo: -1, hi: 0 }, false, undefined, false)
  t.same(Array.from(framePicks(o, f, 'first_value', 0, nulls)), [0, 0, 2, 2, 4])
  t.same(Array.from(framePicks(o, f, 'last_value', 0, nulls)), [0, 0, 2, 2, 4])
  t.same(Array.from(framePicks(o, f, 'nth_value', 2, undefined)), [NULL_PICK, 1, 2, 3, 4])
})

t.test('errors carry the position of the offending token', async (t) => {
  const db = await Database.open()
  await db.query('CREATE TABLE t (ts TIMESTAMP, x INT) TIMESTAMP(ts)')
  const pos = async (sql: string) => { try { await db.query(sql); return undefined } catch (e) { return (e as { position?: number }).position } }
  // the offset (QuestDB points at its FOLLOWING keyword, which the AST does not keep)
  t.equal(await pos('SELECT sum(x) OVER (ORDER BY ts ROWS BETWEEN 10 FOLLOWING AND 20 FOLLOWING) FROM t'), 45)
  t.equal(await pos('SELECT sum(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t'), 29)
  t.equal(await pos('SELECT x, row_number() OVER (ORDER BY ts) FROM t WHERE x = 1 AND ntile(0) OVER () = 1'), 65)
  t.equal(await pos('SELECT ntile(0) OVER (ORDER BY ts) FROM t'), 13)
  t.equal(await pos('SELECT sum(x) OVER nope FROM t'), 14)
})

t.test('over more rows than one slice, expressions, conversions and picks are computed slice by slice with the same results', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const n = 150_000
  await db.query(`create table w as (select x, case when x % 7 = 0 then null else 'r' || x end s, cast('k' || (x % 5) as symbol) y, case when x % 3 = 0 then null else cast(x as double) end v from long_sequence(${n}))`)
  const s = (x: number): string | null => x % 7 === 0 ? null : `r${x}`
  const v = (x: number): number | null => x % 3 === 0 ? null : x
  const r = await db.query(`select x, lag(s, 1, 'none') over (order by x), lag(y) over (order by x), count(v) over (order by x rows between 2 preceding and current row),
    sum(v) over (partition by concat('p', x % 3) order by x), min(x) over (partition by x % 2 order by x desc rows between 1 preceding and current row) from w order by x`)
  t.equal(r.rows.length, n)
  let bad = 0
  const sums = [0, 0, 0]
  for (let x = 1; x <= n; x++) {
    const row = r.rows[x - 1]!.map((c) => typeof c === 'bigint' ? Number(c) : c)
    sums[x % 3]! += v(x) ?? 0
    let count = 0
    for (let k = Math.max(1, x - 2); k <= x; k++) if (v(k) !== null) count++
    const want = [x, x === 1 ? 'none' : s(x - 1), x === 1 ? null : `k${(x - 1) % 5}`, count, x % 3 === 0 ? null : sums[x % 3], x]
    if (JSON.stringify(row) !== JSON.stringify(want) && bad++ < 3) t.fail(`row ${x}: ${JSON.stringify(row)}, wanted ${JSON.stringify(want)}`)
  }
  t.equal(bad, 0, `all ${n} rows as computed by hand`)
})
