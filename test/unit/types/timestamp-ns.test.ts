import t from 'tap'
import { formatTimestampNs, joinNs, nsParts, parseTimestampNs, parseTimestampNsPeriod, splitNs } from '../../../lib/types/timestamp-ns.js'
import { canCastNs, canImplicitlyCastNs, nsCommonType } from '../../../lib/types/timestamp-ns-rules.js'
import { castNsVector } from '../../../lib/types/timestamp-ns-cast.js'
import { parseTypeName, physicalOf } from '../../../lib/types/column-type.js'
import { castScalar } from '../../../lib/types/cast.js'
import { getScalar, type I64Vector } from '../../../lib/types/vector.js'
import { compareNs, addNs } from '../../../lib/functions/scalar/timestamp-ns-kernels.js'
import { SqlError } from '../../../lib/errors.js'

const NULL = -9223372036854775808n

t.test('type name and layout', async (t) => {
  t.equal(parseTypeName('timestamp_ns'), 'TIMESTAMP_NS')
  t.equal(parseTypeName('TIMESTAMP_NS'), 'TIMESTAMP_NS')
  t.equal(physicalOf('TIMESTAMP_NS'), 'i64')
  t.equal(nsCommonType('TIMESTAMP', 'TIMESTAMP_NS'), 'TIMESTAMP_NS')
  t.equal(nsCommonType('TIMESTAMP_NS', 'LONG'), 'TIMESTAMP_NS')
  t.ok(canCastNs('TIMESTAMP_NS', 'DATE'))
  t.notOk(canCastNs('TIMESTAMP_NS', 'UUID'))
  t.ok(canImplicitlyCastNs('TIMESTAMP', 'TIMESTAMP_NS'))
  t.notOk(canImplicitlyCastNs('DOUBLE', 'TIMESTAMP_NS'))
})

t.test('literals: nine digits exactly, fewer padded, offsets applied', async (t) => {
  t.equal(parseTimestampNs('2024-01-01T00:00:00.123456789Z'), 1704067200123456789n)
  t.equal(parseTimestampNs('2024-01-01T00:00:00.1Z'), 1704067200100000000n)
  t.equal(parseTimestampNs('2024-01-01T01:00:00.000000001+01:00'), 1704067200000000001n)
  t.equal(parseTimestampNs('1970-01-01T00:00:00.000000123Z'), 123)
  t.equal(parseTimestampNs('2024-01-01T00:00:00.1234567890Z'), null, 'ten digits are not a timestamp')
  t.equal(formatTimestampNs(1704067200123456789n), '2024-01-01T00:00:00.123456789Z')
  t.equal(formatTimestampNs(-1), '1969-12-31T23:59:59.999999999Z')
  t.same(parseTimestampNsPeriod('2024-01-01'), { lo: 1704067200000000000n, hi: 1704153599999999999n })
  t.same(parseTimestampNsPeriod('2024-01-01T00:00:00.0000001'), { lo: 1704067200000000100n, hi: 1704067200000000199n })
})

// exact while the microseconds are safe integers: |ns| < 2^53 * 1000 (to the year 2255)
t.test('split and join through 32-bit halves match BigInt arithmetic', async (t) => {
  const values = [0n, 1n, -1n, 999n, 1000n, -1000n, -1001n, 1704067200123456789n, -1704067200123456789n, 9007199254740991999n, -9007199254740991999n, 4294967296000n - 1n, 4294967295999n, NULL]
  let seed = 7
  for (let k = 0; k < 500; k++) { seed = (seed * 1103515245 + 12345) % 2147483648; values.push(BigInt(seed) * BigInt(seed) - 2000000000000000000n) }
  const v: I64Vector = { kind: 'i64', type: 'TIMESTAMP_NS', length: values.length, data: BigInt64Array.from(values) }
  const { micros, sub } = splitNs(v, values.length)
  let bad = 0
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!
    if (x === NULL) { if (micros[i] !== -9223372036854775808) bad++; continue }
    let q = x / 1000n; if (q * 1000n > x) q -= 1n
    if (BigInt(micros[i]!) !== q || BigInt(sub[i]!) !== x - q * 1000n) bad++
  }
  t.equal(bad, 0, 'floor division and remainder exact for every value')
  const back = joinNs(micros, sub, values.length)
  t.same(Array.from(back.data as BigInt64Array), values, 'joining the parts gives the values back')
  t.same(nsParts(-1n), { micros: -1, sub: 999 })
})

