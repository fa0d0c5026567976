import t from 'tap'
import { RE2JS } from 're2js'
import { fastRegex } from '../../../../lib/functions/scalar/regex-fast.js'

t.test('linear-safe patterns take the fast path, the rest stay with RE2', async (t) => {
  for (const p of ['^BTC', 'USD$', 'abc|def', '^1.*5$', '^[a-z]+-\\d$', 'a\\.b', '[^,]x', '^x?y', '.', '^\\w+\\$$']) {
    t.ok(fastRegex(p) !== undefined, `fast: ${p}`)
  }
  for (const p of ['(a+)+$', 'a.*b', '^a*b*', '^a?a?', 'a+', '^a*|b', '\\s', '[[:alpha:]]', 'a{2}', '(?i)a', '[]a]', 'a*?',
    '\\bx', '\\p{L}', 'a\\1', '\\Qa\\E', '^a+$|^b', 'x^', '$x', '[a&&b]']) {
    t.equal(fastRegex(p), undefined, `RE2: ${p}`)
  }
})

t.test('the fast path finds exactly what RE2 finds', async (t) => {
  const patterns = ['^BTC', 'USD$', 'ab|c', '^1.*5$', '^[a-c]+\\d$', 'a\\.b', '[^,]c', '^x?y', '.', '^.$', '^\\w+$', '\\W', '^[^,]*$',
    '^a.c', 'é.', '^.*😀$', '^[😀-😂]+$', '^\\D+', '[\\d,]c$']
  const alphabet = ['a', 'b', 'c', '1', '5', 'x', 'y', '.', ',', '\n', '\r', ' ', 'é', '😀', '\u2028', 'B', 'T', 'C', '_']
  let seed = 42
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n }
  const values = ['', 'BTC-USD', '1xx5', '15', 'a.b', '😀', 'é😀']
  for (let i = 0; i < 400; i++) values.push(Array.from({ length: rnd(8) }, () => alphabet[rnd(alphabet.length)]!).join(''))
  let compared = 0
  for (const p of patterns) {
    const fast = fastRegex(p)
    t.ok(fast !== undefined, `fast: ${p}`)
    const re2 = RE2JS.compile(p)
    const differ = values.filter((v) => fast!.test(v) !== re2.test(v))
    t.same(differ, [], `${p}: same answers on ${values.length} values`)
    compared += values.length
  }
  t.ok(compared > 5000)
})

t.test('an anchored single quantifier stays linear on a value that almost matches', async (t) => {
  const re = fastRegex('^a*b')!
  const started = Date.now()
  t.equal(re.test('a'.repeat(1_000_000) + 'c'), false)
  t.ok(Date.now() - started < 2000, `${Date.now() - started} ms for 1M characters`)
})
