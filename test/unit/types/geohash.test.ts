import t from 'tap'
import { formatGeohash, geohashBits, geohashFromText, geohashOfPoint, geohashStorageBytes, geohashType, narrowGeohash, parseGeohashLiteral, parseGeohashTypeName } from '../../../lib/types/geohash.js'
import { RND_FUNCTIONS } from '../../../lib/functions/rnd/index.js'
import type { ScalarFunctionDef } from '../../../lib/functions/registry-types.js'
import { site, testContext } from '../functions/rnd/test-context.js'

t.test('type tags: chars when the bits are a multiple of 5, QuestDB storage widths', async (t) => {
  t.equal(geohashType(30), 'GEOHASH(6c)')
  t.equal(geohashType(29), 'GEOHASH(29b)')
  t.equal(parseGeohashTypeName('GeOhAsH(50b)'), 'GEOHASH(10c)')
  t.equal(geohashBits('GEOHASH(12c)'), 60)
  t.equal(parseGeohashTypeName('int'), undefined)
  t.throws(() => parseGeohashTypeName('geohash(61b)', 3), { name: 'SqlError', position: 3, message: /provided=61/ })
  // a bit is kept for the null: 8 bits need a short
  t.same([1, 7, 8, 15, 16, 31, 32, 60].map(geohashStorageBytes), [1, 1, 2, 2, 4, 4, 8, 8])
})

t.test('text: leading bits kept, too short or invalid reported, printing', async (t) => {
  t.equal(geohashFromText('u33d8', 20), geohashFromText('u33d', 20))
  t.equal(geohashFromText('sp', 15), 'too-short')
  t.equal(geohashFromText('sa', 10), 'invalid')
  t.equal(geohashFromText('', 10), null)
  t.equal(formatGeohash(geohashFromText('U33D8B121234', 60) as bigint, 60), 'u33d8b121234', 'case-insensitive, exact past 2^53')
  t.equal(formatGeohash(geohashFromText('u33d8b121234', 59) as bigint, 59), '11010000110001101100010000101000001000100000100010000110010', '59 bits')
  t.equal(formatGeohash(geohashFromText('u33d8b1212', 50) as number, 50), 'u33d8b1212', '50 bits without BigInt')
  t.equal(formatGeohash(geohashFromText('u33d8b1212', 47) as number, 47), '11010000110001101100010000101000001000100000100', '47 bits')
  t.equal(formatGeohash(0b01011, 5), 'c')
  t.equal(formatGeohash(0b0101, 4), '0101')
  t.equal(narrowGeohash(geohashFromText('u33d', 20) as number, 20, 10), geohashFromText('u3', 10))
})

t.test('literals', async (t) => {
  t.same(parseGeohashLiteral('#u33d/18', 0), { type: 'GEOHASH(18b)', value: (geohashFromText('u33d', 20) as number) >>> 2 })
  t.same(parseGeohashLiteral('##0101', 0), { type: 'GEOHASH(4b)', value: 5 })
  t.throws(() => parseGeohashLiteral('#u33d8b1212345', 7), { name: 'SqlError', position: 7 })
  t.throws(() => parseGeohashLiteral('#u3/11', 0), /invalid bits size/)
})

t.test('a point: the docs example and the bounds', async (t) => {
  t.equal(formatGeohash(geohashOfPoint(142.89124148, -12.90604153, 40)!, 40), 'rjtwedd0')
  t.equal(geohashOfPoint(181, 0, 5), undefined)
  // a NaN coordinate is QuestDB's (long) NaN, 0: longitude 0 is the middle (1, 0, 0), the latitude's bits are 0
  t.equal(geohashOfPoint(0, Number.NaN, 5), 0b10000)
  t.equal(geohashOfPoint(Number.NaN, Number.NaN, 60), 0)
  t.equal(geohashOfPoint(Number.NaN, 91, 5), undefined)
})

