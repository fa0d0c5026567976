import t from 'tap'
import { parseStatement } from '../../../lib/sql/parse.js'

// Prints how long a 1,000-row INSERT takes to parse; no assertion on time (benchmarks are not tests).
t.test('a 1,000-row INSERT ... VALUES parses', async (t) => {
  const rows: string[] = []
  for (let i = 0; i < 1000; i++) rows.push(`(${i}, 'sym${i % 7}', ${i}.5, '2024-01-01T00:00:00.000000Z', true)`)
  const sql = `insert into trades (id, sym, price, ts, flag) values ${rows.join(', ')}`
  const t0 = performance.now()
  const s = parseStatement(sql)
  const ms = performance.now() - t0
  t.comment(`1,000-row INSERT (${sql.length} chars) parsed in ${ms.toFixed(1)} ms`)
  t.match(s, { kind: 'insert', source: { kind: 'values' } })
  t.equal(s.kind === 'insert' && s.source.kind === 'values' ? s.source.rows.length : 0, 1000)
})
