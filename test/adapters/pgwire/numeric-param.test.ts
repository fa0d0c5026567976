/**
 * typedNumeric (a `numeric` parameter alone, as `select $1`) reads its text with the engine's
 * plainDecimal, so pgwire and the binder agree on every edge case; NaN and ±Infinity stay the
 * NULL DECIMAL(1,0) QuestDB casts them to.
 */
import t from 'tap'
import { typedNumeric } from '../../../adapters/pgwire/numeric-param.js'
import { plainDecimal } from '../../../lib/types/decimal.js'

t.test('the same text and type as plainDecimal for numbers', async (t) => {
  for (const text of ['1.50', '-1E-12', '12E2', '-0', '-0.00', '0E100', ' 7.5 ', '1E75', '0E-76']) t.same(typedNumeric(text), plainDecimal(text), text)
  t.same(typedNumeric('-0'), { text: '0', type: 'DECIMAL(1,0)' })
  t.same(typedNumeric('0E100'), { text: '0', type: 'DECIMAL(1,0)' })
})

t.test('no number, or past 76 digits: undefined (the value stays text)', async (t) => {
  for (const text of ['abc', '1E76', '0E-100', '1_000', '']) t.equal(typedNumeric(text), undefined, text)
})

t.test('NaN and ±Infinity are a NULL DECIMAL(1,0)', async (t) => {
  for (const text of ['NaN', 'nan', 'Infinity', '-Infinity', ' inf ']) t.same(typedNumeric(text), { type: 'DECIMAL(1,0)', text: null }, text)
})
