/**
 * The direct VALUES scanner (lib/sql/fast-values.ts) gives the very statements, spans and errors
 * of the token path: each text is parsed by `parseScript` / `parseScriptAsync` (which try the
 * scanner first) and by `parseByGrammar` (tokens, the list fast path and the grammar), and the
 * texts meant for the scanner are checked to take it (and the others not).
 */
import t from 'tap'
import { VALUES_SCAN_MIN_TEXT, parseByGrammar, parseScript as parseScriptAsIs, parseScriptAsync as parseScriptAsyncAsIs } from '../../../lib/sql/parse.js'
import { scanValues } from '../../../lib/sql/fast-values.js'
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from '../../../lib/sql/limits.js'

// texts shorter than VALUES_SCAN_MIN_TEXT are not tried by the scanner: the parses below pad the
// text with trailing blanks (which change neither the statements nor their spans) to reach it
const padded = (sql: string): string => sql.length >= VALUES_SCAN_MIN_TEXT ? sql : sql + ' '.repeat(VALUES_SCAN_MIN_TEXT)
const parseScript: typeof parseScriptAsIs = (sql, limits) => parseScriptAsIs(padded(sql), limits)
const parseScriptAsync: typeof parseScriptAsyncAsIs = (sql, limits, pause) => parseScriptAsyncAsIs(padded(sql), limits, pause)

const many = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join(', ')
const json = (x: unknown): string => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))

function scanned(sql: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): boolean {
  const steps = scanValues(sql, limits)
  for (;;) { const r = steps.next(); if (r.done === true) return r.value !== undefined }
}

/** Texts the scanner reads. */
const FAST: readonly string[] = [
  'insert into t values (1, 2), (3, 4)',
  "  INSERT INTO t (a, b, c) VALUES (1, 'x', null), (-2, 'it''s', true), (+3, '', false), (- 4, 'a''''b', FALSE);  \n",
  "insert into t values (1.5, 'x'), (2147483648, '2'), (-2147483648, 'y'), (9223372036854775807, 'z'), (0.000, '0'), (007, 'o'), (NaN, 'n'), (-NaN, 'm'), (-null, 'p')",
  "insert into t values (timestamp '2024-01-01', 1::int), (1, 2)",
  'insert into t values ($1, $2), (1, 2)',
  "insert /* c */ into \"my t\" -- c\n values (1, 'a'), (2, 'b')",
  'insert atomic into t(x) values (1), (2), (3)',
  "insert into t values ('multi\nline', 1),\n\t(\r\n'x'\t,\r\n2\n)\n",
  `INSERT INTO cpu VALUES ${many(300, (i) => `('host_${i % 7}', ${i}.${i % 10}, ${(i * 7919) % 100}, '2016-01-01 00:00:${String(i % 60).padStart(2, '0')}')`)}`,
]

/** Texts the scanner leaves to the token path (which may parse them or fail). */
const USUAL: readonly string[] = [
  'insert into t values (1)',
  'insert into t values (1, 2)',
  'insert into t values (1, 2), (3 + 1, 4)',
  'insert into t values (1, 2), (now(), 4)',
  'insert into t values (1, 2), (x, 4)',
  "insert into t values (1, 2), ('a'::symbol, 4)",
  'insert into t values (1, 2), ($1, 4)',
  'insert into t values (1, 2), (1_000, 4)',
  'insert into t values (1, 2), (1e5, 4)',
  'insert into t values (1, 2), (.5, 4)',
  'insert into t values (1, 2), (1., 4)',
  'insert into t values (1, 2), (0x1f, 4)',
  'insert into t values (1, 2), (5L, 4)',
  'insert into t values (1, 2), (1.5m, 4)',
  "insert into t values (1, 2), (timestamp '2024-01-01', 4)",
  'insert into t values (1, 2), (3, 4) -- trailing comment',
  'insert into t values (1, 2), /* c */ (3, 4)',
  'insert into t values (1, 2), (3, 4); select 1',
  'insert into t values (1, 2), (3, 4) garbage',
  'insert into t values (1, 2), (3, 4),',
  'insert into t values (1, 2), (3, 4',
  "insert into t values (1, 2), ('open, 4)",
  'insert into t values (1, 2) (3, 4)',
  'insert into t values (1, 2), (nullx, 4)',
  'insert into t values (1, 2), (null$, 4)',
  'insert into t values (1, 2), (\u00e9, 4)',
  'insert into t values (1, 2), (3, 4)\f',
  'insert into t values (1, 2), ((3), 4)',
  'insert into t select 1, 2',
  'insert into t with q as (select 1) select * from q',
  'insert into t (a, values (1, 2), (3, 4)',
  'insertx into t values (1, 2), (3, 4)',
  'select 1',
  '',
]