t.test('casts', async (t) => {
  t.equal(castScalar(1578506142000000, 'LONG', 'TIMESTAMP_NS'), 1578506142000000)
  t.equal(castScalar(1704067200000001, 'TIMESTAMP', 'TIMESTAMP_NS'), 1704067200000001000n)
  t.equal(castScalar(1704067200123456789n, 'TIMESTAMP_NS', 'TIMESTAMP'), 1704067200123456)
  t.equal(castScalar(1704067200123456789n, 'TIMESTAMP_NS', 'DATE'), 1704067200123)
  t.equal(castScalar(1704067200123, 'DATE', 'TIMESTAMP_NS'), 1704067200123000000n)
  t.equal(castScalar(1704067200123456789n, 'TIMESTAMP_NS', 'STRING'), '2024-01-01T00:00:00.123456789Z')
  const e = t.throws(() => castScalar(9223372036854776n, 'TIMESTAMP', 'TIMESTAMP_NS', 'throw', 4)) as SqlError
  t.equal(e.code, '22003'); t.equal(e.position, 4)
  const e2 = t.throws(() => castScalar('nope', 'STRING', 'TIMESTAMP_NS', 'throw', 9)) as SqlError
  t.equal(e2.code, '22P02'); t.equal(e2.position, 9)
  const us: I64Vector = { kind: 'i64', type: 'TIMESTAMP', length: 2, data: Float64Array.of(1704067200000001, -9223372036854775808) }
  const ns = castNsVector(us, 'TIMESTAMP_NS')!
  t.equal(getScalar(ns, 0), 1704067200000001000n)
  t.equal(getScalar(ns, 1), null)
})

t.test('comparison and addition on halves', async (t) => {
  const a: I64Vector = { kind: 'i64', type: 'TIMESTAMP_NS', length: 4, data: BigInt64Array.of(1704067200123456789n, 1704067200123456790n, NULL, -5n) }
  const c: I64Vector = { kind: 'i64', type: 'TIMESTAMP_NS', length: 4, isConst: true, data: BigInt64Array.of(1704067200123456790n) }
  t.same(Array.from(compareNs('lt', a, c, 4).data), [1, 0, 0, 1])
  t.same(Array.from(compareNs('eq', a, c, 4).data), [0, 1, 0, 0])
  const one: I64Vector = { kind: 'i64', type: 'LONG', length: 4, isConst: true, data: Float64Array.of(-4294967297) }
  const sum = addNs(a, one, 1, 4, 'TIMESTAMP_NS')
  t.same(Array.from(sum.data as BigInt64Array), [1704067200123456789n - 4294967297n, 1704067200123456790n - 4294967297n, NULL, -5n - 4294967297n])
  const diff = addNs(a, a, -1, 4, 'LONG')
  t.same([0, 1, 3].map((i) => getScalar(diff, i)), [0, 0, 0])
  t.equal(getScalar(diff, 2), null)
})

t.test('TIMESTAMP_NS vectors to TIMESTAMP and DATE divide toward zero, as the scalar casts do', async (t) => {
  const values = [-2_000_000, -1_500, -1, 0, 999, 1_500_000, 1_000_001, -1_000_001]
  for (const data of [Float64Array.from(values), BigInt64Array.from(values.map(BigInt))]) {
    const v = { kind: 'i64', type: 'TIMESTAMP_NS', length: values.length, data } as I64Vector
    const us = castNsVector(v, 'TIMESTAMP')!, ms = castNsVector(v, 'DATE')!
    t.same(values.map((_, i) => Number(getScalar(us, i))), values.map((x) => Number(castScalar(x, 'TIMESTAMP_NS', 'TIMESTAMP'))), `${data.constructor.name} to TIMESTAMP`)
    t.same(values.map((_, i) => Number(getScalar(ms, i))), [-2, 0, 0, 0, 0, 1, 1, -1], `${data.constructor.name} to DATE`)
  }
  t.same(values.map((x) => Number(castScalar(x, 'TIMESTAMP_NS', 'DATE'))), [-2, 0, 0, 0, 0, 1, 1, -1], 'scalar DATE')
  t.same(values.map((x) => Number(castScalar(x, 'TIMESTAMP_NS', 'TIMESTAMP'))), [-2000, -1, 0, 0, 0, 1500, 1000, -1000], 'scalar TIMESTAMP (-1 ns is 0 µs, as QuestDB)')
})
