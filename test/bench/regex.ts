/**
 * Benchmark (not a test): pattern matching on the hot path. `node --import tsx test/bench/regex.ts`
 *
 * 2M strings (`x::string` of long_sequence) in an in-memory table; each filter is run five times
 * and the best wall time printed, with the count it found. Run it on two commits to compare.
 */
import { Database } from '../../lib/index.js'

const db = await Database.open()
await db.query('create table t as (select x::string v from long_sequence(2000000))')
const FILTERS = [
  "v ~ '^1.*5$'", // one anchored quantifier: V8's engine on the fast path
  "v ~ '12|34'", // alternation without quantifiers: fast path
  "v ~ '1[0-9]+5'", // unanchored quantifier: RE2
  "v like '%12%'",
  "v ilike '1%3'",
]
for (const f of FILTERS) {
  let best = Infinity
  let count: unknown
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    count = (await db.query(`select count() from t where ${f}`)).rows[0]![0]
    best = Math.min(best, performance.now() - t0)
  }
  console.log(`${f.padEnd(22)} ${best.toFixed(0).padStart(6)} ms  (count ${String(count)})`)
}
await db.close()
