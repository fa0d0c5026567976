/**
 * Benchmark data: `n` rows with ts every 10 ms from 2024-01-01 (microseconds), sym one of 100
 * symbols, v a double; deterministic (seeded), generated once and shared by every engine.
 */

/** Columnar benchmark rows. */
export interface BenchRows {
  readonly ts: Float64Array
  readonly sym: string[]
  readonly v: Float64Array
}

/** 2024-01-01T00:00:00Z in microseconds. */
export const START_MICROS = 1_704_067_200_000_000
/** 10 ms in microseconds. */
export const STEP_MICROS = 10_000
/** Number of distinct symbols. */
export const SYMBOLS = 100

/** Generates `n` rows. */
export function generateRows(n: number): BenchRows {
  const names = Array.from({ length: SYMBOLS }, (_, k) => `SYM${String(k).padStart(3, '0')}`)
  const ts = new Float64Array(n)
  const v = new Float64Array(n)
  const sym = new Array<string>(n)
  let seed = 0x9e3779b9
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
    ts[i] = START_MICROS + i * STEP_MICROS
    sym[i] = names[seed % SYMBOLS]!
    v[i] = (seed >>> 8) / 65536
  }
  return { ts, sym, v }
}
