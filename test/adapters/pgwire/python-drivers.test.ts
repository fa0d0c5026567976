/**
 * The real Python drivers against the adapter: psycopg2, psycopg 3 (text and binary, streaming,
 * named cursors, prepared statements, pipeline mode) and asyncpg (binary codecs of every type,
 * prepared statements, cursors). Each runs a probe script of python/ (see python.ts) against
 * one server over the seeded `t` table; a driver that is not installed skips its test with
 * the reason (Debian: python3-psycopg2, python3-psycopg, python3-asyncpg).
 */
import t, { type Test } from 'tap'
import { startServer } from './helpers.js'
import { missingModules, runProbe } from './python.js'

const srv = await startServer()
t.teardown(() => srv.close())
const MODULES = ['psycopg2', 'psycopg', 'asyncpg'] as const
const missing = Object.fromEntries(await Promise.all(MODULES.map(async (m) => [m, await missingModules([m])] as const)))

/** The seeded row of every type, as the probes print it (probe.py `plain`). */
const ROW = [
  'datetime:2024-01-01T00:00:00.000001', 'a', 'float:1.5', 3, 'int:9007199254740993', true, 'héllo', 'datetime:2024-01-02T00:00:00',
  'uuid:11111111-2222-3333-4444-555555555555', 'x', '1.2.3.4', 'float:2.5', 7,
]
/** The seeded row of nulls: BOOLEAN and SHORT have no null in QuestDB's types. */
const NULLS = ['datetime:2024-01-03T00:00:00', null, null, null, null, false, null, null, null, null, null, null, 0]
/** probe.py's EVERY_ROW after a round trip through a table. */
const EVERY = [
  'datetime:2024-01-01T12:30:45.123456', 'sym-a', 'float:1.25', 7, 'int:4611686018427387905', true, 'héllo ✓', 'datetime:2024-02-03T04:05:06',
  'uuid:11111111-2222-3333-4444-555555555555', 'c', '10.0.0.1', 'float:0.5', 12, 3, 'varchar', 'bytes:0001ff',
]

/** The [class, SQLSTATE] of an error a probe printed as [class, SQLSTATE, message]. */
const errorClassAndCode = (v: unknown): unknown => (Array.isArray(v) ? v.slice(0, 2) : v)

/** Runs a probe under a subtest that skips when `module` is missing; `body` asserts its checks. */
function driver(name: string, module: (typeof MODULES)[number], script: string, body: (t: Test, c: (check: string) => unknown) => void): void {
  const why = missing[module]
  t.test(name, why === undefined ? {} : { skip: `${module} is not installed: ${why}` }, async (t) => {
    const run = await runProbe(script, srv.port)
    if ('missing' in run) { t.fail(run.missing); return }
    t.equal(run.failure, undefined, `${script} ran to the end`)
    body(t, (check) => {
      if (!run.checks.has(check)) t.fail(`${script} printed no check '${check}'`)
      return run.checks.get(check)
    })
  })
}

driver('psycopg2', 'psycopg2', 'psycopg2_probe.py', (t, c) => {
  t.equal(c('server_version'), 110003, 'server_version from ParameterStatus')
  t.same(c('type_codes'), [1114, 1043, 701, 23, 20, 16, 1043, 1114, 2950, 1042, 1043, 700, 21], 'type OIDs of every column')
  t.same(c('row'), ROW, 'a value of every type')
  t.same(c('nulls'), NULLS, 'nulls')
  t.same(c('param_int_text'), [[3, 'héllo']], 'int and text parameters')
  t.same(c('param_timestamp'), [['a']], 'a timestamp parameter keeps its microseconds')
  t.same(c('param_uuid_bool_long'), [['a']], 'uuid, boolean and long parameters')
  t.same(c('param_null'), [1], 'a NULL parameter')
  t.same(c('error_column'), ['UndefinedColumn', '42703', 'Invalid column: nope'], 'an error has its SQLSTATE')
  t.same(errorClassAndCode(c('error_syntax')), ['SyntaxError', '42601'], 'a syntax error')
  t.same(c('after_error'), [42], 'the connection is usable after an error')
  t.same(errorClassAndCode(c('error_in_tx')), ['UndefinedColumn', '42703'], 'an error inside a transaction')
  t.same(errorClassAndCode(c('aborted_tx')), ['InFailedSqlTransaction', '25P02'], 'then the transaction is aborted')
  t.same(c('after_rollback'), [0], 'ROLLBACK discards the insert')
  t.same(c('executemany'), [500, 124750, 's0', 'datetime:2024-01-01T00:00:59.000479'], 'executemany insert, committed')
  t.same(c('every_row'), EVERY, 'a row of every type inserted with parameters (bytes as bytea hex) reads back equal')
})

