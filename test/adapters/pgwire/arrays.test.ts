/**
 * DOUBLE arrays over pgwire as float8[] (OID 1022): text and binary results with node-postgres,
 * text and binary parameters (1-D and 2-D), and the encoder's bytes (PostgreSQL's array_send).
 */
import t from 'tap'
import pg from 'pg'
import { pgConfig, startServer } from './helpers.js'
import { arrayBinary, decodeArrayBinary, float8ArrayParam } from '../../../adapters/pgwire/encode-array.js'
import { DoubleArray } from '../../../lib/index.js'

const srv = await startServer()
const client = new pg.Client(pgConfig(srv.port))
await client.connect()
t.teardown(async () => { await client.end(); await srv.close() })

await client.query('create table book (ts timestamp, bids double[][], v double[]) timestamp(ts) partition by day')
await client.query("insert into book values ('2024-01-01', ARRAY[[1.5, 10], [1.4, 20]], ARRAY[1.0, NULL]), ('2024-01-02', NULL, '{}')")

t.test('text results: OID 1022, PostgreSQL braces with QuestDB doubles', async (t) => {
  const r = await client.query({ text: 'select bids, v from book order by ts', rowMode: 'array' })
  t.same(r.fields.map((f) => f.dataTypeID), [1022, 1022])
  t.same(r.rows[0], [[[1.5, 10], [1.4, 20]], [1, null]])
  t.same(r.rows[1], [null, []])
})

t.test('binary results decode to the same arrays', async (t) => {
  const r = await client.query({ text: 'select bids, v from book order by ts', binary: true, rowMode: 'array' } as pg.QueryConfig)
  t.same(r.rows[0], [[[1.5, 10], [1.4, 20]], [1, null]])
  t.same(r.rows[1], [null, []])
})

t.test('parameters: a JS array (1-D and nested) binds as float8[]', async (t) => {
  await client.query('insert into book values ($1, $2, $3)', ['2024-01-03', '{{1,2},{3,4}}', [5, 6]])
  const r = await client.query({ text: "select bids, v, array_sum(bids) from book where ts = '2024-01-03'", rowMode: 'array' })
  t.same(r.rows[0], [[[1, 2], [3, 4]], [5, 6], 10])
  const q = await client.query({ text: 'select array_position($1::double[], 2.0) p', rowMode: 'array' }, ['{1.0, 2.0, 3.0}'])
  t.same(q.rows[0], [2])
})

t.test('array_send bytes and their decoding', async (t) => {
  const a = new DoubleArray([2, 1], Float64Array.of(1.5, NaN))
  const b = arrayBinary(a)
  t.equal(b.readInt32BE(0), 2, 'dimensions')
  t.equal(b.readInt32BE(4), 1, 'has nulls')
  t.equal(b.readInt32BE(8), 701, 'element oid')
  t.same([b.readInt32BE(12), b.readInt32BE(16), b.readInt32BE(20), b.readInt32BE(24)], [2, 1, 1, 1])
  const back = decodeArrayBinary(b)
  t.same(back.shape, [2, 1])
  t.equal(back.values[0], 1.5)
  t.ok(Number.isNaN(back.values[1]!))
  t.same(arrayBinary(DoubleArray.empty(1)).readInt32BE(0), 0, 'an empty array has no dimensions')
  t.same(float8ArrayParam(b, 1, 0), new DoubleArray([2, 1], Float64Array.of(1.5, NaN)))
  t.throws(() => float8ArrayParam('{{1,2},{3}}', 0, 0), /invalid float8\[\] for parameter \$1/)
})
