/** DECIMAL beside FLOAT/DOUBLE in an operator: 42883 at the floating argument; bare literals read as decimals. */
import t from 'tap'
import { Database, SqlError } from '../../../lib/index.js'

const db = await Database.open()
t.teardown(() => db.close())
await db.query('CREATE TABLE px (d DECIMAL(10,2), v DOUBLE)')

const errorOf = async (sql: string): Promise<SqlError | undefined> => {
  try { await db.query(sql) } catch (e) { if (e instanceof SqlError) return e; throw e }
  return undefined
}

t.test('the error points at the DOUBLE argument, on either side', async (t) => {
  const a = await errorOf('SELECT d + v FROM px')
  t.same([a?.code, a?.position], ['42883', 11])
  const b = await errorOf('SELECT v * d FROM px')
  t.same([b?.code, b?.position], ['42883', 7])
  t.match(b?.message, /no matching operator `\*` for DECIMAL\(10,2\) and DOUBLE.*CAST\(x AS DOUBLE\)/)
})

t.test('a bare number literal is exact beside a decimal; a function of doubles is not', async (t) => {
  const r = await db.query('SELECT 0.1m + 0.2 AS s, typeOf(0.1m + 0.2) AS t')
  t.same(r.rows, [['0.3', 'DECIMAL(2,1)']])
  t.equal((await errorOf('SELECT 0.1m + sqrt(0.04)'))?.code, '42883')
})
