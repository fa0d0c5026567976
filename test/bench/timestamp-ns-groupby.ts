/**
 * Benchmark (not a test): GROUP BY over many distinct TIMESTAMP_NS keys (1M by default,
 * EPOCHDB_BENCH_NS_ROWS to change): one key per row, so every row is a new group. Best of 3 per
 * query, and the key-to-id step alone: the halves hash table (exec/keys/i64-ids.ts) against a
 * Map keyed by bigint (what KeyIndex did before).
 *
 *   node --import tsx test/bench/timestamp-ns-groupby.ts
 */
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Database } from '../../lib/index.js'
import { I64Ids } from '../../lib/exec/keys/i64-ids.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_NS_ROWS'] ?? 1_000_000)
const RUNS = 3
const SQL = [
  'SELECT count() FROM (SELECT k, sum(v) FROM t)',
  'SELECT count() FROM (SELECT ts, count() FROM t)',
  'SELECT k, count() FROM t GROUP BY k',
]

async function best(fn: () => Promise<unknown>): Promise<number> {
  await fn()
  let ms = Infinity
  for (let k = 0; k < RUNS; k++) { const t0 = performance.now(); await fn(); ms = Math.min(ms, performance.now() - t0) }
  return ms
}

console.log(`TIMESTAMP_NS GROUP BY, ${ROWS.toLocaleString('en-US')} distinct keys, ${new Date().toISOString()}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, node ${process.version}, load ${loadavg()[0]!.toFixed(1)}`)
const db = await Database.open()
await db.query('CREATE TABLE t (ts TIMESTAMP_NS, k TIMESTAMP_NS, v LONG) TIMESTAMP(ts) PARTITION BY DAY')
await db.query(`INSERT INTO t SELECT timestamp_sequence_ns('2024-01-01T00:00:00Z'::timestamp_ns, 1001), timestamp_sequence_ns('2024-01-01T00:00:00Z'::timestamp_ns, 7), x FROM long_sequence(${ROWS})`)
for (const q of SQL) console.log(`${(await best(() => db.query(q))).toFixed(0).padStart(7)} ms  ${q}`)
await db.close()

const data = new BigInt64Array(ROWS)
for (let i = 0; i < ROWS; i++) data[i] = 1704067200000000000n + BigInt(i) * 7n
const out = new Int32Array(ROWS)
const halves = await best(async () => { new I64Ids().assign({ kind: 'i64', type: 'TIMESTAMP_NS', length: ROWS, data, isConst: false }, ROWS, out) })
const map = await best(async () => {
  const m = new Map<bigint, number>()
  for (let i = 0; i < ROWS; i++) { const x = data[i]!; let id = m.get(x); if (id === undefined) { id = m.size; m.set(x, id) } out[i] = id }
})
console.log(`key ids alone: halves table ${halves.toFixed(0)} ms, Map<bigint> ${map.toFixed(0)} ms`)
