import t from 'tap'
import { ColumnBuffer } from '../../../lib/storage/column-buffer.js'
import { firstAfter, minOf, timestampOrder } from '../../../lib/storage/merge-rows.js'
import { mergeOutOfOrder, mergeSegments, runOrder } from '../../../lib/storage/o3-merge.js'
import { getScalar, vectorOf, type I64Vector, type Vector } from '../../../lib/types/vector.js'
import type { ColumnType } from '../../../lib/types/column-type.js'
import { Database } from '../../../lib/index.js'

let seed = 99
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000 }

/** The merge as it was before o3-merge.ts (clone everything, sort the new rows, permute everything): the reference. */
function reference(cols: readonly ColumnBuffer[], existing: number, vectors: readonly Vector[], length: number, ts: number): ColumnBuffer[] {
  const merged = cols.map((b) => b.clone())
  for (let c = 0; c < merged.length; c++) merged[c]!.append(vectors[c]!)
  const total = existing + length
  const order = timestampOrder(merged[ts]!, firstAfter(merged[ts]!, existing, minOf(vectors[ts] as I64Vector, length), false), existing, total)
  return merged.map((b) => b.permuted(order, total))
}

const TYPES: ColumnType[] = ['TIMESTAMP', 'DOUBLE', 'SYMBOL', 'VARCHAR', 'LONG']

/** Rows of `cols` as JSON text, for comparing. */
function rowsOf(cols: readonly ColumnBuffer[], n: number): string[] {
  const views = cols.map((b) => b.view(0, n))
  return Array.from({ length: n }, (_, r) => JSON.stringify(views.map((v) => getScalar(v, r)), (_k, x: unknown) => typeof x === 'bigint' ? `${x}n` : x))
}

/** A table's in-memory columns holding `stamps` (in order) and values that tell rows apart. */
function table(stamps: readonly number[], tag: string, big: boolean): ColumnBuffer[] {
  const cols = TYPES.map((ty) => new ColumnBuffer(ty, 16))
  cols[0]!.append(vectors(stamps, tag, big, cols)[0]!)
  const v = vectors(stamps, tag, big, cols)
  for (let c = 1; c < cols.length; c++) cols[c]!.append(v[c]!)
  return cols
}

function vectors(stamps: readonly number[], tag: string, big: boolean, cols: readonly ColumnBuffer[]): Vector[] {
  const n = stamps.length
  const ts = big ? BigInt64Array.from(stamps, (x) => 1_700_000_000_000_000_000n + BigInt(x)) : Float64Array.from(stamps)
  const dict = cols[2]!.dict!
  return [
    vectorOf('TIMESTAMP', ts, n),
    vectorOf('DOUBLE', Float64Array.from(stamps, (_, i) => i + 0.5), n),
    vectorOf('SYMBOL', Int32Array.from(stamps, (_, i) => dict.intern(`${tag}${i % 3}`)), n, dict),
    vectorOf('VARCHAR', stamps.map((_, i) => `${tag}-${i}`), n),
    vectorOf('LONG', Float64Array.from(stamps, (_, i) => i), n),
  ]
}

t.test('runOrder: a stable ascending order, for sorted input, two interleaved runs, many runs, ties', async (t) => {
  const check = (xs: number[]): void => {
    const d = Float64Array.from([-1, ...xs])
    const got = [...runOrder(d, 1, xs.length)]
    const want = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]! || a - b)
    t.same(got, want, JSON.stringify(xs).slice(0, 80))
  }
  check([])
  check([5])
  check([1, 2, 3, 4])
  check([1, 3, 5, 7, 2, 4, 6, 8])
  check([3, 3, 1, 1, 2, 2])
  check([9, 8, 7, 6, 5, 4, 3, 2, 1])
  for (let k = 0; k < 50; k++) check(Array.from({ length: 1 + Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 40)))
})

