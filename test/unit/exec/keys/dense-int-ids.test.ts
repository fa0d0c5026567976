import t from 'tap'
import { KeyIndex } from '../../../../lib/exec/keys/key-index.js'
import { DenseIntIds, MAX_SPAN } from '../../../../lib/exec/keys/dense-int-ids.js'
import { INT_NULL, LONG_NULL } from '../../../../lib/types/column-type.js'
import type { Vector } from '../../../../lib/types/vector.js'

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/** The ids the Map alone gives: first appearance order, nulls one key. */
function reference(batches: readonly number[][]): number[][] {
  const m = new Map<number, number>()
  return batches.map((b) => b.map((x) => { const k = x !== x ? LONG_NULL : x; let id = m.get(k); if (id === undefined) { id = m.size; m.set(k, id) } return id }))
}

const ints = (values: number[]): Vector => ({ kind: 'i32', type: 'INT', length: values.length, data: Int32Array.from(values) })
const shorts = (values: number[]): Vector => ({ kind: 'i16', type: 'SHORT', length: values.length, data: Int16Array.from(values) })
const longs = (values: number[]): Vector => ({ kind: 'i64', type: 'LONG', length: values.length, data: Float64Array.from(values) })

function idsOf(index: KeyIndex, batch: Vector): number[] {
  const out = new Int32Array(batch.length)
  index.assign([batch], batch.length, out)
  return [...out]
}

t.test('integer keys through the dense cache get the ids the Map alone gives', async (t) => {
  const shapes: Record<string, (r: () => number) => number> = {
    'compact, from 0': (r) => Math.floor(r() * 100),
    'compact, negative': (r) => -5000 + Math.floor(r() * 300),
    'growing up and down': (r) => Math.floor((r() - 0.5) * 200_000),
    'sparse (past the cache)': (r) => Math.floor(r() * 2 ** 31) * (r() < 0.5 ? -1 : 1),
    'compact with nulls': (r) => (r() < 0.05 ? INT_NULL : Math.floor(r() * 1000)),
  }
  for (const [name, gen] of Object.entries(shapes)) {
    for (let seed = 1; seed <= 4; seed++) {
      const r = random(seed * 7919 + name.length)
      const batches = Array.from({ length: 6 }, () => Array.from({ length: 1 + Math.floor(r() * 3000) }, () => gen(r)))
      const want = reference(batches)
      const index = new KeyIndex(1)
      const got = batches.map((b) => idsOf(index, ints(b)))
      t.same(got, want, `${name}, seed ${seed}`)
      t.equal(index.count, new Set(batches.flat()).size)
      // the values by id come back in order of first appearance, null as null
      const firsts = [...new Set(batches.flat())].map((x) => (x === INT_NULL ? null : x))
      t.same([...index.vector(0, { type: 'INT' }).data as Int32Array].map((x) => (x === INT_NULL ? null : x)), firsts)
    }
  }
})

t.test('LONG keys held as doubles: the dense cache and the Map agree, fractions never come from the table', async (t) => {
  const index = new KeyIndex(1)
  const a = [5, 7, 5, LONG_NULL, 2 ** 52, 6, 7]
  const b = [6, 5, NaN, 2 ** 52, 8, -3, -3]
  t.same([idsOf(index, longs(a)), idsOf(index, longs(b))], reference([a, b]))
  // a cache fed 0..9, then asked for 4.5 (not a key of an integer column, but the loop must not read slot 4.5)
  const d = new DenseIntIds()
  const m = new Map<number, number>()
  const slow = (x: number): number => { let id = m.get(x); if (id === undefined) { id = m.size; m.set(x, id) } return id }
  const out = new Int32Array(12)
  d.assign(Float64Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 10, out, 0, slow)
  d.assign(Float64Array.from([4.5, 4, 4.5]), 3, out, m.size, slow)
  t.same([...out.subarray(0, 3)], [10, 4, 10])
})

t.test('SHORT keys and INT keys share ids by value; the cache never covers more than its bound', async (t) => {
  const index = new KeyIndex(1)
  t.same(idsOf(index, shorts([3, -2, 3])), [0, 1, 0])
  t.same(idsOf(index, ints([-2, 3, 40000])), [1, 0, 2])
  const d = new DenseIntIds()
  const out = new Int32Array(2)
  let next = 0
  d.assign(Int32Array.from([0, MAX_SPAN * 4]), 2, out, 0, () => next++)
  t.ok(d.bytes <= MAX_SPAN * 4, `${d.bytes} bytes`)
  t.same([...out], [0, 1])
})
