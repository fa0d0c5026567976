/**
 * ASOF, LT and SPLICE joins of two million-row tables (composite keys, so every row costs a text
 * key) share the event loop: another client's `select 1` is answered while each runs, and
 * CancelRequest ends each. ASOF/LT walk the right side batch by batch inside each left batch and
 * yield per left batch; SPLICE evaluates and assigns its keys slice by slice and yields every
 * 65,536 merged rows. The results over more rows than one slice are checked too.
 */
import t from 'tap'
import { servedThenCancelled, startServers } from './exec-helpers.js'

const ROWS = 1_000_000
const srv = await startServers()
t.teardown(() => srv.close())
await srv.db.query(`create table l as (select timestamp_sequence(1000, 1000) ts, x % 1000 k, cast(x % 7 as string) s from long_sequence(${ROWS})) timestamp(ts) partition by hour`)
await srv.db.query(`create table r as (select timestamp_sequence(500, 1000) ts, x % 1000 k, cast(x % 7 as string) s from long_sequence(${ROWS})) timestamp(ts) partition by hour`)

t.test('results over more rows than one slice', { timeout: 180_000 }, async (t) => {
  // every left row has the right row of the same x (hence the same keys) 500 us earlier; splice
  // gives one row per input row
  const small = 'from (select * from l where ts < 200000000) a'
  const asof = await srv.db.query(`select count(), count(b.k) ${small} asof join (select * from r where ts < 200000000) b on (k, s)`)
  t.same(asof.rows[0]!.map(Number), [199_999, 199_999], 'ASOF: each left row finds its right row')
  const splice = await srv.db.query(`select count() ${small} splice join (select * from r where ts < 200000000) b on (k, s)`)
  t.same(splice.rows[0]!.map(Number), [399_999], 'SPLICE: one row per input row')
})

for (const kind of ['asof', 'lt', 'splice']) {
  t.test(`${kind.toUpperCase()} JOIN of two 1M-row tables: others are served, CancelRequest ends it`, { timeout: 180_000 }, async (t) => {
    // a join of the whole tables, counted many times over so it outlasts the probe
    await servedThenCancelled(t, srv.pgPort, `select count() from l ${kind} join r on (k, s) cross join long_sequence(50)`, 400)
  })
}