t.test('mergeOutOfOrder gives what the full sort-and-permute merge gave, and leaves the old buffers alone', async (t) => {
  for (let round = 0; round < 60; round++) {
    const big = round % 3 === 0
    const existingN = Math.floor(rnd() * 300)
    const old = Array.from({ length: existingN }, () => Math.floor(rnd() * 1000)).sort((a, b) => a - b)
    // new rows: two interleaved in-order streams, or random, with ties against the old rows
    const m = 1 + Math.floor(rnd() * 200)
    const kind = round % 4
    const fresh = kind === 0 ? Array.from({ length: m }, () => Math.floor(rnd() * 1000))
      : kind === 1 ? [...Array.from({ length: m >> 1 }, (_, i) => 600 + 2 * i), ...Array.from({ length: m - (m >> 1) }, (_, i) => 601 + 2 * i)]
        : kind === 2 ? Array.from({ length: m }, (_, i) => 900 + (i >> 2)).concat(old.slice(-3)) : Array.from({ length: m }, () => old[Math.floor(rnd() * old.length)] ?? 5)
    const a = table(old, 'o', big)
    const b = table(old, 'o', big)
    const before = rowsOf(a, existingN)
    const va = vectors(fresh, 'n', big, a)
    const vb = vectors(fresh, 'n', big, b)
    const got = mergeOutOfOrder(a, existingN, va, fresh.length, 0)
    const want = reference(b, existingN, vb, fresh.length, 0)
    const n = existingN + fresh.length
    t.same(rowsOf(got, n), rowsOf(want, n), `round ${round} (kind ${kind}, ${existingN} + ${fresh.length} rows${big ? ', ns' : ''})`)
    t.same(rowsOf(a, existingN), before, 'the old version is unchanged')
  }
})

t.test('mergeSegments over rows held in pieces gives what the full merge gives over them in one buffer', async (t) => {
  for (let round = 0; round < 60; round++) {
    const big = round % 3 === 0
    const existingN = Math.floor(rnd() * 300)
    const old = Array.from({ length: existingN }, () => Math.floor(rnd() * 1000)).sort((a, b) => a - b)
    const m = 1 + Math.floor(rnd() * 200)
    const fresh = round % 2 === 0 ? Array.from({ length: m }, () => Math.floor(rnd() * 1000))
      : [...Array.from({ length: m >> 1 }, (_, i) => 600 + 2 * i), ...Array.from({ length: m - (m >> 1) }, (_, i) => 601 + 2 * i)]
    const whole = table(old, 'o', big)
    const want = reference(whole, existingN, vectors(fresh, 'n', big, whole), fresh.length, 0)
    // the same rows cut into pieces (some empty), every 4th round the SYMBOL pieces on another dictionary
    const cuts = [0, ...Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Math.floor(rnd() * (existingN + 1))).sort((a, b) => a - b), existingN]
    const foreign = round % 4 === 1
    const segments = cuts.slice(1).map((hi, k) => {
      const lo = cuts[k]!
      const vs = whole.map((b) => b.view(lo, hi))
      return { rows: hi - lo, column: (c: number) => (foreign && c === 2 ? symbolsOf(whole, lo, hi) : vs[c]!) }
    })
    const got = mergeSegments(whole, segments, vectors(fresh, 'n', big, whole), fresh.length, 0)
    const n = existingN + fresh.length
    t.same(rowsOf(got, n), rowsOf(want, n), `round ${round} (${existingN} rows in ${segments.length} pieces + ${fresh.length}${big ? ', ns' : ''}${foreign ? ', another dictionary' : ''})`)
  }
})

/** Rows [lo, hi) of `cols`' SYMBOL column re-keyed on a dictionary of their own. */
function symbolsOf(cols: readonly ColumnBuffer[], lo: number, hi: number): Vector {
  const src = cols[2]!.view(lo, hi)
  const own = new ColumnBuffer('SYMBOL', 16)
  const keys = Int32Array.from({ length: hi - lo }, (_, i) => own.dict!.intern(String(getScalar(src, i))))
  return vectorOf('SYMBOL', keys, hi - lo, own.dict)
}

t.test('SQL: two interleaved in-order streams into a durable-style table end up in order, each row once', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table s (ts timestamp, src symbol, v long) timestamp(ts) partition by day')
  // stream A at even µs, stream B at odd µs, batches alternating: every batch of B lands among A's rows
  for (let batch = 0; batch < 20; batch++) {
    for (const [src, off] of [['a', 0], ['b', 1]] as const) {
      const values = Array.from({ length: 50 }, (_, i) => `(${1_000_000 + 2 * (batch * 50 + i) + off}, '${src}', ${batch * 50 + i})`)
      await db.query(`insert into s values ${values.join(', ')}`)
    }
  }
  const r = await db.query('select count(), count_distinct(ts), min(ts), max(ts) from s')
  t.same(r.rows, [[2000n, 2000n, 1_000_000n, 1_001_999n]])
  const ordered = await db.query('select ts from s')
  const stamps = ordered.rows.map((x) => x[0] as bigint)
  t.ok(stamps.every((x, i) => i === 0 || x > stamps[i - 1]!), 'strictly ascending')
})
