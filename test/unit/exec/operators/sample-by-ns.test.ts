import t from 'tap'
import { NsShift } from '../../../../lib/exec/operators/sample-by-ns.js'
import type { SamplerSpec } from '../../../../lib/exec/operators/sample-by-buckets.js'
import type { Vector } from '../../../../lib/types/vector.js'

const spec = (extra: Partial<SamplerSpec> = {}): SamplerSpec =>
  ({ unit: 'n', stride: 1, firstObservation: false, timeZone: undefined, offset: 0, from: undefined, ...extra })

/** A TIMESTAMP_NS vector of `values` (ascending). */
const nsVector = (values: bigint[]): Vector => ({ kind: 'i64', type: 'TIMESTAMP_NS', length: values.length, data: BigInt64Array.from(values), isConst: false })

/** A small deterministic generator (the test must not depend on Math.random's seed). */
function lcg(seed: number): () => number {
  let x = seed >>> 0
  return () => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x / 4294967296 }
}

const floorDiv = (a: bigint, b: bigint): bigint => { const q = a / b; return q * b > a ? q - 1n : q }

t.test('bucket numbers and starts are exact over the whole TIMESTAMP_NS range', async (t) => {
  const rnd = lcg(17)
  const strides = [1, 7, 70, 100, 999, 1000, 1001, 123457, 1_000_000_007, 3_600_000_000_000, 86_399_999_999_999]
  let checked = 0
  for (const stride of strides) {
    for (let round = 0; round < 6; round++) {
      // a first row anywhere from 1970 to 2194, then rows up to ~30 years (or 0.75 * 2^53 buckets) later, ascending,
      // so both the short and the long division paths run
      const first = BigInt(Math.floor(rnd() * 2 ** 31)) * 3_300_000_000n + BigInt(Math.floor(rnd() * 1e9))
      const span = BigInt(stride) * 2n ** 53n < 946_080_000_000_000_000n ? BigInt(stride) * 2n ** 53n : 946_080_000_000_000_000n
      const values = [first]
      for (let i = 1; i < 200; i++) values.push(values[i - 1]! + (i % 50 === 0 ? span / 4n : BigInt(Math.floor(rnd() * stride * 3))))
      const offset = round % 2 === 0 ? 0 : 45 * 60_000_000
      const shift = new NsShift({ stride, spec: spec({ offset }), from: null, to: null, fill: false })
      const k = shift.shifted(nsVector(values), values.length)
      const starts = shift.starts(k, values.length)
      const s = BigInt(stride), off = BigInt(offset) * 1000n
      const origin = floorDiv(first - off, s) * s + off
      let bad = ''
      for (let i = 0; i < values.length && bad === ''; i++) {
        const want = floorDiv(values[i]! - origin, s)
        const start = (starts as { data: BigInt64Array }).data[i]!
        if (BigInt(k[i]!) !== want) bad = `row ${i}: bucket ${k[i]} want ${want}`
        else if (start !== origin + want * s) bad = `row ${i}: start ${start} want ${origin + want * s}`
        else if (!(start <= values[i]! && values[i]! < start + s)) bad = `row ${i}: ${values[i]} not in its bucket`
      }
      t.equal(bad, '', `stride ${stride}n, round ${round}`)
      checked++
    }
  }
  t.equal(checked, strides.length * 6)
})

t.test('FROM fixes the origin; TO and FROM become bucket bounds', async (t) => {
  const shift = new NsShift({ stride: 100, spec: spec(), from: 1_609_513_200_000_000_050n, to: 1_609_513_200_000_000_450n, fill: true })
  const k = shift.shifted(nsVector([1_609_513_200_000_000_049n, 1_609_513_200_000_000_050n, 1_609_513_200_000_000_449n]), 3)
  t.same(Array.from(k), [-1, 0, 3])
  t.same(shift.bounds(), { lo: 0, hi: 4 }, 'TO 400 ns past FROM: buckets 0..3')
  const on = new NsShift({ stride: 100, spec: spec(), from: 1_609_513_200_000_000_050n, to: 1_609_513_200_000_000_451n, fill: true })
  on.shifted(nsVector([1_609_513_200_000_000_050n]), 1)
  t.same(on.bounds(), { lo: 0, hi: 5 }, 'a bucket starting before TO is in')
})

t.test('past 2^53 buckets: dense bucket numbers in time order without FILL, exact starts; FILL and rows out of order refused', async (t) => {
  const first = 1_609_513_200_000_000_123n
  for (const stride of [1, 3, 7, 100, 500]) {
    const s = BigInt(stride)
    const far = first + s * 2n ** 53n
    // rows around and past the point where bucket numbers stop being exact doubles, two batches
    const a = [first, first + 1n, first + s * 2n ** 52n, far - 1n, far, far + 1n]
    const b = [far + s, far + s + 1n, far + 5000n * s + 3n, far + 10n ** 12n, far + 10n ** 17n]
    const shift = new NsShift({ stride, spec: spec(), from: null, to: null, fill: false })
    const ka = shift.shifted(nsVector(a), a.length)
    const kb = shift.shifted(nsVector(b), b.length)
    const keys = [...ka, ...kb]
    const starts = [...(shift.starts(ka, a.length) as { data: BigInt64Array }).data, ...(shift.starts(kb, b.length) as { data: BigInt64Array }).data]
    const origin = (first / s) * s
    const all = [...a, ...b]
    let bad = ''
    for (let i = 0; i < all.length && bad === ''; i++) {
      const want = origin + ((all[i]! - origin) / s) * s
      if (starts[i] !== want) bad = `row ${i}: start ${starts[i]} want ${want}`
      else if (i > 0 && (starts[i] === starts[i - 1]) !== (keys[i] === keys[i - 1])) bad = `row ${i}: key ${keys[i]} vs ${keys[i - 1]}`
      else if (i > 0 && keys[i]! < keys[i - 1]!) bad = `row ${i}: keys go back`
    }
    t.equal(bad, '', `stride ${stride}n`)
  }
  const unordered = new NsShift({ stride: 1, spec: spec(), from: null, to: null, fill: false })
  t.throws(() => unordered.shifted(nsVector([0n, 2n ** 54n, 2n ** 54n - 5n]), 3), { code: '0A000', message: /time order/ })
  const fill = new NsShift({ stride: 1, spec: spec(), from: null, to: null, fill: true })
  t.throws(() => fill.shifted(nsVector([0n, 2n ** 54n]), 2), { code: '0A000', message: /FILL/ })
})
