import t from 'tap'
import { SymbolTable, vectorOf } from '../../../../lib/types/vector.js'
import { compileLike } from '../../../../lib/functions/scalar/like.js'
import { cst, run, vec } from './helpers.js'

t.test('compileLike', async (t) => {
  t.ok(compileLike('BTC%', false)('BTC-USD'))
  t.notOk(compileLike('BTC%', false)('btc-usd'))
  t.ok(compileLike('%usd', true)('BTC-USD'))
  t.ok(compileLike('%C-U%', false)('BTC-USD'))
  t.ok(compileLike('B_C%D', false)('BTC-USD'))
  t.notOk(compileLike('B_C', false)('BTCX'))
  t.ok(compileLike('100\\%', false)('100%'))
  t.notOk(compileLike('100\\%', false)('1000'))
  t.ok(compileLike('a.c', false)('a.c'))
  t.notOk(compileLike('a.c', false)('abc'))
  t.ok(compileLike('%', false)(''))
  t.ok(compileLike('a%b%c', false)('a-b-c'))
  t.ok(compileLike('line1%', false)('line1\nline2'))
})

t.test('like / ilike kernels', async (t) => {
  const s = vec('STRING', ['BTC-USD', 'ETH-USD', null])
  t.same(run('like', [s, cst('STRING', 'BTC%')]), [true, false, false])
  t.same(run('ilike', [s, cst('STRING', 'eth%')]), [false, true, false])
  t.same(run('like', [s, cst('STRING', null)]), [false, false, false])
  t.same(run('like', [s, vec('STRING', ['%USD', 'X%', '%'])]), [true, false, false])
  const dict = new SymbolTable()
  dict.intern('BTC-USD'); dict.intern('ETH-USD')
  const sym = vectorOf('SYMBOL', new Int32Array([1, 0, -1, 1]), 4, dict)
  t.same(run('like', [sym, cst('STRING', '%TH%')]), [true, false, false, true])
})

t.test('regex match', async (t) => {
  const s = vec('VARCHAR', ['BTC-USD', 'ETH-EUR', null])
  t.same(run('~', [s, cst('STRING', 'USD$')]), [true, false, false])
  t.same(run('!~', [s, cst('STRING', 'USD$')]), [false, true, false])
  t.same(run('~', [s, cst('STRING', '(?i)^eth')]), [false, true, false])
  t.throws(() => run('~', [s, cst('STRING', '(')]), { name: 'SqlError', code: '22023', position: 15 })
})
