/**
 * Parse time of long lists (a benchmark, not a test): `node --import tsx test/bench/parse-lists.ts`.
 * A 1,000-row x 21-value INSERT (the TSBS cpu row) and a 1,000-item IN list, parsed with the
 * fast path (`parseStatement`) and by the grammar alone (`allParses`), best of EPOCHDB_BENCH_RUNS (default 15) after a warm-up.
 */
import { performance } from 'node:perf_hooks'
import { allParses, parseStatement } from '../../lib/sql/parse.js'

const row = (i: number): string =>
  `('host_${i % 1000}', 'eu-west-1', 'eu-west-1a', '${i % 100}', 'Ubuntu16.04LTS', 'x64', 'SF', '${i % 20}', '1', 'production', ` +
  `${Array.from({ length: 10 }, (_, k) => ((i * 31 + k * 7) % 10000) / 100).join(', ')}, '2016-01-01T00:00:${String(i % 60).padStart(2, '0')}.000000Z')`
const insert = `INSERT INTO cpu VALUES ${Array.from({ length: 1000 }, (_, i) => row(i)).join(', ')}`
const inList = `SELECT * FROM cpu WHERE hostname IN (${Array.from({ length: 1000 }, (_, i) => `'host_${i}'`).join(', ')})`

const RUNS = Number(process.env["EPOCHDB_BENCH_RUNS"] ?? 15)

function best(fn: () => void): number {
  fn()
  let ms = Infinity
  for (let k = 0; k < RUNS; k++) { const t0 = performance.now(); fn(); ms = Math.min(ms, performance.now() - t0) }
  return ms
}
for (const [label, sql] of [['INSERT 1,000 rows x 21 values', insert], ['IN list of 1,000 strings', inList]] as const) {
  const fast = best(() => parseStatement(sql))
  const grammar = best(() => allParses(sql))
  console.log(`${label} (${sql.length.toLocaleString('en-US')} chars): fast path ${fast.toFixed(1)} ms, grammar alone ${grammar.toFixed(1)} ms (${(grammar / fast).toFixed(0)}x)`)
}
