/**
 * `pg` sends its parameters untyped (OID 0): beside a DECIMAL the server describes one as
 * `numeric` and reads it as QuestDB 9 defines such a bind variable, DECIMAL(76,38), so no digit
 * of the value is lost (it took its neighbour's DECIMAL(2,1): 2.25 + 1.5m gave 3.7).
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer } from './helpers.js'

t.test('an untyped parameter beside a DECIMAL keeps its digits over pgwire', async (t) => {
  const srv = await startServer({}, await Database.open())
  t.teardown(() => srv.close())
  const c = new pg.Client(pgConfig(srv.port))
  await c.connect()
  t.teardown(() => c.end())
  const r = await c.query('SELECT $1 + 1.5m AS s, $1 * 2.0m AS p', ['2.25'])
  t.equal(r.fields[0]!.dataTypeID, 1700)
  t.equal(Number(r.rows[0].s), 3.75)
  t.equal(Number(r.rows[0].p), 4.5)
  t.match(r.rows[0].s, /^3\.75000+$/) // DECIMAL(76,38) prints its 38 decimals, as QuestDB does
  await c.query("CREATE TABLE px AS (SELECT cast(x / 4.0 AS DECIMAL(18,4)) d FROM long_sequence(8))")
  t.same((await c.query('SELECT count() n FROM px WHERE d = $1', ['0.75'])).rows, [{ n: '1' }])
  t.same((await c.query('SELECT count() n FROM px WHERE d = $1', ['0.75001'])).rows, [{ n: '0' }])
})
