/**
 * `rnd_symbol_weighted(sym, weight, ...)` and `rnd_symbol_zipf(sym..., alpha)` /
 * `rnd_symbol_zipf(count, alpha)` (QuestDB's random value generator page).
 *
 * Both build a cumulative distribution once per execution and draw one `nextDouble()` per row;
 * the row's symbol is the first whose cumulative probability is >= the draw (the last one when
 * rounding leaves the sum short of 1), as QuestDB's `DoubleList.binarySearch(u, SCAN_UP)` picks
 * it, so the values are QuestDB's for the same seed. A weight of 0 is never chosen.
 *
 * Zipf: p(k) = k^-alpha / sum(i^-alpha), k = 1..n, the first symbol the most likely. The count
 * form names its symbols `sym0`, `sym1`, ... as QuestDB 9's server does (its page says `S0`); EpochDB
 * caps `count` at 1,000,000 (the names are made when the statement starts).
 */
import { SqlError, SqlState } from '../../errors.js'
import { isIntegral, isNumeric, isText } from '../../types/column-type.js'
import type { CallSite, FunctionDef } from '../registry-types.js'
import { rndFunction, type RndDraw } from './rnd-def.js'

/** Cumulative probabilities of `weights` (each divided by their total, summed left to right). */
function cumulative(weights: readonly number[]): Float64Array {
  let total = 0
  for (const w of weights) total += w
  const out = new Float64Array(weights.length)
  let c = 0
  for (let i = 0; i < weights.length; i++) {
    c += weights[i]! / total
    out[i] = c
  }
  return out
}

/** The draw over `symbols` by the cumulative distribution `cum`. */
function cumulativeDraw(symbols: readonly string[], cum: Float64Array): RndDraw {
  const n = cum.length
  return {
    type: 'SYMBOL',
    next: (rnd) => {
      const u = rnd.nextDouble()
      let lo = 0, hi = n
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (cum[mid]! < u) lo = mid + 1
        else hi = mid
      }
      return symbols[lo < n ? lo : n - 1]!
    },
  }
}

function constantText(site: CallSite, i: number): string {
  const v = site.constants[i]
  const pos = site.argPositions[i] ?? site.pos
  if (v === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'constant expected', pos)
  if (v === null || !isText(site.argTypes[i]!, true)) throw new SqlError(SqlState.DATATYPE_MISMATCH, 'STRING constant expected', pos)
  return String(v)
}

function constantNumber(site: CallSite, i: number, what: string): number {
  const v = site.constants[i]
  const pos = site.argPositions[i] ?? site.pos
  if (v === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `constant ${what} expected`, pos)
  if (v === null || !isNumeric(site.argTypes[i]!)) throw new SqlError(SqlState.DATATYPE_MISMATCH, `numeric ${what} expected`, pos)
  return Number(v)
}

const rndSymbolWeighted = rndFunction({
  name: 'rnd_symbol_weighted',
  signatures: [{ args: ['ANY'], variadic: 'ANY', returns: 'SYMBOL' }],
  description: 'A random symbol from symbol-weight pairs, each chosen with probability weight / total weight.',
  example: "SELECT rnd_symbol_weighted('AAPL', 50, 'MSFT', 30, 'GOOGL', 15, 'TSLA', 5) FROM long_sequence(5)",
  prepare: (site) => {
    const n = site.argTypes.length
    if (n < 2) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'expected at least one symbol-weight pair', site.pos)
    if (n % 2 !== 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'expected even number of arguments (symbol-weight pairs)', site.pos)
    const symbols: string[] = []
    const weights: number[] = []
    for (let i = 0; i < n; i += 2) {
      symbols.push(constantText(site, i))
      const w = constantNumber(site, i + 1, 'weight')
      if (!(w >= 0)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'weight must be non-negative', site.argPositions[i + 1] ?? site.pos)
      weights.push(w)
    }
    if (!weights.some((w) => w > 0)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'total weight must be positive', site.pos)
    return cumulativeDraw(symbols, cumulative(weights))
  },
})

const rndSymbolZipf = rndFunction({
  name: 'rnd_symbol_zipf',
  signatures: [{ args: ['ANY', 'ANY'], variadic: 'ANY', returns: 'SYMBOL' }],
  description: 'A random symbol with a Zipf (power law) distribution: from the list (the first the most likely), or from `count` symbols sym0, sym1, ...; `alpha` > 0 sets the skew.',
  example: "SELECT rnd_symbol_zipf('AAPL', 'MSFT', 'GOOGL', 2.0), rnd_symbol_zipf(100, 1.5) FROM long_sequence(5)",
  prepare: (site) => {
    const n = site.argTypes.length
    const last = n - 1
    const alpha = constantNumber(site, last, 'alpha')
    if (!(alpha > 0)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'alpha must be positive', site.argPositions[last] ?? site.pos)
    let symbols: string[]
    if (n === 2 && isIntegral(site.argTypes[0]!)) {
      const count = constantNumber(site, 0, 'symbol count')
      if (count <= 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'symbol count must be positive', site.argPositions[0] ?? site.pos)
      if (count > 1_000_000) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, 'symbol count must not exceed 1000000', site.argPositions[0] ?? site.pos)
      symbols = Array.from({ length: count }, (_, i) => `sym${i}`)
    } else {
      symbols = []
      for (let i = 0; i < last; i++) symbols.push(constantText(site, i))
    }
    const weights = symbols.map((_, i) => 1 / Math.pow(i + 1, alpha))
    return cumulativeDraw(symbols, cumulative(weights))
  },
})

/** rnd_symbol_weighted, rnd_symbol_zipf. */
export const RND_SYMBOL_WEIGHTED_FUNCTIONS: readonly FunctionDef[] = [rndSymbolWeighted, rndSymbolZipf]
