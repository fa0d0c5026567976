/**
 * WITHIN's compiled prefixes (lib/functions/scalar/geohash-within.ts) against the plain rule, a
 * row is within when one prefix's bits equal its top bits: random values of several widths, INT
 * and exact-double storage, nulls, prefixes shorter and longer than the lookup table's 16 bits,
 * overlapping and nested prefixes, prefixes longer than the column.
 */
import t from 'tap'
import { compileWithin, type WithinPrefix, withinRows } from '../../../../lib/functions/scalar/geohash-within.js'

/** A small deterministic generator (xorshift32), so a failure repeats. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296 }
}

function reference(x: number, bits: number, prefixes: readonly WithinPrefix[]): number {
  if (x < 0) return 0
  return prefixes.some((p) => p.bits <= bits && Math.floor(x / 2 ** (bits - p.bits)) === Number(p.value)) ? 1 : 0
}

t.test('several prefixes give the rows the plain rule gives', async (t) => {
  const rand = rng(42)
  let cases = 0, bad = 0
  for (const bits of [5, 12, 20, 31, 40, 53]) {
    for (let round = 0; round < 12; round++) {
      const rows = 4000
      const d = bits <= 31 ? new Int32Array(rows) : new Float64Array(rows)
      const nullValue = bits <= 31 ? -2147483648 : -9223372036854775808
      // prefixes: 1 to 6, lengths 1..bits+3 (some longer than the column), values near each other so they overlap
      const count = 1 + Math.floor(rand() * 6)
      const prefixes: WithinPrefix[] = []
      const anchor = rand()
      for (let k = 0; k < count; k++) {
        const pbits = 1 + Math.floor(rand() * (bits + 3))
        const value = Math.min(2 ** pbits - 1, Math.floor((anchor + (rand() - 0.5) * 0.01) * 2 ** pbits))
        prefixes.push({ bits: pbits, value: Math.max(0, value) })
      }
      for (let i = 0; i < rows; i++) {
        const r = rand()
        if (r < 0.05) { d[i] = nullValue; continue }
        // half the rows near the prefixes, half anywhere
        const u = r < 0.5 ? anchor + (rand() - 0.5) * 0.02 : rand()
        d[i] = Math.min(2 ** bits - 1, Math.max(0, Math.floor(u * 2 ** bits)))
      }
      const o = new Uint8Array(rows)
      withinRows(d, rows, compileWithin(prefixes, bits), o)
      for (let i = 0; i < rows; i++) if (o[i] !== reference(d[i]!, bits, prefixes)) bad++
      cases++
    }
  }
  t.equal(bad, 0, `${cases} cases`)
})

t.test('the compiled form: one range, a table, buckets partly within', async (t) => {
  // #u3 and #u3x (nested) merge to one range: no table
  const one = compileWithin([{ bits: 10, value: 0b1101000011 }, { bits: 15, value: (0b1101000011 << 5) | 29 }], 40)
  t.equal(one.lo.length, 1)
  t.equal(one.table, undefined)
  // two 10-bit prefixes: a table of 10 bits, every bucket wholly in or out
  const two = compileWithin([{ bits: 10, value: 5 }, { bits: 10, value: 9 }], 40)
  t.equal(two.shift, 30)
  t.same([...two.table!].filter((e) => e !== 0), [1, 1])
  // a 20-bit prefix beside a 10-bit one: 16 table bits, the 20-bit prefix's bucket is partly within
  const part = compileWithin([{ bits: 10, value: 5 }, { bits: 20, value: 9 << 10 }], 40)
  t.equal(part.shift, 24)
  t.equal(part.table![(9 << 10) >> 4], 2)
  const o = new Uint8Array(3)
  withinRows(new Float64Array([(9 << 10) * 2 ** 20, ((9 << 10) + 1) * 2 ** 20, 5 * 2 ** 30 + 7]), 3, part, o)
  t.same([...o], [1, 0, 1])
  // prefixes longer than the column match nothing
  const none = compileWithin([{ bits: 25, value: 1 }], 20)
  const o2 = new Uint8Array(2)
  withinRows(new Int32Array([0, 1]), 2, none, o2)
  t.same([...o2], [0, 0])
})
