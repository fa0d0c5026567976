import t from 'tap'
import {
  divHalfEven, formatUnscaled, literalDecimalType, parseDecimalTypeName, parseUnscaled, rescale, decimalScalar, isDecimal,
} from '../../../lib/types/decimal.js'
import { addResultType, mulResultType, divResultType, sumResultType, decimalConversionCost } from '../../../lib/types/decimal-rules.js'
import { parseTypeName, physicalOf, commonType } from '../../../lib/types/column-type.js'
import { castScalar, castVector, canCast, canImplicitlyCast } from '../../../lib/types/cast.js'
import { VectorWriter, getScalar } from '../../../lib/types/vector.js'
import { formatValue } from '../../../lib/types/value-format.js'
import { toJsValue, fromJsValue } from '../../../lib/types/js-value.js'
import { SqlError } from '../../../lib/errors.js'

t.test('type names: QuestDB range, default, numeric alias', async (t) => {
  t.equal(parseTypeName('decimal'), 'DECIMAL(18,3)')
  t.equal(parseTypeName('decimal(10,2)'), 'DECIMAL(10,2)')
  t.equal(parseTypeName('numeric(7)'), 'DECIMAL(7,0)')
  t.equal(parseTypeName('DECIMAL(76,76)'), 'DECIMAL(76,76)')
  t.equal(parseDecimalTypeName('double'), undefined)
  const e = t.throws(() => parseTypeName('decimal(77,1)', 12)) as SqlError
  t.equal(e.code, '22003'); t.equal(e.position, 12)
  t.throws(() => parseTypeName('decimal(0)'))
  t.throws(() => parseTypeName('decimal(4,5)'))
  t.ok(isDecimal('DECIMAL(1,0)')); t.notOk(isDecimal('DOUBLE'))
  t.equal(physicalOf('DECIMAL(18,4)'), 'i64')
  t.equal(physicalOf('DECIMAL(19,4)'), 'str')
})

t.test('text: exact scale, half-even rounding, exponents', async (t) => {
  t.equal(formatUnscaled(-50n, 2), '-0.50')
  t.equal(formatUnscaled(5n, 3), '0.005')
  t.equal(formatUnscaled(123n, 0), '123')
  t.equal(parseUnscaled('12.345', 2), 1234n) // half-even: 1234.5 -> 1234
  t.equal(parseUnscaled('12.355', 2), 1236n)
  t.equal(parseUnscaled('-0.5', 0), 0n)
  t.equal(parseUnscaled('1.5e3', 1), 15000n)
  t.equal(parseUnscaled('1.25m', 2), 125n)
  t.equal(parseUnscaled('abc', 2), undefined)
  t.equal(parseUnscaled('', 2), undefined)
  t.equal(divHalfEven(-25n, 10n), -2n)
  t.equal(divHalfEven(-35n, 10n), -4n)
  t.equal(rescale(12345n, 4, 2), 123n)
  t.equal(literalDecimalType('0.001'), 'DECIMAL(3,3)')
  t.equal(literalDecimalType('1000000.00'), 'DECIMAL(9,2)')
})

t.test('result types', async (t) => {
  t.equal(addResultType('DECIMAL(10,2)', 'DECIMAL(8,2)'), 'DECIMAL(11,2)')
  t.equal(addResultType('DECIMAL(3,1)', 'DECIMAL(4,3)'), 'DECIMAL(6,3)')
  t.equal(mulResultType('DECIMAL(5,2)', 'DECIMAL(4,2)'), 'DECIMAL(9,4)')
  t.equal(mulResultType('DECIMAL(60,2)', 'DECIMAL(40,2)'), 'DECIMAL(76,4)')
  t.equal(divResultType('DECIMAL(4,2)', 'DECIMAL(2,1)'), 'DECIMAL(76,3)')
  t.equal(divResultType('DECIMAL(76,60)', 'DECIMAL(76,40)'), 'DECIMAL(76,76)')
  t.equal(sumResultType('DECIMAL(18,4)'), 'DECIMAL(38,4)')
  t.equal(commonType('DECIMAL(5,2)', 'DECIMAL(10,0)'), 'DECIMAL(12,2)')
  t.equal(commonType('DECIMAL(5,2)', 'INT'), 'DECIMAL(12,2)')
  t.equal(commonType('DECIMAL(5,2)', 'DOUBLE'), 'DOUBLE')
  t.ok(decimalConversionCost('INT', 'DECIMAL', false) > 5, 'avg(INT) keeps its DOUBLE overload')
})

