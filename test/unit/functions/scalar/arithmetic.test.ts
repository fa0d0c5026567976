import t from 'tap'
import { cst, run, vec } from './helpers.js'

t.test('INT arithmetic wraps like Java and keeps nulls', async (t) => {
  const a = vec('INT', [1, 2147483647, null, 7, -7])
  const b = vec('INT', [2, 1, 5, 2, 2])
  t.same(run('+', [a, b], 'INT'), [3, null, null, 9, -5])
  t.same(run('-', [a, b], 'INT'), [-1, 2147483646, null, 5, -9])
  t.same(run('*', [a, b], 'INT'), [2, 2147483647, null, 14, -14])
  t.same(run('/', [a, b], 'INT'), [0, 2147483647, null, 3, -3])
  t.same(run('%', [a, b], 'INT'), [1, 0, null, 1, -1])
})

t.test('integer division and remainder by zero give null', async (t) => {
  t.same(run('/', [vec('INT', [5]), cst('INT', 0)], 'INT'), [null])
  t.same(run('%', [vec('LONG', [5]), cst('LONG', 0)], 'LONG'), [null])
  t.same(run('/', [vec('DOUBLE', [5]), cst('DOUBLE', 0)], 'DOUBLE'), [null])
})

t.test('LONG arithmetic: fast path, overflow to exact path, wrap-around', async (t) => {
  t.same(run('+', [vec('LONG', [1, null, 9007199254740991]), cst('LONG', 1)], 'LONG'), [2, null, 9007199254740992n])
  t.same(run('*', [vec('LONG', [4611686018427387904n]), cst('LONG', 2)], 'LONG'), [null])
  t.same(run('*', [vec('LONG', [3037000500]), cst('LONG', 3037000500)], 'LONG'), [-9223372036709301616n])
  t.same(run('-', [vec('LONG', [9223372036854775807n]), cst('LONG', 1)], 'LONG'), [9223372036854775806n])
  t.same(run('/', [vec('LONG', [-7, 7, 9007199254740991]), cst('LONG', 2)], 'LONG'), [-3, 3, 4503599627370495])
  t.same(run('%', [vec('LONG', [-7, 7]), cst('LONG', 3)], 'LONG'), [-1, 1])
})

t.test('DOUBLE, FLOAT, BYTE, SHORT', async (t) => {
  t.same(run('+', [vec('DOUBLE', [0.1, null]), cst('DOUBLE', 0.2)], 'DOUBLE'), [0.1 + 0.2, null])
  t.same(run('%', [vec('DOUBLE', [-7.5]), cst('DOUBLE', 2)], 'DOUBLE'), [-1.5])
  t.same(run('+', [vec('FLOAT', [0.1]), cst('FLOAT', 0.2)], 'FLOAT'), [Math.fround(Math.fround(0.1) + Math.fround(0.2))])
  t.same(run('+', [vec('BYTE', [100]), cst('BYTE', 100)], 'BYTE'), [-56])
  t.same(run('*', [vec('SHORT', [300]), cst('SHORT', 300)], 'SHORT'), [24464])
})

t.test('TIMESTAMP arithmetic', async (t) => {
  const ts = vec('TIMESTAMP', [1571270400000000, null])
  t.same(run('+', [ts, cst('LONG', 1000000)], 'TIMESTAMP'), [1571270401000000, null])
  t.same(run('-', [ts, cst('TIMESTAMP', 1571270300000000)], 'LONG'), [100000000, null])
  // docs: to_timestamp('2019-10-17T00:00:00', ...) + 0.323 is a DOUBLE 1571270400000000.3
  t.same(run('+', [ts, cst('DOUBLE', 0.323)], 'DOUBLE'), [1571270400000000.2, null])
})

t.test('IPv4 arithmetic', async (t) => {
  t.same(run('+', [vec('IPV4', [0x0a000001]), cst('INT', 1)], 'IPV4'), [0x0a000002])
  t.same(run('-', [vec('IPV4', [0x0a000005]), cst('IPV4', 0x0a000001)], 'LONG'), [4])
})

t.test('neg', async (t) => {
  t.same(run('neg', [vec('INT', [5, null, -2147483647])]), [-5, null, 2147483647])
  t.same(run('neg', [vec('LONG', [5, null, 0])]), [-5, null, 0])
  t.same(run('neg', [vec('LONG', [-9223372036854775807n])]), [9223372036854775807n])
  t.same(run('neg', [vec('DOUBLE', [1.5])]), [-1.5])
  t.same(run('neg', [vec('BYTE', [-128])]), [-128])
  t.same(run('neg', [cst('INT', 3, 4)]), [-3, -3, -3, -3])
})
