/**
 * GEOHASH over pgwire through `pg`: varchar (OID 1043) carrying QuestDB's text, in text and in
 * binary mode alike (QuestDB sends GEOHASH as text even when binary is asked); a text parameter
 * compared with a geohash column converts to its precision.
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer } from './helpers.js'

const db = await Database.open()
await db.query('create table geo (id int, c geohash(8c), b geohash(11b), ts timestamp) timestamp(ts)')
await db.query("insert into geo values (1, #u33d8b12, ##10101010101, '2024-01-01'), (2, null, null, '2024-01-02')")
const srv = await startServer({}, db)
t.teardown(() => srv.close())

t.test('text and binary results are varchar text', async (t) => {
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.teardown(() => client.end())
  const r = await client.query('select c, b from geo order by id')
  t.same(r.fields.map((f) => f.dataTypeID), [1043, 1043])
  t.same(r.rows, [{ c: 'u33d8b12', b: '10101010101' }, { c: null, b: null }])
  const bin = await client.query({ text: 'select c, b from geo where id = $1', values: [1], binary: true } as pg.QueryConfig)
  t.same(bin.fields.map((f) => f.format), ['text', 'text'])
  t.same(bin.rows, [{ c: 'u33d8b12', b: '10101010101' }])
  const p = await client.query('select id from geo where c = $1', ['u33d8b12'])
  t.same(p.rows, [{ id: 1 }])
  const w = await client.query('select id from geo where c within (#u33, #zz)')
  t.same(w.rows, [{ id: 1 }])
})
