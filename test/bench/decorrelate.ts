/**
 * Correlated subqueries, decorrelated vs per row (a benchmark, not a test):
 * `node --import tsx test/bench/decorrelate.ts [rows]`, and the same with
 * `EPOCHDB_DISABLE_RULES=decorrelate-subqueries` for the per-row apply step. Two tables of `rows`
 * rows (default 100,000) with a LONG key, every outer key unique; each query runs once after a
 * warm-up and prints its wall time. Per row, EXISTS costs one run of the subquery per distinct
 * outer key (rows x rows); decorrelated, one pass over each side. `EPOCHDB_BENCH_LIMIT_MS`
 * (default 120,000) is each query's statement timeout: a run past it prints `> limit`.
 */
import { performance } from 'node:perf_hooks'
import { Database } from '../../lib/index.js'

const ROWS = Number(process.argv[2] ?? 100_000)
const LIMIT = Number(process.env['EPOCHDB_BENCH_LIMIT_MS'] ?? 120_000)
const QUERIES: readonly [string, string][] = [
  ['EXISTS', 'SELECT count() FROM o WHERE EXISTS (SELECT 1 FROM s WHERE s.k = o.k)'],
  ['NOT IN', 'SELECT count() FROM o WHERE v NOT IN (SELECT v FROM s WHERE s.k = o.k)'],
  ['scalar max', 'SELECT sum(m) FROM (SELECT (SELECT max(v) FROM s WHERE s.k = o.k) m FROM o)'],
]

const db = await Database.open()
await db.query(`CREATE TABLE o AS (SELECT x k, x % 7 v FROM long_sequence(${ROWS}))`)
await db.query(`CREATE TABLE s AS (SELECT x * 2 k, x % 5 v FROM long_sequence(${ROWS}))`)
const mode = (process.env['EPOCHDB_DISABLE_RULES'] ?? '').includes('decorrelate-subqueries') ? 'per row' : 'decorrelated'
await db.query(QUERIES[0]![1], [], { timeout: LIMIT }).catch(() => undefined)
for (const [name, sql] of QUERIES) {
  const started = performance.now()
  const outcome = await db.query(sql, [], { timeout: LIMIT }).then((r) => String(r.rows[0]?.[0]), (e: { code?: string }) => (e.code === '57014' ? '> limit' : String(e)))
  console.log(`${mode} ${name} ${ROWS} x ${ROWS}: ${(performance.now() - started).toFixed(0)} ms (${outcome})`)
}
await db.close()
