/**
 * Benchmark (not a test): joins of a wide table (10 columns) to a dimension table, where the query
 * reads two columns of each; with and without the `prune-columns` rule through joins. Run it twice,
 * alternating, once with `EPOCHDB_DISABLE_RULES=prune-columns`:
 *
 *   node --import tsx test/bench/join-prune.ts [rows [rounds]]
 *
 * Prints CPU time (`process.cpuUsage`) best / median per query. f: rows rows, k = x mod (rows / 5) INT,
 * v DOUBLE and eight more DOUBLE / LONG / STRING columns; d: rows / 10 rows, k INT, w DOUBLE, three more.
 */
import { Database } from '../../lib/index.js'

const ROWS = Number(process.argv[2] ?? 1_000_000)
const ROUNDS = Number(process.argv[3] ?? 5)
const db = await Database.open()
await db.query('CREATE TABLE f (k INT, v DOUBLE, a DOUBLE, b DOUBLE, c LONG, e LONG, g DOUBLE, h DOUBLE, s STRING, t INT)')
await db.query('CREATE TABLE d (k INT, w DOUBLE, x DOUBLE, y LONG, z STRING)')
const nf = ROWS, nd = Math.floor(ROWS / 10)
const col = (n: number, f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i))
await db.append('f', {
  k: Int32Array.from({ length: nf }, (_, i) => (i + 1) % Math.floor(nf / 5)), v: col(nf, (i) => ((i * 7919) % 1000) / 1000),
  a: col(nf, (i) => i), b: col(nf, (i) => i / 2), c: col(nf, (i) => i * 3), e: col(nf, (i) => i * 5), g: col(nf, (i) => i / 7), h: col(nf, (i) => i / 9),
  s: Array.from({ length: nf }, (_, i) => `s${i % 100}`), t: Int32Array.from({ length: nf }, (_, i) => i % 1000),
})
await db.append('d', {
  k: Int32Array.from({ length: nd }, (_, i) => (2 * (i + 1)) % Math.floor(nf / 3)), w: col(nd, (i) => ((i * 104729) % 1000) / 1000),
  x: col(nd, (i) => i), y: col(nd, (i) => i * 2), z: Array.from({ length: nd }, (_, i) => `z${i % 10}`),
})
const SQL = [
  'SELECT count(*), sum(f.v), sum(d.w) FROM f JOIN d ON f.k = d.k',
  'SELECT count(*), sum(f.v), sum(d.w) FROM f FULL JOIN d ON f.k = d.k',
  'SELECT count(*), sum(f.v), sum(d.w) FROM (SELECT * FROM f LIMIT 2000) f JOIN (SELECT * FROM d LIMIT 2000) d ON f.v < d.w - 0.5',
]
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
console.log(`prune-columns ${process.env['EPOCHDB_DISABLE_RULES']?.includes('prune-columns') === true ? 'off' : 'on'}, f ${nf} x d ${nd} rows, ${ROUNDS} rounds`)
for (const q of SQL) {
  const answer = String((await db.query(q)).rows[0])
  const times: number[] = []
  for (let r = 0; r < ROUNDS; r++) { const c0 = cpu(); await db.query(q); times.push(cpu() - c0) }
  console.log(`  ${Math.min(...times).toFixed(0)} / ${median(times).toFixed(0)} ms  ${q}  -> ${answer}`)
}
await db.close()
