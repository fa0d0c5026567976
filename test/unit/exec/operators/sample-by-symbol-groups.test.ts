import t from 'tap'
import { BucketTable, makeSampler, type SamplerSpec } from '../../../../lib/exec/operators/sample-by-buckets.js'
import { GroupTable } from '../../../../lib/exec/operators/sample-by-keys.js'
import { KeyIndex } from '../../../../lib/exec/keys/key-index.js'
import { SymbolTable, type SymVector, vectorOf } from '../../../../lib/types/vector.js'
import { Database } from '../../../../lib/index.js'

// GroupTable.assignSymbolRows (one pass: bucket, symbol key id, group) must give exactly what the
// three passes give (BucketTable.assign, KeyIndex.assign, GroupTable.assign), batch after batch.

const HOUR = 3_600_000_000
const spec: SamplerSpec = { unit: 'h', stride: 1, firstObservation: false, timeZone: undefined, offset: 0, from: undefined }

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

interface Case { ts: Float64Array; syms: Int32Array; dicts: SymbolTable[]; batches: [number, number, number][] }

/** Rows over `hours` hours, keys among `keys` symbols (some null), out of order when `shuffle`, in batches of up to `batch` rows over one of two dictionaries. */
function makeCase(seed: number, rows: number, keys: number, shuffle: number, batch: number): Case {
  const r = rng(seed)
  const ts = new Float64Array(rows)
  const syms = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    ts[i] = 1_451_606_400_000_000 + Math.floor((i / rows) * 6 * HOUR)
    if (r() < shuffle) ts[i] = 1_451_606_400_000_000 + Math.floor(r() * 6 * HOUR)
    syms[i] = r() < 0.05 ? -1 : Math.floor(r() * keys)
  }
  // two dictionaries with the same values in different key orders (values unify by text)
  const a = new SymbolTable()
  const b = new SymbolTable()
  for (let k = 0; k < keys; k++) { a.intern(`host_${k}`); b.intern(`host_${keys - 1 - k}`) }
  const batches: [number, number, number][] = []
  for (let s = 0; s < rows;) {
    const e = Math.min(rows, s + 1 + Math.floor(r() * batch))
    batches.push([s, e, r() < 0.3 ? 1 : 0])
    s = e
  }
  // in dictionary b, key k stands for host_{keys-1-k}
  for (const [s, e, d] of batches) if (d === 1) for (let i = s; i < e; i++) if (syms[i]! >= 0) syms[i] = keys - 1 - syms[i]!
  return { ts, syms, dicts: [a, b], batches }
}

function run(c: Case, onePass: boolean): { groups: number[]; bucketOf: number[]; keyOf: number[]; keys: unknown[]; starts: number[]; ordered: boolean } {
  const buckets = new BucketTable(makeSampler(spec, c.ts[0]!))
  const index = new KeyIndex(1)
  const pairs = new GroupTable()
  const groups: number[] = []
  for (const [s, e, d] of c.batches) {
    const n = e - s
    const ts = c.ts.subarray(s, e)
    const syms = c.syms.subarray(s, e)
    const out = new Int32Array(n)
    if (onePass) {
      if (!pairs.assignSymbolRows(ts, syms, c.dicts[d]!, n, buckets, index, out)) throw new Error('one pass refused a one-symbol index')
    } else {
      const b = new Int32Array(n)
      const k = new Int32Array(n)
      buckets.assign(ts, n, b)
      index.assign([vectorOf('SYMBOL', syms, n, c.dicts[d])], n, k)
      pairs.assign(b, k, n, out)
    }
    groups.push(...out)
  }
  const vec = index.vector(0, { type: 'SYMBOL', dict: new SymbolTable() }) as SymVector
  const keys = Array.from({ length: index.count }, (_, i) => (vec.data as Int32Array)[i]! < 0 ? null : vec.dict.values[(vec.data as Int32Array)[i]!])
  return { groups, bucketOf: [...pairs.bucketOf.subarray(0, pairs.count)], keyOf: [...pairs.keyOf.subarray(0, pairs.count)], keys, starts: buckets.starts, ordered: buckets.ordered }
}

t.test('one pass gives the three passes\' groups, buckets and key ids', async (t) => {
  for (const [seed, rows, keys, shuffle, batch] of [[1, 5000, 100, 0, 700], [2, 5000, 7, 0, 50], [3, 4000, 300, 0.01, 900], [4, 3000, 20, 0.5, 200], [5, 2000, 1, 0, 2000], [6, 6000, 2000, 0.001, 4096]] as const) {
    const c = makeCase(seed, rows, keys, shuffle, batch)
    const a = run(c, false)
    const b = run(c, true)
    t.same(b, a, `seed ${seed}: ${rows} rows, ${keys} keys, ${shuffle} out of order (${a.ordered ? 'ordered' : 'unordered'})`)
  }
})

t.test('one pass declines an index that is not one text key', async (t) => {
  const index = new KeyIndex(1)
  index.assign([vectorOf('LONG', new Float64Array([1, 2]), 2)], 2, new Int32Array(2))
  const dict = new SymbolTable()
  dict.intern('a')
  const pairs = new GroupTable()
  t.equal(pairs.assignSymbolRows(new Float64Array([0]), new Int32Array([0]), dict, 1, new BucketTable(makeSampler(spec, 0)), index, new Int32Array(1)), false)
  t.equal(pairs.count, 0, 'nothing assigned')
  t.equal(new GroupTable().assignSymbolRows(new Float64Array([0]), new Int32Array([0]), dict, 1, new BucketTable(makeSampler(spec, 0)), new KeyIndex(2), new Int32Array(1)), false, 'two keys')
})

t.test('SAMPLE BY over (hour, symbol) answers as GROUP BY does, ordered and not', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query("CREATE TABLE m (host SYMBOL, v DOUBLE, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY")
  const r = rng(9)
  const values: string[] = []
  for (let i = 0; i < 3000; i++) {
    const h = r() < 0.05 ? 'NULL' : `'h${Math.floor(r() * 40)}'`
    values.push(`(${h}, ${(r() * 100).toFixed(3)}, ${1_451_606_400_000_000 + Math.floor(r() * 30 * HOUR)})`)
  }
  for (let i = 0; i < values.length; i += 500) await db.query(`INSERT INTO m VALUES ${values.slice(i, i + 500).join(', ')}`)
  const sample = await db.query('SELECT ts, host, avg(v), count() FROM m SAMPLE BY 1h ORDER BY ts, host')
  const group = await db.query("SELECT timestamp_floor('h', ts) ts, host, avg(v), count() FROM m GROUP BY 1, 2 ORDER BY 1, 2")
  t.ok(sample.rows.length > 30 * 30, `${sample.rows.length} groups`)
  t.same(sample.rows, group.rows)
})
