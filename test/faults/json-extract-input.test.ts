/**
 * json_extract on hostile input (#17): a document nested 100k deep, a 1 MB array, a path of 50k
 * steps and a huge index answer at once (the value or NULL) — no stack overflow, no quadratic walk
 * — and the engine keeps answering.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'
import { jsonExtract } from '../../lib/functions/scalar/json-extract.js'

const DEEP = 100_000
const deep = '['.repeat(DEEP) + '7' + ']'.repeat(DEEP)
const wide = '[' + Array.from({ length: 200_000 }, (_, i) => String(i)).join(',') + ']'
const longPath = '$' + '.a'.repeat(50_000)

t.test('deep, wide and long inputs answer the value or NULL', async (t) => {
  t.equal(jsonExtract(deep, '$' + '[0]'.repeat(DEEP)), '7', 'the innermost value of a 100k-deep document')
  t.equal(jsonExtract(deep, '$' + '[0]'.repeat(DEEP + 1)), null, 'one step past it')
  t.equal(jsonExtract(wide, '$[199999]'), '199999', 'the last item of a 200k-item array')
  t.equal(jsonExtract(wide, '$[99999999999999999999]'), null, 'an index past any array')
  t.equal(jsonExtract(wide, longPath), null, 'a 50k-step path over an array')
  t.equal(jsonExtract('{"a":'.repeat(1000) + '1' + '}'.repeat(1000), '$' + '.a'.repeat(1000)), '1')
  t.equal(jsonExtract('{"a":'.repeat(1000) + '1', '$.a'), null, 'an unterminated document')
})

t.test('through SQL, over a column of large documents, and the database keeps answering', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table j (doc varchar)')
  await db.append('j', { doc: [deep, wide, '{"a": 1}'] })
  const r = await db.query("select json_extract(doc, '$[199999]'), json_extract(doc, '$.a') from j")
  t.same(r.rows, [[null, null], ['199999', null], [null, '1']])
  t.same((await db.query('select 1 + 1')).rows, [[2]])
})
