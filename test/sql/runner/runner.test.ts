import t from 'tap'
import { SqlError, SqlState } from '../../../lib/errors.js'
import { compareRows, tokensEqual } from './compare-rows.js'
import { completeSlt } from './complete-slt.js'
import { formatValue, normaliseQuestDbTimestamps } from './format-value.js'
import { parseSlt, SltSyntaxError } from './parse-slt.js'
import { runSlt } from './run-slt.js'
import type { QueryResult, SltDatabase } from './slt-types.js'

/** A database that answers from a table of canned results. */
function fakeDb(answers: Record<string, QueryResult | Error>): SltDatabase {
  return {
    async query(sql: string): Promise<QueryResult> {
      const a = answers[sql]
      if (a === undefined) return { columns: [], rows: [], rowCount: 0 }
      if (a instanceof Error) throw a
      return a
    },
    async close(): Promise<void> {},
  }
}

const twoRows: QueryResult = {
  columns: [{ name: 'x', type: 'LONG' }, { name: 's', type: 'STRING' }, { name: 'd', type: 'DOUBLE' }],
  rows: [[1n, 'a b', 30], [2n, '', null]],
  rowCount: 2,
}

t.test('parses records, conditions and error expectations', async t => {
  const recs = parseSlt([
    '# comment', 'statement ok', 'CREATE TABLE t (x INT)', '',
    'skipif epochdb', 'statement error 42P01 table does not exist', 'select * from nope', '',
    'query IT rowsort lbl', 'select 1,', "  'a'", '----', '1 a', '',
    'statement error', 'select 1/', '----', 'db error: ERROR: unexpected end', '',
    'query error', 'x', '----', 'db error: ERROR: boom', '',
    'halt',
  ].join('\n'))
  t.same(recs.map(r => r.kind), ['statement-ok', 'statement-error', 'query', 'statement-error', 'statement-error', 'halt'])
  t.same(recs[1], { kind: 'statement-error', line: 6, conditions: [{ kind: 'skipif', engine: 'epochdb' }], sql: 'select * from nope', expected: { code: '42P01', message: 'table does not exist' } })
  const q = recs[2]!
  t.equal(q.kind, 'query')
  if (q.kind === 'query') {
    t.equal(q.sql, "select 1,\n  'a'")
    t.equal(q.sort, 'rowsort')
    t.equal(q.label, 'lbl')
    t.same(q.expected, ['1 a'])
    t.equal(q.expectedStart, 12)
  }
  const e = recs[3]!
  if (e.kind === 'statement-error') t.same(e.expected, { message: 'unexpected end' })
  t.throws(() => parseSlt('statement maybe\nselect 1\n'), SltSyntaxError)
})

t.test('formats values in QuestDB text forms', async t => {
  t.equal(formatValue(30, 'DOUBLE', 'epochdb'), '30.0')
  t.equal(formatValue(1e7, 'DOUBLE', 'epochdb'), '1.0E7')
  t.equal(formatValue(30, 'DOUBLE', 'questdb'), '30.000000')
  t.equal(formatValue(1704067200000000n, 'TIMESTAMP', 'epochdb'), '2024-01-01T00:00:00.000000Z')
  t.equal(formatValue(new Date(Date.UTC(2020, 0, 1)), 'DATE', 'epochdb'), '2020-01-01T00:00:00.000Z')
  t.equal(formatValue(null, 'INT', 'epochdb'), 'NULL')
  t.equal(formatValue('', 'STRING', 'epochdb'), '(empty)')
  t.equal(formatValue(true, 'BOOLEAN', 'epochdb'), 'true')
  t.equal(formatValue(-5n, 'LONG', 'epochdb'), '-5')
  t.equal(formatValue(new Uint8Array([1, 255]), 'BINARY', 'epochdb'), '01ff')
  t.equal(normaliseQuestDbTimestamps('a 2024-12-02 18:00:00 0.1'), 'a 2024-12-02T18:00:00.000000Z 0.1')
  t.equal(normaliseQuestDbTimestamps('2020-01-01T00:00:00.000Z'), '2020-01-01T00:00:00.000000Z')
})

