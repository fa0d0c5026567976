import t from 'tap'
import { castScalar, castVector, canCast, canImplicitlyCast } from '../../../lib/types/cast.js'
import { constVector, getScalar, vectorOf, VectorWriter, type Vector, SymbolTable } from '../../../lib/types/vector.js'
import type { ColumnType } from '../../../lib/types/column-type.js'
import type { Scalar } from '../../../lib/types/vector.js'
import { SqlError } from '../../../lib/errors.js'

function vec(type: ColumnType, values: Scalar[]): Vector {
  const w = new VectorWriter(type, values.length)
  values.forEach((v, i) => w.set(i, v))
  return w.finish()
}
const rows = (v: Vector): Scalar[] => Array.from({ length: v.length }, (_, i) => getScalar(v, i))

t.test('reference casts (§1.4)', async (t) => {
  t.equal(castScalar(7234623, 'INT', 'SHORT'), 25663)
  t.equal(castScalar(2334444.323, 'DOUBLE', 'SHORT'), -24852)
  t.equal(castScalar(5.5, 'DOUBLE', 'INT'), 5)
  t.equal(castScalar(-5.9, 'DOUBLE', 'INT'), -5)
  t.equal(castScalar('10.2', 'STRING', 'DOUBLE'), 10.2)
  t.equal(castScalar(1578506142000000, 'LONG', 'TIMESTAMP'), 1578506142000000)
  t.equal(castScalar(1578506142000000, 'LONG', 'TIMESTAMP') !== null && castScalar(1578506142000000, 'TIMESTAMP', 'STRING'), '2020-01-08T17:55:42.000000Z')
  t.equal(castScalar(2, 'INT', 'TIMESTAMP'), 2)
  t.equal(castScalar(2, 'TIMESTAMP', 'VARCHAR'), '1970-01-01T00:00:00.000002Z')
  t.same(rows(castVector(vec('INT', [7234623, null, -1]), 'SHORT')), [25663, 0, -1])
  t.same(rows(castVector(vec('DOUBLE', [2334444.323, NaN, 5.5]), 'SHORT')), [-24852, 0, 5])
  t.same(rows(castVector(vec('DOUBLE', [5.5, null, 1e20, -1e20]), 'INT')), [5, null, 2147483647, null])
  t.same(rows(castVector(vec('STRING', ['10.2', null, '1e3']), 'DOUBLE')), [10.2, null, 1000])
})

t.test('numeric widening and nulls', async (t) => {
  t.same(rows(castVector(vec('INT', [1, null, -7]), 'LONG')), [1, null, -7])
  t.same(rows(castVector(vec('INT', [1, null]), 'DOUBLE')), [1, null])
  t.same(rows(castVector(vec('LONG', [4294967297, null]), 'INT')), [1, null])
  t.same(rows(castVector(vec('LONG', [3, null]), 'FLOAT')), [3, null])
  t.same(rows(castVector(vec('DOUBLE', [0.1]), 'FLOAT')), [Math.fround(0.1)])
  t.same(rows(castVector(vec('BYTE', [-5, 127]), 'INT')), [-5, 127])
  t.same(rows(castVector(vec('DOUBLE', [1e18, NaN, 1e300, -1.5]), 'LONG')), [1000000000000000000n, null, 9223372036854775807n, -1])
  t.same(rows(castVector(vec('BOOLEAN', [true, false]), 'INT')), [1, 0])
  t.same(rows(castVector(vec('INT', [0, 3, null]), 'BOOLEAN')), [false, true, false])
  t.same(rows(castVector(constVector('INT', 7234623, 5), 'SHORT')), [25663, 25663, 25663, 25663, 25663])
  t.ok(castVector(constVector('INT', 7, 5), 'LONG').isConst)
})

