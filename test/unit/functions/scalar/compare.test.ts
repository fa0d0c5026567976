import t from 'tap'
import { SymbolTable, type Vector, vectorOf } from '../../../../lib/types/vector.js'
import { cst, run, vec } from './helpers.js'

t.test('INT comparisons with null semantics', async (t) => {
  const a = vec('INT', [1, 2, null, null, 3])
  const b = vec('INT', [2, 2, 1, null, null])
  t.same(run('=', [a, b]), [false, true, false, true, false])
  t.same(run('!=', [a, b]), [true, false, true, false, true])
  t.same(run('<', [a, b]), [true, false, false, false, false])
  t.same(run('<=', [a, b]), [true, true, false, true, false])
  t.same(run('>', [a, b]), [false, false, false, false, false])
  t.same(run('>=', [a, b]), [false, true, false, true, false])
})

t.test('LONG comparisons, fast and exact paths', async (t) => {
  const a = vec('LONG', [1, null, 5])
  t.same(run('<', [a, cst('LONG', 3)]), [true, false, false])
  t.same(run('>=', [a, cst('LONG', null)]), [false, true, false])
  const big = vec('LONG', [9223372036854775807n, 1, null])
  t.same(run('>', [big, cst('LONG', 9223372036854775806n)]), [true, false, false])
  t.same(run('=', [big, cst('LONG', null)]), [false, false, true])
  t.same(run('<=', [cst('LONG', 2), a]), [false, false, true])
})

t.test('DOUBLE comparisons: tolerance, NaN = NaN', async (t) => {
  const a = vec('DOUBLE', [0.1 + 0.2, NaN, 1, 1])
  const b = vec('DOUBLE', [0.3, NaN, NaN, 1 + 1e-11])
  t.same(run('=', [a, b]), [true, true, false, true])
  t.same(run('!=', [a, b]), [false, false, true, false])
  t.same(run('<', [a, b]), [false, false, false, true])
  t.same(run('<=', [a, b]), [true, true, false, true])
  t.same(run('>', [vec('DOUBLE', [2]), cst('DOUBLE', 1)]), [true])
})

t.test('TIMESTAMP, BOOLEAN, CHAR, IPv4, UUID', async (t) => {
  t.same(run('<', [vec('TIMESTAMP', [1, 5, null]), cst('TIMESTAMP', 3)]), [true, false, false])
  t.same(run('=', [vec('BOOLEAN', [true, false]), cst('BOOLEAN', true)]), [true, false])
  t.same(run('<', [vec('CHAR', ['a', 'c', null]), cst('CHAR', 'b')]), [true, false, false])
  t.same(run('=', [vec('CHAR', [null]), cst('CHAR', null)]), [true])
  // 192.168.0.1 > 10.0.0.1 unsigned
  t.same(run('>', [vec('IPV4', [0xc0a80001, 0]), cst('IPV4', 0x0a000001)]), [true, false])
  const u = '11111111-1111-1111-1111-111111111111'
  t.same(run('=', [vec('UUID', [u, null]), cst('UUID', u)]), [true, false])
})

t.test('text comparisons', async (t) => {
  const s = vec('STRING', ['abc', 'abd', null])
  t.same(run('=', [s, cst('STRING', 'abc')]), [true, false, false])
  t.same(run('<', [s, cst('STRING', 'abd')]), [true, false, false])
  t.same(run('=', [s, cst('STRING', null)]), [false, false, true])
  t.same(run('>=', [s, vec('VARCHAR', ['abc', 'abc', null])]), [true, true, true])
  t.same(run('=', [vec('CHAR', ['a']), cst('STRING', 'a')]), [true])
})

t.test('SYMBOL vs constant compares dictionary keys', async (t) => {
  const dict = new SymbolTable()
  dict.intern('BTC'); dict.intern('ETH')
  const sym = vectorOf('SYMBOL', new Int32Array([0, 1, -1, 0]), 4, dict)
  t.same(run('=', [sym, cst('STRING', 'BTC')]), [true, false, false, true])
  t.same(run('!=', [sym, cst('STRING', 'BTC')]), [false, true, true, false])
  t.same(run('=', [cst('STRING', 'ETH'), sym]), [false, true, false, false])
  t.same(run('=', [sym, cst('STRING', 'XRP')]), [false, false, false, false])
  t.same(run('!=', [sym, cst('STRING', 'XRP')]), [true, true, true, true])
  t.same(run('=', [sym, cst('STRING', null)]), [false, false, true, false])
  t.same(run('<', [sym, cst('STRING', 'C')]), [true, false, false, true])
  const other: Vector = vectorOf('SYMBOL', new Int32Array([0, 0, -1, 1]), 4, dict)
  t.same(run('=', [sym, other]), [true, false, true, false])
})

t.test('both constant', async (t) => {
  t.same(run('=', [cst('INT', 1, 3), cst('INT', 1, 3)]), [true, true, true])
})