t.test('compares numbers by value and text exactly', async t => {
  t.ok(tokensEqual('30.0', '30', 'epochdb'))
  t.ok(tokensEqual('0.1', '0.1000000000000001', 'epochdb'))
  t.notOk(tokensEqual('0.1', '0.1001', 'epochdb'))
  t.ok(tokensEqual('8320.666667', '8320.6666666667', 'questdb'))
  t.ok(tokensEqual('9007199254740993', '9007199254740993', 'epochdb'))
  t.notOk(tokensEqual('9007199254740993', '9007199254740992', 'epochdb'))
  t.notOk(tokensEqual('abc', 'abd', 'epochdb'))
  t.ok(compareRows(['1 a b 30.0', '2 (empty) NULL'], [['1', 'a b', '30.0'], ['2', '(empty)', 'NULL']], 'nosort', 'epochdb').ok)
  t.ok(compareRows(['2\tx', '1\ty z'], [['1', 'y z'], ['2', 'x']], 'rowsort', 'epochdb').ok)
  t.notOk(compareRows(['2\tx', '1\ty z'], [['1', 'y z'], ['2', 'x']], 'nosort', 'epochdb').ok)
  t.ok(compareRows(['1', '2', '3'], [['3', '1'], ['2']], 'valuesort', 'epochdb').ok)
  t.equal(compareRows(['1'], [], undefined, 'epochdb').reason, 'expected 1 rows, got 0')
  // questdb flavor: whitespace collapsed as sqllogictest-rs does, a line may mix a tab and spaces
  t.ok(compareRows(['NULL        NULL    10\t2020-01-03T00:00:00.000000Z'], [['NULL', 'NULL', '10', '2020-01-03T00:00:00.000000Z']], 'nosort', 'questdb').ok)
  t.ok(compareRows(['New York\t3'], [['New York', '3']], 'nosort', 'questdb').ok)
  t.notOk(compareRows(['NULL NULL\t11 x'], [['NULL', 'NULL', '10', 'x']], 'nosort', 'questdb').ok)
  t.notOk(compareRows(['NULL        NULL    10\t2020-01-03T00:00:00.000000Z'], [['NULL', 'NULL', '10', '2020-01-03T00:00:00.000000Z']], 'nosort', 'epochdb').ok)
})

t.test('runs records and reports file:line failures', async t => {
  const db = fakeDb({
    'select x, s, d from t': twoRows,
    'select x, s, d from t order by x': twoRows,
    'select * from nope': new SqlError(SqlState.UNDEFINED_TABLE, 'table does not exist [table=nope]', 14),
    'crash': new TypeError('x is undefined'),
  })
  const text = [
    'query ITR nosort', 'select x, s, d from t', '----', '1 a b 30.0', '2 (empty) NULL', '',
    'query ITR', 'select x, s, d from t', '----', '1 a b 30.0', '2 (empty) NULL', '',
    'query ITR', 'select x, s, d from t order by x', '----', '1\ta b\t30.0', '2\t(empty)\tNULL', '',
    'query IIR nosort', 'select x, s, d from t', '----', '1 a b 30.0', '2 (empty) NULL', '',
    'statement error 42P01 table does not exist', 'select * from nope', '',
    'statement error 42703', 'select * from nope', '',
    'statement error', 'crash', '',
    'statement ok', 'crash', '',
    'onlyif duckdb', 'statement ok', 'crash', '',
    'query I nosort', 'select x, s, d from t', '----', '1', '',
  ].join('\n')
  const out = await runSlt(parseSlt(text), db, { file: 'f.test', flavor: 'epochdb' })
  t.same(out.outcomes.map(o => `${o.line}:${o.status}`), [
    '1:pass', '7:fail', '13:pass', '19:fail', '25:pass', '28:fail', '31:fail', '34:fail', '38:skip', '41:fail',
  ])
  t.match(out.outcomes[1]!.message, /^f\.test:7: a query with more than one row needs ORDER BY/)
  t.match(out.outcomes[3]!.message, /column 2 \(s\) is STRING, declared I/)
  t.match(out.outcomes[5]!.message, /expected: 42703\nactual: {3}42P01 table does not exist/)
  t.match(out.outcomes[6]!.message, /expected a SqlError \(\(any error\)\), got TypeError/)
  t.match(out.outcomes[9]!.message, /declares 1 columns/)
  t.equal(out.passed, 3)
  t.equal(out.failed, 6)
  t.equal(out.skipped, 1)
})

