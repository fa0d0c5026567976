/**
 * DOUBLE arrays over REST: /exec JSON nests them (null elements `null`, NULL arrays `null`, empty
 * `[]`) with QuestDB's type names; /exp CSV quotes the same text.
 */
import t from 'tap'
import { exec, get, startServer } from './helpers.js'

const srv = await startServer()
t.teardown(() => srv.close())
await srv.db.query('create table book (ts timestamp, bids double[][], v double[]) timestamp(ts) partition by day')
await srv.db.query("insert into book values ('2024-01-01', ARRAY[[1.5, 10], [1.4, 20]], '{1,NULL}'), ('2024-01-02', NULL, '{}')")

t.test('/exec JSON', async (t) => {
  const r = await exec(srv.port, 'select bids, v from book order by ts')
  t.equal(r.status, 200)
  const body = JSON.parse(r.body) as { columns: { name: string; type: string }[]; dataset: unknown[][] }
  t.same(body.columns, [{ name: 'bids', type: 'DOUBLE[][]' }, { name: 'v', type: 'DOUBLE[]' }])
  t.match(r.body, '"dataset":[[[[1.5,10.0],[1.4,20.0]],[1.0,null]],[null,[]]]')
})

t.test('/exp CSV', async (t) => {
  const r = await get(srv.port, `/exp?query=${encodeURIComponent('select bids, v from book order by ts')}`)
  t.equal(r.body, '"bids","v"\r\n"[[1.5,10.0],[1.4,20.0]]","[1.0,null]"\r\n,"[]"\r\n')
})
