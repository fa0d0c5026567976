/**
 * The parser's fast path for long VALUES and IN lists (lib/sql/fast-lists.ts) gives the very AST
 * the grammar gives: each statement of a corpus is parsed both ways and compared, and the
 * statements meant to take the fast path are checked to take it (and the others not).
 */
import t from 'tap'
import { allParses, parseStatement, parseStatements } from '../../../lib/sql/parse.js'
import { parseScriptAsync } from '../../../lib/sql/parse.js'
import { tokenize } from '../../../lib/sql/lexer.js'
import { shrinkLists } from '../../../lib/sql/fast-lists.js'
import { DEFAULT_PARSE_LIMITS } from '../../../lib/sql/limits.js'
import { CORPUS } from './corpus.js'

const many = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join(', ')

/** Statements the fast path takes. */
const FAST: readonly string[] = [
  'insert into t values (1, 2), (3, 4)',
  "insert into t (a, b, c) values (1, 'x', null), (-2, 'it''s', true), (+3, '', false)",
  "INSERT INTO \"my table\" VALUES (1.5, -2.5e10, 0x1f, 5L, NaN), (-1_000, 2147483648, -2147483648, 1e-3, .5)",
  "insert into t values (timestamp '2024-01-01T00:00:00Z', date '2024-01-02', 'a'::symbol), ('2024-01-01'::timestamp::long, -'1'::int, -5::double)",
  'insert into t values ($1, $2, $3), ($4, $5, $6), ($7, $8, $9)',
  "insert /* c */ into t -- comment\n values (1, 'a' /* in the middle */), -- trailing\n (2, 'b')",
  'insert atomic into t(x) values (1), (2), (3)',
  `insert into t values ${many(200, (i) => `(${i}, ${-i}.5, 'sym${i % 7}', '2024-01-01T00:00:${String(i % 60).padStart(2, '0')}.000000Z', null)`)}`,
  `select * from t where sym in (${many(20, (i) => `'s${i}'`)})`,
  `select * from t where sym not in (${many(20, (i) => `'s${i}'`)}) and x in (${many(9, (i) => String(-i))})`,
  `select * from t where x in (${many(10, (i) => `$${i + 1}`)})`,
  `select a from (select * from u where k in (${many(12, (i) => `${i}::long`)})) where b not in (${many(8, (i) => `'${i}'''`)})`,
  `update t set v = 1 where sym in (${many(30, (i) => `'h${i}'`)})`,
  `delete from t where x in (${many(16, String)})`,
  `select case when x in (${many(10, String)}) then 1 else 0 end from t`,
  `select * from t where ts in (${many(8, (i) => `timestamp '2024-01-0${i + 1}'`)})`,
  `insert into t select * from u where x in (${many(10, String)})`,
  `with q as (select * from u where x in (${many(10, String)})) select * from q`,
]

/** Statements with lists the fast path must leave to the grammar (or that have none). */
const GRAMMAR_ONLY: readonly string[] = [
  'insert into t values (1)',
  'insert into t values (1 + 2), (3, 4)',
  'insert into t values (1, 2), (now(), 4)',
  'insert into t values (1, 2), (x, 4)',
  "insert into t values (1, 'a'::varchar(10)), (2, 'b')",
  "insert into t values (1, 'a'::double precision), (2, 'b')",
  'insert into t values (1, (2)), (3, 4)',
  'insert into t select 1',
  `select * from t where x in (${many(7, String)})`,
  `select * from t where x in (${many(10, String)}, y)`,
  `select * from t where x in (${many(10, String)}, 1 + 1)`,
  'select * from t where x in (select 1)',
]

const json = (x: unknown): string => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))

t.test('fast path and grammar give the same AST', async (t) => {
  for (const sql of [...FAST, ...GRAMMAR_ONLY, ...CORPUS]) {
    const grammar = allParses(sql)
    if (grammar.length === 0) continue // not a statement the grammar takes on its own (checked below)
    // a view's `sql` (its body's text) is filled in after the parse, from the tokens: the grammar leaves it empty
    const fast = parseStatement(sql)
    const same = fast.kind === 'create_view' || (fast.kind === 'mat_view' && fast.op === 'create') ? { ...fast, sql: '' } : fast
    t.equal(json(same), json(grammar[0]), sql.slice(0, 120))
  }
})

t.test('the statements meant for the fast path take it, the others do not', async (t) => {
  for (const sql of FAST) t.not(shrinkLists(tokenize(sql)), undefined, `fast: ${sql.slice(0, 80)}`)
  for (const sql of GRAMMAR_ONLY) t.equal(shrinkLists(tokenize(sql)), undefined, `grammar: ${sql.slice(0, 80)}`)
})

t.test('the async parse takes the same path', async (t) => {
  const big = `insert into t values ${many(3000, (i) => `(${i}, 'x${i}', -${i}.25)`)}; select * from t where s in (${many(5000, (i) => `'v${i}'`)})`
  let pauses = 0
  const out = await parseScriptAsync(big, DEFAULT_PARSE_LIMITS, async () => { pauses++ })
  t.equal(json(out.map((p) => p.statement)), json(parseStatements(big)))
  t.ok(pauses > 2, 'the scan yields between slices')
  const ins = out[0]!.statement
  t.equal(ins.kind === 'insert' && ins.source.kind === 'values' ? ins.source.rows.length : -1, 3000)
})

t.test('syntax errors are the grammar\'s', async (t) => {
  const cases = [
    'insert into t values (1, 2), (3, 4) garbage',
    'insert into t values (1, 2), (3, 4),',
    `select * from t where x in (${many(10, String)}) frm u`,
    `select * from t where x in (${many(10, String)}`,
    'insert into t values (1, 2) (3, 4)',
  ]
  for (const sql of cases) {
    const e = (() => { try { parseStatement(sql); return undefined } catch (err) { return err as { code: string; position: number; message: string } } })()
    t.ok(e, `fails: ${sql}`)
    t.equal(e?.code, '42601', sql)
  }
  // the error of a statement cut for the fast path names the token of the full text
  const sql = `select * from t where x in (${many(10, String)}) frm u`
  try { parseStatement(sql); t.fail('parsed') } catch (err) {
    t.equal((err as { position: number }).position, sql.indexOf('frm'), 'at the offending token of the full text')
    t.match((err as Error).message, /unexpected 'frm', expected LATEST, SAMPLE/)
  }
})
