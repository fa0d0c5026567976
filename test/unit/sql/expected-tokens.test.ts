import t from 'tap'
import { expectedTokensAt } from '../../../lib/sql/index.js'

t.test('expectedTokensAt lists what the grammar accepts at the cursor', async (t) => {
  const start = expectedTokensAt('', 0)
  t.ok(start.includes('SELECT') && start.includes('CREATE') && start.includes('identifier'))
  t.same(expectedTokensAt('select * fr', 11), ["','", 'FROM', 'INTERSECT', 'UNION', 'EXCEPT', 'ORDER', 'LIMIT'])
  t.same(expectedTokensAt('select 1; create ', 17).sort(), ['ATOMIC', 'GROUP', 'INDEX', 'MATERIALIZED', 'OR', 'SERVICE', 'TABLE', 'USER', 'VIEW'])
  const afterTable = expectedTokensAt('select * from t ', 16)
  for (const k of ['WHERE', 'JOIN', 'ASOF', 'SAMPLE', 'LATEST', 'ORDER', 'LIMIT', 'TIMESTAMP', 'RIGHT', 'FULL']) t.ok(afterTable.includes(k), k)
  // the console completes RIGHT / FULL [OUTER] JOIN from these
  t.same(expectedTokensAt('select * from t right ', 22), ['OUTER', 'JOIN'])
  t.same(expectedTokensAt('select * from t full outer ', 27), ['JOIN'])
  t.same(expectedTokensAt("select 'abc", 11), [])
  t.same(expectedTokensAt('select * frm t where', 20), [])
})