t.test('cast rules: no implicit DOUBLE -> DECIMAL', async (t) => {
  t.ok(canCast('DOUBLE', 'DECIMAL(10,2)'))
  t.notOk(canImplicitlyCast('DOUBLE', 'DECIMAL(10,2)'))
  t.ok(canImplicitlyCast('INT', 'DECIMAL(10,2)'))
  t.ok(canImplicitlyCast('DECIMAL(10,2)', 'DOUBLE'))
  t.notOk(canCast('UUID', 'DECIMAL(10,2)'))
  t.notOk(canCast('DECIMAL(10,2)', 'TIMESTAMP'))
})

t.test('scalar casts: exact, 22003 on overflow, never a wrap', async (t) => {
  t.equal(castScalar(100, 'INT', 'DECIMAL(10,2)'), 10000)
  t.equal(castScalar(123.456789, 'DOUBLE', 'DECIMAL(8,3)'), 123457)
  t.equal(castScalar(9999, 'DECIMAL(4,2)', 'INT'), 99)
  t.equal(castScalar(-9999, 'DECIMAL(4,2)', 'INT'), -99)
  t.equal(castScalar(9999, 'DECIMAL(4,2)', 'DOUBLE'), 99.99)
  t.equal(castScalar(1234, 'DECIMAL(6,2)', 'STRING'), '12.34')
  t.equal(castScalar(1234, 'DECIMAL(6,2)', 'DECIMAL(30,4)'), '12.3400')
  t.equal(castScalar('12.3400', 'DECIMAL(30,4)', 'DECIMAL(6,2)'), 1234)
  t.equal(castScalar(NaN, 'DOUBLE', 'DECIMAL(6,2)'), null)
  t.equal(castScalar(null, 'DECIMAL(6,2)', 'SHORT'), 0)
  t.equal((t.throws(() => castScalar(1000, 'INT', 'DECIMAL(4,2)', 'throw', 7)) as SqlError).code, '22003')
  t.equal((t.throws(() => castScalar(99999999999999n, 'DECIMAL(18,2)', 'INT')) as SqlError).code, '22003')
  t.equal((t.throws(() => castScalar('x', 'STRING', 'DECIMAL(4,2)')) as SqlError).code, '22P02')
  t.equal(castScalar('x', 'STRING', 'DECIMAL(4,2)', 'null'), null)
  // 18 digits do not fit a double: the value is a bigint, exact
  const big = castScalar('9999999999999999.99', 'STRING', 'DECIMAL(18,2)')
  t.equal(big, 999999999999999999n)
  t.equal(formatValue('DECIMAL(18,2)', big), '9999999999999999.99')
})

t.test('vectors: narrow values in typed arrays (BigInt64Array past 2^53), nulls as -2^63', async (t) => {
  const w = new VectorWriter('DECIMAL(18,2)', 3)
  w.set(0, 125); w.set(1, null); w.set(2, 999999999999999999n)
  const v = w.finish()
  t.equal(v.kind, 'i64')
  t.ok(v.data instanceof BigInt64Array)
  t.equal(getScalar(v, 1), null)
  const d = castVector(v, 'DOUBLE')
  t.equal(getScalar(d, 0), 1.25)
  const up = castVector(castVector(new VectorWriter('INT', 1).finish(), 'DECIMAL(10,2)'), 'STRING')
  t.equal(getScalar(up, 0), null)
  t.equal(decimalScalar(5n, 'DECIMAL(30,2)'), '0.05')
})

t.test('JS values: exact text out, numbers/bigints/strings in', async (t) => {
  t.equal(toJsValue('DECIMAL(6,2)', 1234), '12.34')
  t.equal(toJsValue('DECIMAL(6,2)', null), null)
  t.equal(fromJsValue('DECIMAL(6,2)', '12.345'), 1234)
  t.equal(fromJsValue('DECIMAL(6,2)', 12), 1200)
  t.equal(fromJsValue('DECIMAL(6,2)', 12.5), 1250)
  t.equal(fromJsValue('DECIMAL(30,2)', 12n), '12.00')
})
