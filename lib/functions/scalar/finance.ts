/**
 * Quote functions of QuestDB's finance page: `mid(bid, ask)`, `spread(bid, ask)`,
 * `spread_bps(bid, ask)` and `wmid(bidSize, bidPrice, askPrice, askSize)`, all DOUBLE and NULL
 * when an argument is NULL/NaN. The arithmetic runs in QuestDB's order (FinanceUtils,
 * WeightedMidPriceFunctionFactory) so results agree to the last bit: mid = (ask + bid) / 2,
 * spread = ask - bid, spread_bps = spread / mid * 10000, wmid = ask * i + bid * (1 - i) with the
 * imbalance i = bidSize / (bidSize + askSize). `l2price` is in l2price.ts.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { allocate } from '../../types/vector.js'
import type { Vector } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'

/** Applies `f` to the rows of `args` read as doubles; NaN (NULL) in any argument gives NULL. */
function mapDoubles(args: readonly Vector[], n: number, f: (v: Float64Array) => number): Vector {
  const xs = args.map(toF64)
  const out = allocate('DOUBLE', n), o = out.data as Float64Array
  const v = new Float64Array(xs.length)
  for (let i = 0; i < n; i++) {
    let nul = false
    for (let k = 0; k < xs.length; k++) { const x = xs[k]!.data[i * xs[k]!.s]!; if (x !== x) nul = true; v[k] = x }
    o[i] = nul ? NaN : f(v)
  }
  return out
}

const BID_ASK = [{ args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }] as const

/** mid, spread, spread_bps, wmid. */
export const FINANCE_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'mid', family: 'finance', description: 'The midpoint of a bid and an ask price: (ask + bid) / 2.',
    example: 'SELECT mid(1.5760, 1.5763)', signatures: BID_ASK,
    vector: (args, n) => mapDoubles(args, n, (v) => (v[1]! + v[0]!) / 2.0),
  },
  {
    kind: 'scalar', name: 'spread', family: 'finance', description: 'The quoted spread of a bid and an ask price: ask - bid.',
    example: 'SELECT spread(1.5760, 1.5763)', signatures: BID_ASK,
    vector: (args, n) => mapDoubles(args, n, (v) => v[1]! - v[0]!),
  },
  {
    kind: 'scalar', name: 'spread_bps', family: 'finance', description: 'The quoted spread in basis points of the mid price: (ask - bid) / mid(bid, ask) * 10000.',
    example: 'SELECT spread_bps(1.5760, 1.5763)', signatures: BID_ASK,
    vector: (args, n) => mapDoubles(args, n, (v) => (v[1]! - v[0]!) / ((v[1]! + v[0]!) / 2.0) * 10_000),
  },
  {
    kind: 'scalar', name: 'wmid', family: 'finance',
    description: 'The size-weighted mid price: askPrice * imbalance + bidPrice * (1 - imbalance), imbalance = bidSize / (bidSize + askSize).',
    example: 'SELECT wmid(100, 5, 6, 100)', signatures: [{ args: ['DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }],
    vector: (args, n) => mapDoubles(args, n, (v) => { const im = v[0]! / (v[0]! + v[3]!); return v[2]! * im + v[1]! * (1 - im) }),
  },
]