t.test('questdb flavor: a PRAGMA statement is skipped, as QuestDB\'s runner does', async t => {
  const text = 'statement ok\nPRAGMA enable_verification\n\nstatement ok\nPRAGMA enable_verification\n'
  const db: SltDatabase = { query: () => Promise.reject(new SqlError(SqlState.SYNTAX_ERROR, 'no', 0)), close: () => Promise.resolve() }
  const out = await runSlt(parseSlt(text), db, { file: 'p.test', flavor: 'questdb' })
  t.same([out.passed, out.failed, out.skipped], [0, 0, 2])
  const ours = await runSlt(parseSlt(text), db, { file: 'p.test', flavor: 'epochdb' })
  t.same([ours.passed, ours.failed, ours.skipped], [0, 2, 0])
})

t.test('questdb flavor: 6-decimal reals, pg timestamps, require skips the rest', async t => {
  const db = fakeDb({
    q: { columns: [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'v', type: 'DOUBLE' }], rows: [[1733162400000000n, 1 / 3]], rowCount: 1 },
  })
  const text = 'query I\nq\n----\n2024-12-02 18:00:00 0.333333\n\nrequire parquet\n\nstatement ok\nq\n'
  const out = await runSlt(parseSlt(text), db, { file: 'q.test', flavor: 'questdb' })
  t.same(out.outcomes.map(o => o.status), ['pass', 'skip'])
})

t.test('questdb flavor: require of a feature the runner has runs the rest of the file', async t => {
  const db = fakeDb({
    q: { columns: [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'v', type: 'DOUBLE' }], rows: [[1733162400000000n, 1 / 3]], rowCount: 1 },
  })
  const text = 'require parquet\n\nquery I\nq\n----\n2024-12-02 18:00:00 0.333333\n\nrequire vss\n\nquery I\nq\n----\nx\n'
  const out = await runSlt(parseSlt(text), db, { file: 'q.test', flavor: 'questdb', features: new Set(['parquet']) })
  t.same(out.outcomes.map(o => o.status), ['pass', 'skip'], 'parquet is had, vss is not')
  const none = await runSlt(parseSlt(text), db, { file: 'q.test', flavor: 'questdb' })
  // once skipping, the later require line is itself counted as a skipped record
  t.same(none.outcomes.map(o => o.status), ['skip', 'skip', 'skip'])
})

t.test('completion rewrites expected rows', async t => {
  const db = fakeDb({ 'select x, s, d from t order by x': twoRows })
  const text = 'query ITR\nselect x, s, d from t order by x\n----\nold\n\nquery ITR\nselect x, s, d from t order by x\n\n'
  const recs = parseSlt(text)
  const out = await runSlt(recs, db, { file: 'c.test', flavor: 'epochdb' })
  const done = completeSlt(text, recs, out)
  t.equal(done, 'query ITR\nselect x, s, d from t order by x\n----\n1\ta b\t30.0\n2\t(empty)\tNULL\n\nquery ITR\nselect x, s, d from t order by x\n----\n1\ta b\t30.0\n2\t(empty)\tNULL\n\n')
  const again = await runSlt(parseSlt(done), db, { file: 'c.test', flavor: 'epochdb' })
  t.equal(again.failed, 0)
})

t.test('colnames: the first expected row is the column names', async t => {
  const db = fakeDb({ 'select x, s, d from t order by x': twoRows })
  const ok = 'query ITR colnames\nselect x, s, d from t order by x\n----\nx s d\n1 a b 30.0\n2 (empty) NULL\n'
  t.equal((await runSlt(parseSlt(ok), db, { file: 'n.test', flavor: 'epochdb' })).passed, 1)
  const bad = 'query ITR colnames\nselect x, s, d from t order by x\n----\nx s e\n1 a b 30.0\n2 (empty) NULL\n'
  const out = await runSlt(parseSlt(bad), db, { file: 'n.test', flavor: 'epochdb' })
  t.match(out.outcomes[0]!.message, /column names differ/)
})