t.test('exact 64-bit values', async (t) => {
  const big = vec('LONG', [9223372036854775807n, -9223372036854775807n, null, 5])
  t.ok(big.data instanceof BigInt64Array)
  const s = castVector(big, 'STRING')
  t.same(rows(s), ['9223372036854775807', '-9223372036854775807', null, '5'])
  const back = castVector(s, 'LONG')
  t.same(rows(back), [9223372036854775807n, -9223372036854775807n, null, 5])
  t.same(rows(castVector(big, 'INT')), [-1, 1, null, 5])
  t.same(rows(castVector(big, 'DOUBLE')), [9223372036854775807, -9223372036854775807, null, 5])
  t.equal(castScalar('9223372036854775808', 'STRING', 'LONG', 'null'), null)
  t.throws(() => castScalar('9223372036854775808', 'STRING', 'LONG'))
})

t.test('temporal casts', async (t) => {
  t.same(rows(castVector(vec('DATE', [1000, null, -1]), 'TIMESTAMP')), [1000000, null, -1000])
  // toward zero, as QuestDB's toDate (`timestamp / 1000`)
  t.same(rows(castVector(vec('TIMESTAMP', [1999, null, -1, -1999]), 'DATE')), [1, null, 0, -1])
  // a LONG is in the target's unit: millis for DATE, micros for TIMESTAMP; a DATE casts to LONG as its millis
  t.same(rows(castVector(vec('LONG', [1000, -1]), 'DATE')), [1000, -1])
  t.same(rows(castVector(vec('DATE', [5]), 'LONG')), [5])
  t.same(rows(castVector(vec('STRING', ['2020-01-01', '1577836800000000', null, '2026-01-12T12:35:26.123456+01:30']), 'TIMESTAMP')),
    [1577836800000000, 1577836800000000, null, 1768215926123456])
  t.same(rows(castVector(vec('STRING', ['2020-01-01T00:00:00.123999Z']), 'DATE')), [1577836800123])
  t.same(rows(castVector(vec('TIMESTAMP', [1577836800000000, null]), 'STRING')), ['2020-01-01T00:00:00.000000Z', null])
  t.same(rows(castVector(vec('DATE', [1577836800000]), 'VARCHAR')), ['2020-01-01T00:00:00.000Z'])
  t.same(rows(castVector(vec('DOUBLE', [1.5e6]), 'TIMESTAMP')), [1500000])
})

