/**
 * `flush_query_cache()` (QuestDB's meta page) empties the database's cache of parsed statements:
 * the same SQL text parses to the same cached statements until the flush, and to new ones after it.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'

t.test('flush_query_cache() drops the cached statements', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const sql = 'SELECT 1 + 1'
  const first = db.parse(sql)
  t.equal(db.parse(sql), first, 'cached: the same statements')
  const r = await db.query('SELECT flush_query_cache()')
  t.same(r.rows, [[true]])
  t.not(db.parse(sql), first, 'after the flush: parsed anew')
  t.same((await db.query(sql)).rows, [[2]], 'and it still runs')
})
