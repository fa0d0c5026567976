import t from 'tap'
import { Table, type TableMeta } from '../../../lib/storage/table.js'
import { getScalar, vectorOf, VectorWriter, type Vector } from '../../../lib/types/vector.js'

function meta(dedup: string[] = []): TableMeta {
  return {
    id: 1, name: 't', timestampIndex: 0, partitionBy: 'DAY', wal: true, dedupKeys: dedup, ttl: undefined,
    maxUncommittedRows: 1000, o3MaxLag: 0,
    columns: [
      { name: 'ts', type: 'TIMESTAMP', indexed: false, symbolCapacity: 256, symbolCached: true },
      { name: 's', type: 'SYMBOL', indexed: false, symbolCapacity: 256, symbolCached: true },
      { name: 'v', type: 'DOUBLE', indexed: false, symbolCapacity: 256, symbolCached: true },
    ],
  }
}

function rows(table: Table, ts: number[], s: (string | null)[], v: number[]): void {
  const sym = new VectorWriter('SYMBOL', s.length, table.dictOf(1))
  s.forEach((x, i) => sym.set(i, x))
  const vs: Vector[] = [vectorOf('TIMESTAMP', Float64Array.from(ts), ts.length), sym.finish(), vectorOf('DOUBLE', Float64Array.from(v), v.length)]
  table.append(vs, ts.length)
}

function dump(table: Table): unknown[][] {
  const snap = table.snapshot()
  const out: unknown[][] = []
  const all = table.meta.columns.map((_, i) => i)
  for (const p of snap.parts) {
    const r = p.open(all)
    const cols = all.map((k) => r.view(k, 0, p.rows))
    for (let i = 0; i < p.rows; i++) out.push(cols.map((c) => getScalar(c, i)))
  }
  return out
}

t.test('in-order appends keep insertion order', async (t) => {
  const table = new Table(meta())
  rows(table, [1, 2, 2], ['a', 'b', 'c'], [1, 2, 3])
  rows(table, [3], ['a'], [4])
  t.same(dump(table), [[1, 'a', 1], [2, 'b', 2], [2, 'c', 3], [3, 'a', 4]])
})

t.test('out-of-order rows are merged by timestamp, stable for equal timestamps', async (t) => {
  const table = new Table(meta())
  rows(table, [10, 20, 30], ['a', 'b', 'c'], [1, 2, 3])
  rows(table, [25, 5, 20], ['x', 'y', 'z'], [4, 5, 6])
  t.same(dump(table), [[5, 'y', 5], [10, 'a', 1], [20, 'b', 2], [20, 'z', 6], [25, 'x', 4], [30, 'c', 3]])
})

t.test('late rows merge into the middle: rows before them stay, equal timestamps keep arrival order', async (t) => {
  const table = new Table(meta())
  rows(table, [1, 2, 3, 4, 5, 6], ['a', 'b', 'c', 'd', 'e', 'f'], [1, 2, 3, 4, 5, 6])
  rows(table, [4, 7, 4, 3.5, 4], ['p', 'q', 'r', 's', 't'], [7, 8, 9, 10, 11])
  t.same(dump(table).map((r) => r[1]), ['a', 'b', 'c', 's', 'd', 'p', 'r', 't', 'e', 'f', 'q'])
})

t.test('a snapshot taken before a merge still reads the old rows', async (t) => {
  const table = new Table(meta())
  rows(table, [10, 20], ['a', 'b'], [1, 2])
  const snap = table.snapshot()
  rows(table, [5], ['c'], [3])
  rows(table, [30], ['d'], [4])
  const view = snap.parts[0]!.open([0]).view(0, 0, snap.rowCount)
  t.same([getScalar(view, 0), getScalar(view, 1)], [10, 20])
  t.equal(table.rowCount, 4)
})

t.test('late single rows wait and merge once: the next read sees them all, in order', async (t) => {
  const table = new Table(meta())
  rows(table, [100, 200, 300], ['a', 'b', 'c'], [1, 2, 3])
  const before = table.snapshot()
  // reverse order, then in order after the late ones, interleaved with equal timestamps
  for (let i = 0; i < 50; i++) rows(table, [99 - i], [`l${i}`], [10 + i])
  rows(table, [400], ['after'], [99])
  rows(table, [200], ['same'], [98])
  t.equal(table.rowCount, 55, 'rowCount counts waiting rows')
  t.equal(before.rowCount, 3, 'an older snapshot is untouched')
  const got = dump(table)
  t.equal(got.length, 55)
  t.same(got.slice(0, 2), [[50, 'l49', 59], [51, 'l48', 58]])
  t.same(got.slice(-5).map((r) => r[1]), ['a', 'b', 'same', 'c', 'after'], 'equal timestamps keep arrival order')
  t.same(got.map((r) => r[0]), [...got.map((r) => r[0] as number)].sort((a, b) => a - b), 'timestamp order')
  // once read, the table appends in order again without waiting
  rows(table, [500], ['x'], [1])
  t.equal(dump(table).at(-1)![1], 'x')
})

t.test('many late rows merge in batches; symbols keep their dictionary', async (t) => {
  const table = new Table(meta())
  const n = 10_000
  for (let i = 0; i < n; i++) rows(table, [n - i], [`s${i % 7}`], [i])
  const got = dump(table)
  t.equal(got.length, n)
  t.ok(got.every((r, i) => r[0] === i + 1 && r[1] === `s${(n - 1 - i) % 7}` && r[2] === n - 1 - i), 'every row, in order, with its symbol')
})

t.test('dedup upsert keys: a new row replaces the existing row with its key, in place', async (t) => {
  const table = new Table(meta(['ts', 's']))
  rows(table, [1, 1, 2], ['a', 'b', 'a'], [1, 2, 3])
  rows(table, [1, 2, 2], ['a', 'a', null], [10, 30, 40])
  t.same(dump(table), [[1, 'a', 10], [1, 'b', 2], [2, 'a', 30], [2, null, 40]])
})

t.test('dedup: existing duplicates (from before dedup) each take the new row', async (t) => {
  const table = new Table(meta())
  rows(table, [1, 1, 2], ['a', 'a', 'a'], [1, 2, 3])
  table.setMeta({ ...table.meta, dedupKeys: ['ts', 's'] })
  rows(table, [1], ['a'], [9])
  t.same(dump(table), [[1, 'a', 9], [1, 'a', 9], [2, 'a', 3]])
})

t.test('dedup: late rows appended before DEDUP was enabled (not merged yet) stay duplicates, each taking the new row', async (t) => {
  const table = new Table(meta())
  rows(table, [1, 2], ['a', 'a'], [1, 3])
  // out of order: an in-memory table keeps them for a later merge
  rows(table, [1], ['a'], [2])
  table.setMeta({ ...table.meta, dedupKeys: ['ts', 's'] })
  rows(table, [1], ['a'], [9])
  t.same(dump(table), [[1, 'a', 9], [1, 'a', 9], [2, 'a', 3]])
})

t.test('dedup: the string null and a null key are different keys', async (t) => {
  const table = new Table(meta(['ts', 's']))
  rows(table, [1, 1], ['null', null], [1, 2])
  rows(table, [1], [null], [5])
  t.same(dump(table), [[1, 'null', 1], [1, null, 5]])
})

t.test('dedup within one commit keeps the last duplicate', async (t) => {
  const table = new Table(meta(['ts', 's']))
  rows(table, [1, 1, 1], ['a', 'a', 'a'], [1, 2, 3])
  t.same(dump(table), [[1, 'a', 3]])
})
