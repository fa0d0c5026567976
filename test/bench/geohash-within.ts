/**
 * Benchmark (not a test): `g WITHIN (#prefix, ...)` over N rows (default 2M) of a 40-bit and a
 * 20-bit GEOHASH column in memory, against a DOUBLE filter of about the same selectivity on the
 * same table, rounds interleaved so all see the same load (several prefixes against one: the
 * lookup table of lib/functions/scalar/geohash-within.ts). Prints the median CPU time
 * (`process.cpuUsage`) of EPOCHDB_BENCH_RUNS rounds (default 5) per query and its ratio to the
 * DOUBLE filter, with the load average.
 *
 *   node --import tsx test/bench/geohash-within.ts [rows]
 */
import { loadavg } from 'node:os'
import { Database } from '../../lib/index.js'

const ROWS = Number(process.argv[2] ?? 2_000_000)
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)

const db = await Database.open()
await db.query(`create table b as (select rnd_geohash(40) w, rnd_geohash(20) n, rnd_double() v,
  timestamp_sequence('2024-01-01', 1000000) ts from long_sequence(${ROWS})) timestamp(ts) partition by day`)

const QUERIES: [string, string][] = [
  ['double filter (1/1024)', 'select count() from b where v < 0.0009765625'],
  ['40-bit WITHIN one prefix', 'select count() from b where w within (#u3)'],
  ['40-bit WITHIN three prefixes', 'select count() from b where w within (#u3, #9q, #dr5)'],
  ['40-bit WITHIN eight prefixes', 'select count() from b where w within (#u3, #9q, #dr5, #gc, #sp, #xn7, #6g, #f2)'],
  // a prefix longer than the lookup table's 16 bits: its bucket is searched
  ['40-bit WITHIN 2 + a 35-bit one', 'select count() from b where w within (#u3, #9q, #dr5r7p4)'],
  ['20-bit WITHIN one prefix', 'select count() from b where n within (#u3)'],
  ['20-bit WITHIN three prefixes', 'select count() from b where n within (#u3, #9q, #dr5)'],
  ['40-bit = constant', 'select count() from b where w = #u33d8b12'],
]

function cpuMs(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const times = QUERIES.map(() => [] as number[])
for (let r = 0; r < RUNS; r++) {
  for (let q = 0; q < QUERIES.length; q++) {
    const t0 = cpuMs()
    await db.query(QUERIES[q]![1])
    times[q]!.push(cpuMs() - t0)
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const base = median(times[0]!)
console.log(`${ROWS} rows, ${RUNS} rounds, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
for (let q = 0; q < QUERIES.length; q++) {
  const m = median(times[q]!)
  console.log(`${QUERIES[q]![0].padEnd(32)} ${m.toFixed(1).padStart(8)} ms CPU  ${(m / base).toFixed(2)}x the double filter`)
}
await db.close()
