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

t.test('regex is linear-time: (a+)+$ on a long non-matching value answers at once', async (t) => {
  // sized so that a backtracking engine takes seconds (and this test fails, not hangs)
  const bomb = 'a'.repeat(26) + '!'
  const started = Date.now()
  t.same(run('~', [vec('STRING', [bomb, 'aaa']), cst('STRING', '(a+)+$')]), [false, true])
  t.same(run('regexp_replace', [vec('STRING', ['a'.repeat(24) + '!']), cst('STRING', '(a+)+$'), cst('STRING', 'x')]), ['a'.repeat(24) + '!'])
  t.ok(Date.now() - started < 1000, 'did not backtrack')
})

t.test('regex keeps Java syntax RE2 has; refuses what needs backtracking at the pattern', async (t) => {
  const s = vec('STRING', ['Straße 12', 'a.b', 'ABC'])
  t.same(run('~', [s, cst('STRING', '\\p{L}+ \\d+')]), [true, false, false])
  t.same(run('~', [s, cst('STRING', '[[:upper:]]{3}')]), [false, false, true])
  t.same(run('~', [s, cst('STRING', '\\Qa.b\\E')]), [false, true, false])
  t.same(run('~', [s, cst('STRING', '(?i)abc')]), [false, false, true])
  for (const [p, what] of [['(a)\\1', 'backreferences'], ['a(?=b)', 'lookahead'], ['(?<!a)b', 'lookbehind'], ['a++', 'possessive'], ['(?>a)', 'atomic'], ['[a-z&&[^e]]', 'intersection']] as const) {
    t.throws(() => run('~', [s, cst('STRING', p)]), { name: 'SqlError', code: '22023', position: 15, message: new RegExp(what) }, p)
  }
  t.same(run('regexp_replace', [vec('STRING', ['a1b22']), cst('STRING', '([0-9]+)'), cst('STRING', '<$1>')]), ['a<1>b<22>'])
})

t.test('LIKE is linear-time: many % over a long value', async (t) => {
  // sized so that a backtracking RegExp takes seconds (and this test fails, not hangs)
  const long = 'a'.repeat(250)
  const p = '%a%a%a%b'
  const started = Date.now()
  t.notOk(compileLike(p, false)(long))
  t.ok(compileLike(p, false)(long + 'b'))
  t.ok(Date.now() - started < 1000, 'did not backtrack')
  t.ok(compileLike('a_c%', false)('a😀c!'), '_ is one character, a surrogate pair too')
  t.ok(compileLike('%_b_%', true)('xXBxx'))
  t.notOk(compileLike('a%b%a', false)('ab'))
  t.ok(compileLike('a%b%a', false)('aba'))
  t.ok(compileLike('%a%%', false)('ba'))
})
