/**
 * The async parser's passes over a long statement pause in bounded steps of work (issue #12:
 * a 150,000-item IN list must not hold the event loop for the length of any one pass). Each
 * pass is a generator; these tests count its yields, which is the work bound, not a timing.
 */
import t from 'tap'
import { tokenize } from '../../../lib/sql/lexer.js'
import { shrinkSteps } from '../../../lib/sql/fast-lists.js'
import { checkTokenSteps, checkTokens, DEFAULT_PARSE_LIMITS } from '../../../lib/sql/limits.js'
import { parseScriptAsync, parseStatement } from '../../../lib/sql/parse.js'

const N = 100_000
const inList = `select count() from long_sequence(10) where x in (${Array.from({ length: N }, (_, i) => String(i)).join(',')})`
const tokens = tokenize(inList)

const yields = <R>(g: Generator<void, R>): { count: number; value: R } => {
  let count = 0
  for (;;) {
    const r = g.next()
    if (r.done === true) return { count, value: r.value }
    count++
  }
}

t.test('one long IN list is scanned in steps, not in one go', async (t) => {
  const { count, value } = yields(shrinkSteps(tokens))
  t.ok(value !== undefined, 'the list takes the fast path')
  // 4,096 items per step: a single list of 100k items pauses ~24 times (it paused once, after the list)
  t.ok(count >= Math.floor(N / 4096), `yields ${count} times`)
})

t.test('the limits check pauses every 16k tokens and still refuses what it refused', async (t) => {
  const { count } = yields(checkTokenSteps(tokens, DEFAULT_PARSE_LIMITS))
  t.ok(count >= Math.floor(tokens.length / 16384), `yields ${count} times over ${tokens.length} tokens`)
  const deep = tokenize(`select ${Array.from({ length: 1500 }, () => '1').join('+')}`)
  t.throws(() => checkTokens(deep, DEFAULT_PARSE_LIMITS), { code: '54001' })
  const steps = checkTokenSteps(deep, DEFAULT_PARSE_LIMITS)
  t.throws(() => { while (steps.next().done !== true) { /* run */ } }, { code: '54001' })
  const many = tokenize(`select 1 from t where x in (${Array.from({ length: 20 }, () => '1').join(',')})`)
  t.throws(() => checkTokens(many, { ...DEFAULT_PARSE_LIMITS, maxListItems: 10 }), { code: '54001' })
})

t.test('the async parse gives the same tree, its list items in order, and pauses throughout', async (t) => {
  let pauses = 0
  const [parsed] = await parseScriptAsync(inList, DEFAULT_PARSE_LIMITS, async () => { pauses++ })
  const sync = parseStatement(inList)
  t.same(parsed!.statement, sync)
  const where = (sync as unknown as { where: { list: { text: string }[] } }).where
  t.equal(where.list.length, N)
  t.same([where.list[0]!.text, where.list[1]!.text, where.list[N - 1]!.text], ['0', '1', String(N - 1)])
  t.ok(pauses >= Math.floor(N / 4096) + Math.floor(tokens.length / 16384), `${pauses} pauses`)
})

t.test('several statements split at their semicolons', async (t) => {
  const parsed = await parseScriptAsync(`select 1; ${inList}; select 2;`, DEFAULT_PARSE_LIMITS, async () => {})
  t.same(parsed.map((p) => p.statement.kind), ['select', 'select', 'select'])
  t.equal(parsed[1]!.text, inList)
})
