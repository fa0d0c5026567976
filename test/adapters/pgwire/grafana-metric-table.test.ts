/**
 * The older Grafana PostgreSQL query builder's `findMetricTable`: the first table with a
 * timestamp and a float8 column, found by correlated scalar subqueries and two correlated EXISTS
 * over information_schema (the EXISTS are decorrelated into hash semi joins).
 */
import t from 'tap'
import pg from 'pg'
import { pgConfig, startServer } from './helpers.js'

const FIND_METRIC_TABLE = `SELECT
  quote_ident(table_name) as table_name,
  ( SELECT quote_ident(column_name) as column_name FROM information_schema.columns c
    WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND udt_name IN ('timestamptz','timestamp')
    ORDER BY ordinal_position LIMIT 1 ) AS time_column,
  ( SELECT quote_ident(column_name) AS column_name FROM information_schema.columns c
    WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND udt_name='float8'
    ORDER BY ordinal_position LIMIT 1 ) AS value_column
FROM information_schema.tables t
WHERE table_schema IN (select current_schema()) AND
  EXISTS ( SELECT 1 FROM information_schema.columns c
    WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND udt_name IN ('timestamptz','timestamp') ) AND
  EXISTS ( SELECT 1 FROM information_schema.columns c
    WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND udt_name='float8' )
LIMIT 1`

t.test('findMetricTable finds the table with a timestamp and a double', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.teardown(() => client.end())
  await client.query('create table counts (ts timestamp, n long) timestamp(ts)')
  await client.query('create table plain (a int, b double)')
  await client.query('create table cpu (ts timestamp, host symbol, usage double) timestamp(ts)')
  const r = await client.query(FIND_METRIC_TABLE)
  t.same(r.rows, [{ table_name: 'cpu', time_column: 'ts', value_column: 'usage' }])
  const plan = (await client.query({ text: `EXPLAIN ${FIND_METRIC_TABLE}`, rowMode: 'array' } as pg.QueryArrayConfig)).rows.map((x) => String(x[0])).join('\n')
  t.match(plan, /Hash Semi Join \(EXISTS\) keys: 2/)
})