t.test("rnd_geohash draws QuestDB's values (testCreateAsSelectGeoHashBitsPrecision)", async (t) => {
  const d = RND_FUNCTIONS.find((f) => f.name === 'rnd_geohash') as ScalarFunctionDef
  const ctx = testContext()
  const a = d.init!(site(['INT'], [11]), ctx), b = d.init!(site(['INT'], [11]), ctx)
  const rows: string[] = []
  for (let i = 0; i < 8; i++) rows.push(formatGeohash(d.row!([], ctx, a) as number, 11) + ' ' + formatGeohash(d.row!([], ctx, b) as number, 11))
  t.same(rows, [
    '01001110110 00100001101', '10001101001 11111011101', '10000101010 11100100000', '11000000101 00001010111',
    '10011100111 00111000010', '01110110001 10110001001', '11010111111 10001100010', '10010110001 01010110101',
  ])
})

t.test('random values of every precision: text, narrowing and storage agree with a BigInt reference', async (t) => {
  const { decodeFixed, encodeFixed } = await import('../../../lib/storage/durable/column-codec.js')
  const { getScalar, VectorWriter } = await import('../../../lib/types/vector.js')
  let seed = 12345
  const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
  const B32 = '0123456789bcdefghjkmnpqrstuvwxyz'
  let bad = 0
  for (let bits = 1; bits <= 60; bits++) {
    const type = geohashType(bits)
    const values: (number | bigint)[] = []
    for (let k = 0; k < 20; k++) {
      let big = 0n
      for (let b = 0; b < bits; b++) big = (big << 1n) | (rnd() < 0.5 ? 1n : 0n)
      const v = big <= 9007199254740991n ? Number(big) : big
      values.push(v)
      const ref = bits % 5 === 0
        ? Array.from({ length: bits / 5 }, (_, i) => B32[Number((big >> BigInt(bits - 5 * (i + 1))) & 31n)]).join('')
        : big.toString(2).padStart(bits, '0')
      if (formatGeohash(v, bits) !== ref) bad++
      if (bits % 5 === 0 && geohashFromText(ref, bits) !== v) bad++
      const to = 1 + Math.floor(rnd() * bits)
      const n = big >> BigInt(bits - to)
      if (narrowGeohash(v, bits, to) !== (n <= 9007199254740991n ? Number(n) : n)) bad++
    }
    // storage: QuestDB's width and back, a null among the values
    const w = new VectorWriter(type, values.length + 1)
    values.forEach((v, i) => w.set(i, v))
    w.set(values.length, null)
    const back = decodeFixed(type, encodeFixed(w.finish()), values.length + 1)
    for (let i = 0; i < values.length; i++) if (getScalar(back, i) !== values[i]) bad++
    if (getScalar(back, values.length) !== null) bad++
  }
  t.equal(bad, 0)
})

t.test('rnd_geohash of more than 53 bits keeps its low bits (a double would round them away)', async (t) => {
  const { Database } = await import('../../../lib/index.js')
  const db = await Database.open()
  t.teardown(() => db.close())
  for (const [bits, last] of [[60, (s: string) => s.slice(-1)], [58, (s: string) => s.slice(-7)]] as const) {
    const rows = (await db.query(`select cast(rnd_geohash(${bits}) as string) from long_sequence(64)`)).rows.map((r) => String(r[0]))
    const zeroTail = rows.filter((s) => /^0+$/.test(last(s))).length
    t.ok(zeroTail < 16, `rnd_geohash(${bits}): ${zeroTail} of 64 end in zero bits`)
  }
  t.equal(formatGeohash((1n << 60n) - 1n, 60), 'zzzzzzzzzzzz')
  // the wide path against a character-by-character reference
  const B32 = '0123456789bcdefghjkmnpqrstuvwxyz'
  for (const v of [0x0123456789abcdefn & ((1n << 60n) - 1n), 1n << 59n, (1n << 30n) + 1n, 0n]) {
    let ref = ''
    for (let i = 11; i >= 0; i--) ref += B32[Number((v >> BigInt(i * 5)) & 31n)]
    t.equal(formatGeohash(v, 60), ref)
  }
})
