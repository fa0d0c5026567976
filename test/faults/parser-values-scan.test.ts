/**
 * Hostile INSERT texts against the VALUES scanner (lib/sql/fast-values.ts): a long statement
 * spoiled at its very end, a list over the limits and a flood of tiny rows are answered as the
 * token path answers them, in one linear pass, and the async parse keeps yielding.
 */
import t from 'tap'
import { DEFAULT_PARSE_LIMITS } from '../../lib/sql/limits.js'
import { parseByGrammar, parseScript, parseScriptAsync } from '../../lib/sql/parse.js'

const rows = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join(', ')
const failure = (f: () => unknown): { code?: string; position?: number; message?: string } => {
  try { f(); return {} } catch (e) { const err = e as { code: string; position: number; message: string }; return { code: err.code, position: err.position, message: err.message } }
}

t.test('a 1.9 MB INSERT spoiled at its end fails where the token path fails', async (t) => {
  const body = rows(24000, (i) => `('host_${i % 100}', ${i}.5, '2016-01-01 00:00:00')`)
  for (const tail of [", ('unterminated", ', (1, 2) garbage', ', (1, 2),', ', (1 2)']) {
    const sql = `INSERT INTO cpu VALUES ${body}${tail}`
    const started = Date.now()
    const got = failure(() => parseScript(sql))
    t.ok(Date.now() - started < 60_000, 'did not freeze')
    t.equal(got.code, '42601', tail)
    t.same(got, failure(() => parseByGrammar(sql)), `same error as the token path: ${tail}`)
  }
})

t.test('rows over the list limit are refused with 54001, not scanned', async (t) => {
  const limits = { ...DEFAULT_PARSE_LIMITS, maxListItems: 1000 }
  const sql = `INSERT INTO t VALUES ${rows(1001, (i) => `(${i})`)}`
  const got = failure(() => parseScript(sql, limits))
  t.equal(got.code, '54001')
  t.same(got, failure(() => parseByGrammar(sql, limits)))
})

t.test('a flood of tiny rows parses, and the async parse yields throughout', async (t) => {
  const sql = `INSERT INTO t VALUES ${rows(200_000, (i) => `(${i % 10})`)}`
  let pauses = 0
  const out = await parseScriptAsync(sql, DEFAULT_PARSE_LIMITS, async () => { pauses++ })
  const s = out[0]!.statement
  t.equal(s.kind === 'insert' && s.source.kind === 'values' ? s.source.rows.length : -1, 200_000)
  t.ok(pauses >= 500, `paused ${pauses} times`)
})
