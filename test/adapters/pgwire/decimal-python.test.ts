/**
 * DECIMAL with Python clients (python/decimal_probe.py): psycopg2 and asyncpg Decimal parameters, psycopg 3 in text and binary mode
 * (results and binary `%b` parameters as exact `decimal.Decimal`), SQLAlchemy reflecting a
 * DECIMAL(p,s) column as NUMERIC(p, s), and pandas read_sql / to_sql with a Numeric column.
 */
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { startServer } from './helpers.js'
import { runProbe } from './python.js'

const srv = await startServer({}, await Database.open())
t.teardown(() => srv.close())
const run = await runProbe('decimal_probe.py', srv.port)
if ('missing' in run) t.fail(`python driver missing: ${run.missing}`)
else {
  t.equal(run.failure, undefined, 'the probe ran to its end')
  const c = run.checks
  const rows = [['decimal:12.3400', 'decimal:123456789012345678901234.000000000001'], ['decimal:-0.0500', 'decimal:-0.500000000000'],
    ['decimal:0.0000', null], ['decimal:99999999999999.9999', 'decimal:10000.000000000000']]
  t.same(c.get('text_formats'), [0, 0])
  t.same(c.get('binary_formats'), [1, 1], 'psycopg 3 binary cursor: numeric really came in binary')
  t.same(c.get('text_rows'), rows)
  t.same(c.get('binary_rows'), rows, 'binary numeric decodes to the same exact Decimals')
  t.same(c.get('binary_types'), [1700, 18, 4], 'cursor.description: numeric with precision and scale')
  t.same(c.get('param_rows'), [['decimal:-1234.5678', 'decimal:1E-12'], ['decimal:-1234.5678', 'decimal:1E-12']], 'binary (%b) and text (%t) Decimal parameters')
  t.same(c.get('param_wide'), ['decimal:12345678901234567891.123456'], 'a 26-digit binary parameter keeps every digit')
  t.same(c.get('overflow'), ['NumericValueOutOfRange', '22003', 'decimal overflow: value does not fit DECIMAL(4,2)'])
  t.same(c.get('p2_rows'), [[1, 'decimal:1.0500', 'decimal:123456789012345678901234.000000000001', 'float:2.5'],
    [2, 'decimal:-20.1000', 'decimal:-1E-12', null], [3, null, null, null]], 'psycopg2 inlined Decimals: exact, NaN as NULL (was 42804)')
  t.same(c.get('p2_where'), [[1], [2]], 'psycopg2 Decimals compare exactly')
  t.same(c.get('p2_overflow'), ['NumericValueOutOfRange', '22003', 'decimal overflow: value does not fit DECIMAL(18,4)'])
  t.same(c.get('apg_rows'), [[1, 'decimal:-1234.5678', 'decimal:12345678901234567890123.123456789012'], [2, 'decimal:0.0001', null], [3, 'decimal:7.0000', null]],
    'asyncpg binary numeric parameters (Describe says numeric; was text, which asyncpg refused)')
  t.same(c.get('apg_where'), [2, 3])
  t.same(c.get('apg_cast'), 'decimal:2.10', 'cast($1 AS DECIMAL(10,2)) is described as numeric')
  t.same(c.get('reflect'), [['id', 'INTEGER()'], ['price', 'NUMERIC(precision=18, scale=4)'], ['wide', 'NUMERIC(precision=40, scale=12)']], 'SQLAlchemy reflects DECIMAL(p,s) as NUMERIC(p, s)')
  if (c.get('pandas') === 'present') {
    t.same(c.get('read_sql'), ['float64', ['float:12.34', 'float:-0.05', 'float:0.0', 'float:100000000000000.0'],
      ['decimal:12.3400', 'decimal:-0.0500', 'decimal:0.0000', 'decimal:99999999999999.9999']])
    t.same(c.get('to_sql'), [2, ['decimal:1.05', 'decimal:-20.10'], [['id', 'BIGINT()'], ['amount', 'NUMERIC(precision=12, scale=2)']]])
    t.same(c.get('to_sql_decimal_objects'), [2, ['decimal:1.05', 'decimal:-20.10', 'decimal:1.05', 'decimal:-0.01']], 'to_sql of Decimal objects appends them exactly (was 42804)')
    t.same(c.get('to_sql_new_decimal'), [3, [null, 'decimal:0.10', 'decimal:99999999.99']])
  } else t.fail('pandas missing')
}
