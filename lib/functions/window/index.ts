/**
 * The window-only functions (ranking, offsets, frame values) as registry entries, so that the
 * binder finds their names and `docs/functions.md` lists them. They only compute inside
 * `OVER (...)`: the window binder (`lib/plan/bind-window.ts`) handles them there, and a call
 * without OVER fails as QuestDB's does ("window function called in non-window context").
 *
 * The aggregates usable as window functions (sum, avg, ksum, count, min, max) are the aggregate
 * family's definitions; their window forms are described by `WINDOW_SPECS` (specs.ts).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { CallSite, FunctionDef, Signature } from '../registry-types.js'

/** The error of a window function called without OVER. */
export function nonWindowContext(pos: number): SqlError {
  return new SqlError(SqlState.SYNTAX_ERROR, 'window function called in non-window context, make sure to add OVER clause', pos)
}

/**
 * A window-only function. Its signatures' `returns` throws: the binder calls it when it binds a
 * call without OVER, so the error comes at bind time, even over an empty table (the binder does
 * not pass the call's position there; `init` would, but only runs on the first batch).
 */
function windowOnly(name: string, signatures: readonly Signature[], description: string, example: string): FunctionDef {
  return {
    kind: 'scalar', name, description, example, family: 'window',
    signatures: signatures.map((s) => ({ ...s, returns: () => { throw nonWindowContext(-1) } })),
    init: (site: CallSite) => { throw nonWindowContext(site.pos) },
    row: () => null,
  }
}

const same = (a: readonly unknown[]) => a[0] as never

/** Every window-only function. */
export const WINDOW_FUNCTIONS: readonly FunctionDef[] = [
  windowOnly('row_number', [{ args: [], returns: 'LONG' }], 'Sequential number (LONG) of the row within its partition, from 1.',
    'SELECT ts, row_number() OVER (PARTITION BY sym ORDER BY ts) FROM trades'),
  windowOnly('rank', [{ args: [], returns: 'LONG' }], 'Rank (LONG) of the row within its partition, with gaps after ties.',
    'SELECT price, rank() OVER (ORDER BY price DESC) FROM trades'),
  windowOnly('dense_rank', [{ args: [], returns: 'LONG' }], 'Rank (LONG) of the row within its partition, without gaps after ties.',
    'SELECT price, dense_rank() OVER (ORDER BY price DESC) FROM trades'),
  windowOnly('percent_rank', [{ args: [], returns: 'DOUBLE' }], 'Relative rank (rank - 1) / (rows - 1) as DOUBLE; 0 for a single row.',
    'SELECT price, percent_rank() OVER (ORDER BY price) FROM trades'),
  windowOnly('cume_dist', [{ args: [], returns: 'DOUBLE' }], 'Rows up to the last peer of the current row, divided by the rows of the partition (DOUBLE).',
    'SELECT price, cume_dist() OVER (ORDER BY price) FROM trades'),
  windowOnly('ntile', [{ args: ['INT'], constant: [0], returns: 'LONG' }], 'Bucket number 1..n (LONG) of the row, larger buckets first.',
    'SELECT price, ntile(4) OVER (ORDER BY price) FROM trades'),
  windowOnly('lag', [
    { args: ['ANY'], returns: same },
    { args: ['ANY', 'LONG'], constant: [1], returns: same },
    { args: ['ANY', 'LONG', 'ANY'], constant: [1], returns: same },
  ], 'Value of the row `offset` rows (default 1) before the current one in the partition, or `default`.',
  'SELECT ts, lag(price) OVER (PARTITION BY sym ORDER BY ts) FROM trades'),
  windowOnly('lead', [
    { args: ['ANY'], returns: same },
    { args: ['ANY', 'LONG'], constant: [1], returns: same },
    { args: ['ANY', 'LONG', 'ANY'], constant: [1], returns: same },
  ], 'Value of the row `offset` rows (default 1) after the current one in the partition, or `default`.',
  'SELECT ts, lead(price, 2, 0.0) OVER (PARTITION BY sym ORDER BY ts) FROM trades'),
  windowOnly('first_value', [{ args: ['ANY'], returns: same }], 'First value of the window frame (first non-null with IGNORE NULLS).',
    'SELECT ts, first_value(price) OVER (PARTITION BY sym ORDER BY ts) FROM trades'),
  windowOnly('last_value', [{ args: ['ANY'], returns: same }], 'Last value of the window frame (last non-null with IGNORE NULLS).',
    'SELECT ts, last_value(price) IGNORE NULLS OVER (ORDER BY ts) FROM trades'),
  windowOnly('nth_value', [{ args: ['ANY', 'LONG'], constant: [1], returns: same }], 'The n-th value (from 1) of the window frame, or null when the frame is shorter.',
    'SELECT ts, nth_value(price, 2) OVER (ORDER BY ts ROWS 4 PRECEDING) FROM trades'),
]