/** Texts the scanner reads whose head the grammar refuses: the token path reports the error. */
const HEAD_ERRORS: readonly string[] = [
  'insert into t values (1 2), (3, 4)',
  'insert into t values (1, 2, , 3), (3, 4)',
  'insert into nope values (), (3, 4)',
]

type Outcome = { ok: string } | { code: string; message: string; position: number | undefined }

function outcome(f: () => unknown): Outcome {
  try { return { ok: json(f()) } } catch (e) {
    const err = e as { code: string; message: string; position?: number }
    return { code: err.code, message: err.message, position: err.position }
  }
}

/** parseScript's statements and spans, through the token path only. */
function byTokens(sql: string): unknown {
  const stmts = parseByGrammar(sql)
  return stmts.map((statement) => {
    const text = sql.trim().replace(/;\s*$/, '')
    const start = sql.indexOf(text)
    return { statement, start, end: start + text.length, text }
  })
}

t.test('the scanner reads the texts meant for it and no other', async (t) => {
  for (const sql of FAST) t.ok(scanned(sql), `fast: ${sql.slice(0, 80)}`)
  for (const sql of USUAL) t.notOk(scanned(sql), `usual: ${sql.slice(0, 80)}`)
})

t.test('same statements, spans and errors both ways', async (t) => {
  for (const sql of [...FAST, ...USUAL, ...HEAD_ERRORS]) {
    const want = outcome(() => byTokens(padded(sql)))
    if (scanned(sql) || 'code' in want) {
      t.same(outcome(() => parseScript(sql)), want, `sync: ${sql.slice(0, 80)}`)
      t.same(await parseScriptAsync(sql, DEFAULT_PARSE_LIMITS, async () => {}).then((r) => ({ ok: json(r) }), (e: { code: string; message: string; position?: number }) => ({ code: e.code, message: e.message, position: e.position })), want, `async: ${sql.slice(0, 80)}`)
    } else {
      // statements with several parts or none: compare the statements alone
      t.equal(json(parseScript(sql).map((p) => p.statement)), json(parseByGrammar(sql)), `statements: ${sql.slice(0, 80)}`)
    }
  }
})

t.test('random rows of literals, both ways', async (t) => {
  let seed = 7
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n }
  const ITEMS = ["'a'", "'it''s'", "''", '0', '12', '-3', '+4', '1.25', '-0.5', '2147483648', 'null', 'TRUE', 'false', 'NaN', '- 7', "'x,y)'", '99999999999999999999']
  const SPACE = ['', ' ', '\n', '  \t']
  for (let n = 0; n < 200; n++) {
    const width = 1 + rnd(4)
    const rows = Array.from({ length: 2 + rnd(6) }, () => `(${Array.from({ length: width }, () => SPACE[rnd(4)]! + ITEMS[rnd(ITEMS.length)]! + SPACE[rnd(4)]!).join(',')})`)
    const sql = `insert into t values ${rows.join(SPACE[rnd(4)] + ',' + SPACE[rnd(4)])}${rnd(2) === 0 ? ';' : ''}`
    t.ok(scanned(sql), 'takes the scanner')
    const want = outcome(() => byTokens(padded(sql)))
    const got = outcome(() => parseScript(sql))
    if (json(got) !== json(want)) t.fail(`${sql}\n got ${json(got)}\nwant ${json(want)}`)
  }
})

t.test('over the limits: the token path reports it', async (t) => {
  const sql = `insert into t values ${many(12, (i) => `(${i}, -${i})`)}`
  for (const limits of [{ ...DEFAULT_PARSE_LIMITS, maxListItems: 10 }, { ...DEFAULT_PARSE_LIMITS, maxDepth: 2 }]) {
    t.notOk(scanned(sql, limits))
    t.same(outcome(() => parseScript(sql, limits)), outcome(() => parseByGrammar(sql, limits)))
    t.match(outcome(() => parseScript(sql, limits)), { code: '54001' })
  }
  const wide = `insert into t values (${many(12, String)}), (${many(12, String)})`
  t.notOk(scanned(wide, { ...DEFAULT_PARSE_LIMITS, maxListItems: 11 }))
  t.ok(scanned(wide, { ...DEFAULT_PARSE_LIMITS, maxListItems: 12 }))
})

t.test('a short INSERT is not tried by the scanner', async (t) => {
  const sql = 'insert into t values (1, 2), (3, 4)'
  t.ok(scanned(sql), 'the scanner would read it')
  t.equal(json(parseScriptAsIs(sql).map((p) => p.statement)), json(parseByGrammar(sql)))
})

t.test('a long statement yields between slices of rows', async (t) => {
  const sql = `insert into t values ${many(3000, (i) => `(${i}, 'x${i}', -${i}.25)`)}`
  let pauses = 0
  const out = await parseScriptAsync(sql, DEFAULT_PARSE_LIMITS, async () => { pauses++ })
  t.ok(pauses >= 10, `paused ${pauses} times`)
  t.equal(json(out), json(byTokens(sql)))
})
