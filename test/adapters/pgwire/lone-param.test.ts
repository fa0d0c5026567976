/**
 * A lone parameter (`select $1`, psycopg's `select %s`) comes back typed as the driver bound it:
 * a declared int8 / bool / numeric is that type (QuestDB defines a declared bind variable's type
 * from its OID), a numeric as DECIMAL(p,s) of its own digits; an untyped one (`pg`, postgres.js
 * numbers) is varchar, as QuestDB answers; psycopg2's inlined literals are typed as literals.
 */
import t from 'tap'
import pg from 'pg'
import postgres from 'postgres'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer } from './helpers.js'
import { runProbe } from './python.js'

const srv = await startServer({}, await Database.open())
t.teardown(() => srv.close())

t.test('postgres.js: bigint and boolean are declared int8 / bool and come back so (were varchar)', async (t) => {
  const sql = postgres({ ...pgConfig(srv.port), username: 'admin', max: 1 })
  t.teardown(() => sql.end())
  const got: [unknown, number][] = []
  for (const v of [1099511627776n, true, 1, 1.5]) {
    // postgres.js types a parameter as its own serializable types, which leave out bigint; it sends one all the same
    const r = await sql`select ${v as never} as x`
    got.push([r[0]!['x'], r.columns[0]!.type])
  }
  t.same(got, [[1099511627776n, 20], [true, 16], ['1', 1043], ['1.5', 1043]])
})

t.test('pg: untyped parameters are varchar (QuestDB: an unspecified $1 in a projection is varchar)', async (t) => {
  const c = new pg.Client(pgConfig(srv.port))
  await c.connect()
  t.teardown(() => c.end())
  const r = await c.query('select $1 as x, $2 as y', [1, 2.5])
  t.same([r.rows[0], r.fields.map((f) => f.dataTypeID)], [{ x: '1', y: '2.5' }, [1043, 1043]])
})

t.test('Python drivers', async (t) => {
  const run = await runProbe('lone_param_probe.py', srv.port)
  if ('missing' in run) { t.fail(`python driver missing: ${run.missing}`); return }
  t.equal(run.failure, undefined, 'the probe ran to its end')
  const c = run.checks
  t.same(c.get('psycopg2'), [[1, 23], [1099511627776, 20], ['float:1.5', 701], ['float:1.5', 701], ['float:-0.001', 701],
    ['float:1e-12', 701], ['float:1200.0', 701], ['float:1.2345678901234569e+23', 701], [true, 16]], 'inlined literals: QuestDB types a bare 1.50 as DOUBLE')
  const declared = [[1, 21], [1099511627776, 20], ['float:1.5', 701], ['decimal:1.50', 1700], ['decimal:-0.001', 1700],
    ['decimal:1E-12', 1700], ['decimal:1200', 1700], ['decimal:123456789012345678901234.5', 1700], [true, 16]]
  t.same(c.get('psycopg3%t'), [...declared, [null, 1700]], 'text: numeric as DECIMAL(p,s) of its digits (was varchar); NaN a NULL numeric, as QuestDB casts it')
  t.same(c.get('psycopg3%b'), [...declared, [null, 1700]], 'binary parameters too')
  t.same(c.get('psycopg3_used'), [[2], [3]], 'a numeric parameter compared with a DECIMAL')
  const beside = [2, 1, [['1.25', '2.25'], 1700], 2]
  t.same(c.get('psycopg3_beside_integer'), [...beside, ...beside], 'beside an integer: a fraction is a DECIMAL (was 22P02), a whole number stays the integer (LIMIT)')
  t.same(c.get('asyncpg_lone_numeric'), [
    ['varchar'],
    ['DataError', '22000', "invalid input for query argument $1: Decimal('1.50') (expected str, got Decimal)"],
    '1.50',
    [['numeric'], 'decimal:1.50'],
    [['numeric'], 'decimal:1.500'],
  ], 'asyncpg: a lone $1 is described varchar as QuestDB 9 does (asyncpg then refuses a Decimal itself); a cast makes it numeric')
})
