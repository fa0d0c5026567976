import t from 'tap'
import { formatDouble, formatFloat } from '../../../lib/types/number-format.js'

t.test('formatDouble matches Java Double.toString', async (t) => {
  const cases: [number, string][] = [
    [0, '0.0'], [-0, '-0.0'], [1, '1.0'], [-1, '-1.0'], [30, '30.0'], [100, '100.0'], [-1.5, '-1.5'],
    [1234567, '1234567.0'], [9999999, '9999999.0'], [9999999.999, '9999999.999'], [1e7, '1.0E7'],
    [12345678, '1.2345678E7'], [123456789.123, '1.23456789123E8'], [1e21, '1.0E21'], [1.5e300, '1.5E300'],
    [0.001, '0.001'], [0.0011, '0.0011'], [0.0009, '9.0E-4'], [2.877924760262829e-4, '2.877924760262829E-4'],
    [1e-7, '1.0E-7'], [-1e-7, '-1.0E-7'], [0.1, '0.1'], [0.1 + 0.2, '0.30000000000000004'], [10.2, '10.2'],
    [1.7976931348623157e308, '1.7976931348623157E308'], [4.9e-324, '4.9E-324'], [2.2250738585072014e-308, '2.2250738585072014E-308'],
    [0.8251337821991485, '0.8251337821991485'], [11.427984775756228, '11.427984775756228'], [5e-324, '4.9E-324'],
    [123.456, '123.456'], [-9876543.21, '-9876543.21'], [1e6, '1000000.0'], [1e-3, '0.001'], [0.0009999999999999998, '9.999999999999998E-4'],
    [1571270400000000, '1.5712704E15'], [9007199254740993, '9.007199254740992E15'], [100.5, '100.5'],
  ]
  for (const [x, s] of cases) t.equal(formatDouble(x), s, `${x}`)
  t.equal(formatDouble(NaN), 'NaN')
  t.equal(formatDouble(-Infinity), '-Infinity')
})

t.test('formatDouble round-trips', async (t) => {
  let bad = 0
  const buf = new Float64Array(1)
  const bits = new Uint32Array(buf.buffer)
  for (let k = 0; k < 20000; k++) {
    bits[0] = (Math.random() * 2 ** 32) >>> 0
    bits[1] = (Math.random() * 2 ** 32) >>> 0
    const x = buf[0]!
    if (!Number.isFinite(x)) continue
    const s = formatDouble(x)
    if (Number(s) !== x || !/^-?\d+\.\d+(E-?\d+)?$/.test(s)) bad++
  }
  t.equal(bad, 0)
})

t.test('formatFloat matches Java Float.toString', async (t) => {
  const cases: [number, string][] = [
    [0.1, '0.1'], [0.3, '0.3'], [1 / 3, '0.33333334'], [2 / 3, '0.6666667'], [1, '1.0'], [30, '30.0'], [-0, '-0.0'],
    [16777216, '1.6777216E7'], [1234567, '1234567.0'], [3.4028234663852886e38, '3.4028235E38'], [1.401298464324817e-45, '1.4E-45'],
    [1e-4, '1.0E-4'], [0.001, '0.001'], [10.2, '10.2'], [3.14159, '3.14159'], [1e10, '1.0E10'], [123.456, '123.456'],
    [-2.5, '-2.5'], [0.8251337821991485, '0.8251338'],
  ]
  for (const [x, s] of cases) t.equal(formatFloat(Math.fround(x)), s, `${x}`)
})

t.test('formatFloat round-trips through float32', async (t) => {
  let bad = 0
  const buf = new Float32Array(1)
  const bits = new Uint32Array(buf.buffer)
  for (let k = 0; k < 20000; k++) {
    bits[0] = (Math.random() * 2 ** 32) >>> 0
    const x = buf[0]!
    if (!Number.isFinite(x)) continue
    const s = formatFloat(x)
    if (Math.fround(Number(s)) !== x) bad++
  }
  t.equal(bad, 0)
})
