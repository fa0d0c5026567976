/**
 * plainDecimal: the one reading of a decimal number's text shared by the binder (a bare literal
 * beside a DECIMAL) and pgwire (a `numeric` parameter), with its edge cases decided: -0, zero
 * with an exponent past 76, spaces, and the 76-digit limits.
 */
import t from 'tap'
import { plainDecimal } from '../../../lib/types/decimal.js'

t.test('plain digits and the DECIMAL of exactly those digits', async (t) => {
  t.same(plainDecimal('1.50'), { text: '1.50', type: 'DECIMAL(3,2)' })
  t.same(plainDecimal('-1E-12'), { text: '-0.000000000001', type: 'DECIMAL(12,12)' })
  t.same(plainDecimal('12E2'), { text: '1200', type: 'DECIMAL(4,0)' })
  t.same(plainDecimal('1.25e1'), { text: '12.5', type: 'DECIMAL(3,1)' })
  t.same(plainDecimal('+007.10'), { text: '7.10', type: 'DECIMAL(3,2)' })
  t.same(plainDecimal('.5'), { text: '0.5', type: 'DECIMAL(1,1)' })
  t.same(plainDecimal('5.'), { text: '5', type: 'DECIMAL(1,0)' })
})

t.test('zero has no sign', async (t) => {
  t.same(plainDecimal('-0'), { text: '0', type: 'DECIMAL(1,0)' })
  t.same(plainDecimal('-0.00'), { text: '0.00', type: 'DECIMAL(2,2)' })
  t.same(plainDecimal('-0E-3'), { text: '0.000', type: 'DECIMAL(3,3)' })
})

t.test('zero with a positive exponent gains no digits, however large; a scale past 76 is refused', async (t) => {
  t.same(plainDecimal('0E100'), { text: '0', type: 'DECIMAL(1,0)' })
  t.same(plainDecimal('0.000E+1000000'), { text: '0', type: 'DECIMAL(1,0)' })
  t.same(plainDecimal('0E99999999999999999999999'), { text: '0', type: 'DECIMAL(1,0)' })
  t.equal(plainDecimal('0E-100'), undefined)
  t.same(plainDecimal('0E-76'), { text: '0.' + '0'.repeat(76), type: 'DECIMAL(76,76)' })
})

t.test('76 digits fit, 77 do not', async (t) => {
  t.same(plainDecimal('1E75'), { text: '1' + '0'.repeat(75), type: 'DECIMAL(76,0)' })
  t.equal(plainDecimal('1E76'), undefined)
  t.equal(plainDecimal('1E99999999999999999999999'), undefined)
  t.same(plainDecimal('1E-76')?.type, 'DECIMAL(76,76)')
  t.equal(plainDecimal('1E-77'), undefined)
  t.equal(plainDecimal('9'.repeat(77)), undefined)
})

t.test('spaces around the number are allowed; anything else is no number', async (t) => {
  t.same(plainDecimal(' \t7.5 \n'), { text: '7.5', type: 'DECIMAL(2,1)' })
  for (const bad of ['', ' ', '.', '-', 'e5', '1e', '1_000', '1 000', '0x10', 'NaN', 'Infinity', '1.2.3', '--1']) t.equal(plainDecimal(bad), undefined, JSON.stringify(bad))
})
