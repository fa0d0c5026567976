// Value text written into bytes must equal the string formatters' output exactly: integers as
// String(n), doubles as formatDouble (Java's Double.toString, shortest round-trip digits),
// timestamps as formatTimestamp, over random values leaning on the edges.
import t from 'tap'
import { ByteWriter } from '../../../lib/types/byte-writer.js'
import { TimestampText, writeDouble, writeFloat64BE, writeInt, writeInt64BE } from '../../../lib/types/write-values.js'
import { formatDouble } from '../../../lib/types/number-format.js'
import { formatTimestamp } from '../../../lib/types/timestamp.js'
import { Rng } from '../../adapters/random-vectors.js'

const text = (w: ByteWriter): string => Buffer.from(w.take()).toString('latin1')

t.test('writeDouble prints what formatDouble prints', async (t) => {
  const r = new Rng(1)
  const w = new ByteWriter(64)
  const gens: (() => number)[] = [
    () => (r.next() - 0.5) * 200, // 15-17 digit doubles
    () => Math.round(r.next() * 1e6) / 100, // two decimals (TSBS's metrics)
    () => Math.round((r.next() - 0.5) * 1e9) / 10 ** r.int(12),
    () => Number((r.next() * 10 ** (r.int(14) - 4)).toPrecision(1 + r.int(17))),
    () => (r.next() - 0.5) * 10 ** (r.int(60) - 30),
    () => 1 / (1 + r.int(100_000)),
    () => r.pick([1e-3, 0.001, 9.999999999999999e-4, 1e7, 9999999.999999998, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 5e-324, 1.7976931348623157e308, -0, 0, 0.30000000000000004, 123456.7]),
    () => new Float64Array(new BigUint64Array([BigInt.asUintN(64, BigInt(Math.floor(r.next() * 2 ** 32)) << 32n | BigInt(Math.floor(r.next() * 2 ** 32)))]).buffer)[0]!,
  ]
  let n = 0
  for (const g of gens) {
    for (let k = 0; k < 40_000; k++) {
      const x = g()
      if (!Number.isFinite(x)) continue
      writeDouble(w, x)
      const got = text(w)
      if (got !== formatDouble(x)) { t.fail(`${x}: ${got} vs ${formatDouble(x)}`); return }
      n++
    }
  }
  t.ok(n > 250_000, `${n} doubles`)
})

t.test('writeDouble: one and two fraction digits at the edges of the short path print as formatDouble', async (t) => {
  const w = new ByteWriter(4)
  const xs = [0.01, 0.05, 0.1, 0.5, 0.99, 1.1, 1.01, 9.99, 10.5, 99.95, 100.01, 999999.99, 999999.9, 99999.95, 0.001, 0.011, 0.015, 1.005, 2.675, 1e6 - 0.01, 1e6 + 0.01, 1e6 + 0.5, 0.07, 0.29, 4.35, 1.15, 8.2, 123456.78]
  for (const x of [...xs, ...xs.map((v) => -v)]) {
    writeDouble(w, x)
    t.equal(text(w), formatDouble(x), String(x))
  }
})

t.test('writeInt prints what String prints', async (t) => {
  const r = new Rng(2)
  const w = new ByteWriter(8)
  for (const x of [0, -0, 1, -1, 9, 10, 2147483647, 2147483648, -2147483648, -2147483649, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 99999, 100000]) {
    writeInt(w, x)
    t.equal(text(w), String(x), String(x))
  }
  for (let k = 0; k < 50_000; k++) {
    const x = Math.round((r.next() - 0.5) * 10 ** r.int(17))
    writeInt(w, x)
    const got = text(w)
    if (got !== String(x)) { t.fail(`${x}: ${got}`); return }
  }
})

t.test('TimestampText prints what formatTimestamp prints, any year', async (t) => {
  const r = new Rng(3)
  const iso = new TimestampText(84, true)
  const pg = new TimestampText(32, false)
  const w = new ByteWriter(8)
  const xs = [0, -1, 1, 86_400_000_000, -86_400_000_000, 253402300799999999, 253402300800000000, -62135596800000000, -62135596800000001, -(2 ** 53) + 1, 2 ** 53 - 1]
  for (let k = 0; k < 50_000; k++) xs.push(k % 3 === 0 ? Math.round((r.next() - 0.5) * 2 ** 53) : 1_451_606_400_000_000 + r.int(2 ** 31) * 100 + r.int(100))
  for (const x of xs) {
    const want = formatTimestamp(x)
    iso.write(w, x)
    const a = text(w)
    pg.write(w, x)
    const b = text(w)
    if (a !== want || b !== want.replace('T', ' ').slice(0, -1)) { t.fail(`${x}: ${a} / ${b} vs ${want}`); return }
  }
  t.pass(`${xs.length} timestamps`)
})

t.test('big-endian doubles and int64', async (t) => {
  const w = new ByteWriter(8)
  const b = Buffer.alloc(8)
  for (const x of [0, -0, 1.5, -2.25e300, NaN, Infinity, 5e-324]) {
    writeFloat64BE(w, x)
    b.writeDoubleBE(x)
    t.same(Buffer.from(w.take()), b, String(x))
  }
  for (const v of [0, -1, 1, 2 ** 32, -(2 ** 32) - 1, 2 ** 53 - 1, -(2 ** 53 - 1), -946684800000000]) {
    writeInt64BE(w, v)
    b.writeBigInt64BE(BigInt(v))
    t.same(Buffer.from(w.take()), b, String(v))
  }
})

t.test('text() writes UTF-8 as Buffer does, lone surrogates included', async (t) => {
  const w = new ByteWriter(4)
  for (const s of ['', 'abc', 'caf\u00e9', '\ud83d\ude00', 'a\ud800b', '\udc00', 'x'.repeat(200) + '\u00e9', '\u00e9'.repeat(100)]) {
    w.text(s)
    t.same(Buffer.from(w.take()), Buffer.from(s, 'utf8'), JSON.stringify(s))
  }
})