t.test('text casts', async (t) => {
  t.same(rows(castVector(vec('DOUBLE', [30, 1e7, null, -0]), 'STRING')), ['30.0', '1.0E7', null, '-0.0'])
  t.same(rows(castVector(vec('FLOAT', [0.1]), 'VARCHAR')), ['0.1'])
  t.same(rows(castVector(vec('BOOLEAN', [true, false]), 'STRING')), ['true', 'false'])
  t.same(rows(castVector(vec('STRING', ['true', 'TRUE', 'false', 'x', null]), 'BOOLEAN')), [true, true, false, false, false])
  t.same(rows(castVector(vec('STRING', ['1_024', '-3', null]), 'INT')), [1024, -3, null])
  t.same(rows(castVector(vec('STRING', ['127', '-128']), 'BYTE')), [127, -128])
  t.same(rows(castVector(vec('STRING', ['abc', 'x']), 'CHAR')), ['a', 'x'])
  t.same(rows(castVector(vec('STRING', ['1.1.1.1', '0.0.0.0']), 'IPV4')), [16843009, null])
  t.same(rows(castVector(vec('IPV4', [16843009, null]), 'STRING')), ['1.1.1.1', null])
  t.same(rows(castVector(vec('STRING', ['A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11']), 'UUID')), ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'])
  t.same(rows(castVector(vec('STRING', ['0x0ABC']), 'LONG256')), ['0x0abc'])
  t.same(rows(castVector(vec('VARCHAR', ['a', null]), 'STRING')), ['a', null])
  const sym = castVector(vec('STRING', ['a', 'b', 'a', null]), 'SYMBOL')
  t.equal(sym.kind, 'sym')
  t.same(rows(sym), ['a', 'b', 'a', null])
  t.same(rows(castVector(vec('INT', [1, null]), 'SYMBOL')), ['1', null])
})

t.test('symbol sources cast each entry once', async (t) => {
  const dict = new SymbolTable()
  const a = dict.intern('2020-01-01')
  const b = dict.intern('2021')
  const v = vectorOf('SYMBOL', Int32Array.of(a, b, -1, a), 4, dict)
  t.same(rows(castVector(v, 'TIMESTAMP')), [1577836800000000, 1609459200000000, null, 1577836800000000])
  t.same(rows(castVector(v, 'STRING')), ['2020-01-01', '2021', null, '2020-01-01'])
})

t.test('CHAR conversions', async (t) => {
  t.equal(castScalar('5', 'CHAR', 'INT'), 5)
  t.equal(castScalar('1', 'CHAR', 'DOUBLE'), 1)
  t.equal(castScalar(257, 'SHORT', 'CHAR'), 'ā')
  t.equal(castScalar(65537, 'INT', 'CHAR'), '\u0001')
  t.equal(castScalar(-1.25, 'FLOAT', 'CHAR'), '\uffff')
  t.equal(castScalar('x', 'CHAR', 'STRING'), 'x')
  t.throws(() => castScalar('x', 'CHAR', 'INT'), { message: 'inconvertible value: x [CHAR -> INT]' })
})

t.test('bad text raises 22P02 with QuestDB wording', async (t) => {
  try {
    castVector(vec('STRING', ['1', 'abc']), 'INT', { position: 7 })
    t.fail('should throw')
  } catch (e) {
    t.ok(e instanceof SqlError)
    const err = e as SqlError
    t.equal(err.code, '22P02')
    t.equal(err.message, 'inconvertible value: `abc` [STRING -> INT]')
    t.equal(err.position, 7)
  }
  t.throws(() => castScalar('3 day', 'STRING', 'TIMESTAMP'), { message: 'inconvertible value: `3 day` [STRING -> TIMESTAMP]' })
  t.throws(() => castScalar('0xG56', 'STRING', 'LONG256'), { message: 'inconvertible value: `0xG56` [STRING -> LONG256]' })
  t.throws(() => castScalar('1.1.1', 'VARCHAR', 'IPV4'), { message: 'inconvertible value: `1.1.1` [VARCHAR -> IPv4]' })
  t.throws(() => castScalar('128', 'STRING', 'BYTE'))
  t.same(rows(castVector(vec('STRING', ['1', 'abc']), 'INT', { onBadText: 'null' })), [1, null])
})

t.test('null vectors and same type', async (t) => {
  const v = vec('INT', [1])
  t.equal(castVector(v, 'INT'), v)
  t.same(rows(castVector({ kind: 'null', type: 'NULL', length: 2, data: null }, 'TIMESTAMP')), [null, null])
  t.equal(castScalar(null, 'NULL', 'SHORT'), 0)
  t.equal(castScalar(null, 'STRING', 'INT'), null)
})

t.test('canCast / canImplicitlyCast', async (t) => {
  t.ok(canCast('STRING', 'INT'))
  t.ok(canCast('DOUBLE', 'SHORT'))
  t.ok(canCast('UUID', 'STRING'))
  t.ok(canCast('LONG', 'IPV4'))
  t.ok(canCast('NULL', 'UUID'))
  t.notOk(canCast('UUID', 'INT'))
  t.notOk(canCast('BINARY', 'STRING'))
  t.notOk(canCast('DOUBLE', 'UUID'))
  t.ok(canImplicitlyCast('BYTE', 'DOUBLE'))
  t.ok(canImplicitlyCast('INT', 'LONG'))
  t.notOk(canImplicitlyCast('LONG', 'INT'))
  t.notOk(canImplicitlyCast('DOUBLE', 'FLOAT'))
  t.ok(canImplicitlyCast('STRING', 'TIMESTAMP'))
  t.ok(canImplicitlyCast('VARCHAR', 'IPV4'))
  t.ok(canImplicitlyCast('STRING', 'VARCHAR'))
  t.ok(canImplicitlyCast('SYMBOL', 'TIMESTAMP'))
  t.notOk(canImplicitlyCast('SYMBOL', 'INT'))
  t.ok(canImplicitlyCast('INT', 'TIMESTAMP'))
  t.ok(canImplicitlyCast('NULL', 'UUID'))
  t.notOk(canImplicitlyCast('BOOLEAN', 'INT'))
  t.notOk(canImplicitlyCast('TIMESTAMP', 'INT'))
})
