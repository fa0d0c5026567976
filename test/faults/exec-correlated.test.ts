/**
 * A correlated subquery runs once per distinct outer row (exec/operators/apply.ts): over a large
 * outer input it must stream, and the statement's timeout must end it promptly.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'

t.test('a per-row correlated EXISTS over a million rows ends with 57014 at the timeout', { timeout: 60_000 }, async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const started = Date.now()
  const e = await db.query('SELECT o.x FROM long_sequence(1000000) o WHERE EXISTS (SELECT 1 FROM long_sequence(1000) s WHERE s.x = o.x + 5000)', [], { timeout: 300 })
    .then(() => undefined, (err: unknown) => err as { code?: string })
  t.equal(e?.code, '57014')
  t.ok(Date.now() - started < 10_000, `ended after ${Date.now() - started} ms`)
})

t.test('memoised per outer value: a low-cardinality key runs once per key', { timeout: 60_000 }, async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const r = await db.query('SELECT count() FROM (SELECT x % 3 + 1 k FROM long_sequence(200000)) o WHERE EXISTS (SELECT 1 FROM long_sequence(100000) s WHERE s.x = o.k)', [], { timeout: 20_000 })
  t.same(r.rows, [[200000n]])
})