driver('psycopg 3', 'psycopg', 'psycopg3_probe.py', (t, c) => {
  t.same(c('text_formats'), Array(13).fill(0), 'text mode: every column in text')
  t.same(c('binary_formats'), [1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1], 'binary mode: binary where the type has a binary form')
  for (const mode of ['text', 'binary']) {
    t.same(c(`${mode}_row`), ROW, `${mode}: a value of every type`)
    t.same(c(`${mode}_nulls`), NULLS, `${mode}: nulls`)
    t.same(c(`every_${mode}_same`), [true, true, true], `${mode}: rows inserted with %b, %t and %s parameters read back equal`)
  }
  t.same(c('every_row'), EVERY, 'the round-tripped row')
  t.same(c('binary_params'), [1099511627777, -5, 'float:2.5', false, 'datetime:2020-01-02T03:04:05.000006', 'uuid:0f23f033-8449-4318-b3c1-bf38fc5a218c', 300],
    'binary parameters of each type')
  t.same(c('bare_timestamp_params'), ['datetime:2024-01-02T03:04:05.678901', 'datetime:2024-01-02T03:04:05.000006', 'datetime:2024-02-29T00:00:00'],
    '`select $1` of a timestamptz, timestamp or date parameter answers a timestamp, to the microsecond')
  t.same(c('in_list'), [[['a']], [['a']], []], 'a list for IN (%s): text, binary, empty')
  t.same(c('uuid_text_param'), ['a'], 'a UUID text parameter without dashes (uuid.hex)')
  t.same(c('stream'), [100000, 5000050000], 'cursor.stream reads every row once')
  t.equal(c('stream_binary'), 2, 'a binary stream')
  t.same(c('named_cursor'), ['FeatureNotSupported', '0A000', 'DECLARE CURSOR is not supported: cursors are forward-only; read results as a stream'],
    'a named cursor (DECLARE) is refused with 0A000')
  t.same(c('after_named_cursor'), [7], 'the connection is usable after it')
  t.same([c('prepared_1'), c('prepared_2'), c('prepared_3')], [[10], [20], [30]], 'prepare=True, reused with new values')
  t.same(errorClassAndCode(c('prepared_error')), ['UndefinedColumn', '42703'], 'a prepared statement error')
  t.same(c('after_prepared_error'), [42], 'usable after it')
  t.same(c('pipeline'), [[20, 190], [42]], 'pipeline mode: inserts and queries sent before any result is read')
  t.same(errorClassAndCode(c('pipeline_error')), ['UndefinedColumn', '42703'], 'an error in a pipeline')
  t.same(c('after_pipeline_error'), [3], 'usable after it')
})

driver('asyncpg', 'asyncpg', 'asyncpg_probe.py', (t, c) => {
  t.same(c('row'), ROW, 'a value of every type (binary codecs)')
  t.same(c('nulls'), NULLS, 'nulls')
  t.same(c('fetchrow'), { i: 3, s: 'héllo', u: 'uuid:11111111-2222-3333-4444-555555555555' }, 'fetchrow with parameters')
  t.equal(c('fetchval'), 1, 'fetchval with a timestamp parameter')
  t.same(c('in_list'), [['text[]'], 3, []], 'IN ($1): described as text[], a list binds as an array')
  t.same(c('prepared_types'), [['int8'], [['x', 'int8'], ['d', 'float8'], ['even', 'bool']]], 'parameter and result types of a prepared statement')
  t.same(c('prepared_3'), [[1, 'float:2.5', false], [2, 'float:5.0', true], [3, 'float:7.5', false]], 'a prepared statement')
  t.same(c('prepared_1'), [[1, 'float:2.5', false]], 'reused with another value')
  t.same(c('insert_param_types'), ['timestamp', 'varchar', 'float8', 'int4', 'int8', 'bool', 'varchar', 'timestamp', 'uuid', 'bpchar', 'varchar', 'float4', 'int2', 'int2', 'varchar', 'bytea'],
    'INSERT parameter types inferred from the columns (DATE is a timestamp, as in results)')
  t.equal(c('every_same'), true, 'a row of every type through binary codecs reads back equal')
  t.same(c('every_row'), EVERY, 'the round-tripped row')
  t.same(c('every_nulls'), ['datetime:2024-01-02T00:00:00', null, null, null, null, false, null, null, null, null, null, null, 0, 0, null, null], 'nulls of every type')
  t.equal(c('every_where'), 1, 'uuid, ipv4, float, short, byte and date (with a time of day) parameters in WHERE')
  t.same(c('executemany'), [1000, 499500, 's999'], 'executemany')
  t.same(c('cursor_iter'), [50000, 1250025000], 'cursor iteration inside a transaction')
  t.same(c('cursor_fetch'), [91, 92, 93, 94, 95], 'cursor.fetch in chunks, with a parameter')
  t.same(c('error_column'), ['UndefinedColumnError', '42703', 'Invalid column: nope'], 'an error has its SQLSTATE')
  t.same(errorClassAndCode(c('error_syntax')), ['PostgresSyntaxError', '42601'], 'a syntax error')
  t.same(errorClassAndCode(c('error_table')), ['UndefinedTableError', '42P01'], 'an unknown table')
  t.equal(c('after_error'), 42, 'usable after errors')
  t.same(errorClassAndCode(c('error_in_tx')), ['UndefinedColumnError', '42703'], 'an error inside a transaction')
  t.equal(c('after_tx_rollback'), 0, 'rolls the transaction back')
})
