/**
 * Benchmark (not a test): the WITHIN kernel alone (lib/functions/scalar/geohash-within.ts) over
 * N values (default 2M) of a 40-bit geohash held as doubles and a 20-bit one held as INTs, for one
 * prefix and for several, against the loop it replaced (two comparisons per row and prefix, kept
 * here as the "before"). Rounds alternate the two so both see the same load; prints the median
 * time per million rows of EPOCHDB_BENCH_RUNS rounds (default 15) and each one's ratio to one
 * prefix through the new kernel.
 *
 *   node --import tsx test/bench/geohash-within-kernel.ts [values]
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { compileWithin, type WithinPrefix, withinRows } from '../../lib/functions/scalar/geohash-within.js'
import { geohashFromText } from '../../lib/types/geohash.js'

const N = Number(process.argv[2] ?? 2_000_000)
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 15)

function prefix(text: string): WithinPrefix {
  return { bits: text.length * 5, value: geohashFromText(text, text.length * 5) as number }
}

/** The loop before the lookup table: every prefix's range, row by row. */
function before(d: Int32Array | Float64Array, m: number, bits: number, ps: readonly WithinPrefix[], o: Uint8Array): void {
  const k = ps.length
  const lo = new Float64Array(k), hi = new Float64Array(k)
  for (let j = 0; j < k; j++) { const span = 2 ** (bits - ps[j]!.bits); lo[j] = Number(ps[j]!.value) * span; hi[j] = lo[j]! + span }
  if (k === 1) { const a = lo[0]!, b = hi[0]!; for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = x >= a && x < b ? 1 : 0 } }
  else for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = 0; for (let j = 0; j < k; j++) if (x >= lo[j]! && x < hi[j]!) { o[i] = 1; break } }
}

let seed = 7
function rand(): number { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed / 4294967296 }
const wide = new Float64Array(N), narrow = new Int32Array(N)
for (let i = 0; i < N; i++) { wide[i] = Math.floor(rand() * 2 ** 40); narrow[i] = Math.floor(rand() * 2 ** 20) }

const SETS: [string, string[]][] = [
  ['one prefix', ['u3']],
  ['three prefixes', ['u3', '9q', 'dr5']],
  ['eight prefixes', ['u3', '9q', 'dr5', 'gc', 'sp', 'xn7', '6g', 'f2']],
  ['2 + a 35-bit one', ['u3', '9q', 'dr5r7p4']],
]
const COLUMNS: [string, Int32Array | Float64Array, number][] = [['40-bit', wide, 40], ['20-bit', narrow, 20]]
const out = new Uint8Array(N)
const times = new Map<string, number[]>()
const note = (k: string, ms: number) => { const l = times.get(k) ?? []; l.push(ms * 1e6 / N); times.set(k, l) }
for (let r = 0; r < RUNS; r++) {
  for (const [cname, d, bits] of COLUMNS) {
    for (const [sname, texts] of SETS) {
      const ps = texts.map(prefix).filter((p) => p.bits <= bits)
      let t0 = performance.now()
      before(d, N, bits, ps, out)
      note(`${cname} ${sname} before`, performance.now() - t0)
      out.fill(0)
      t0 = performance.now()
      withinRows(d, N, compileWithin(ps, bits), out)
      note(`${cname} ${sname} after`, performance.now() - t0)
      out.fill(0)
    }
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(`${N} values, ${RUNS} rounds, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ms per million rows (median), x one prefix after`)
for (const [cname] of COLUMNS) {
  const base = median(times.get(`${cname} one prefix after`)!)
  for (const [sname] of SETS) {
    const b = median(times.get(`${cname} ${sname} before`)!), a = median(times.get(`${cname} ${sname} after`)!)
    console.log(`${(cname + ' ' + sname).padEnd(28)} before ${b.toFixed(2).padStart(6)} (${(b / base).toFixed(2)}x)   after ${a.toFixed(2).padStart(6)} (${(a / base).toFixed(2)}x)`)
  }
}
