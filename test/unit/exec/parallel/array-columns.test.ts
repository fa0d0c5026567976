/**
 * An aggregation over a table large enough for the parallel path (PARALLEL_MIN_ROWS) that reads
 * a DOUBLE array column runs on one thread instead of handing workers a column they cannot view.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_MIN_ROWS } from '../../../../lib/plan/physical/index.js'

t.test('sum(array_sum(a)) over PARALLEL_MIN_ROWS rows', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const n = PARALLEL_MIN_ROWS
  await db.query(`CREATE TABLE t AS (SELECT x, ARRAY[x * 1.0, 1.0] a FROM long_sequence(${n}))`)
  const r = await db.query('SELECT sum(array_sum(a)), count() FROM t')
  t.same(r.rows[0], [n * (n + 1) / 2 + n, BigInt(n)])
})
