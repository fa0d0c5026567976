/**
 * What the window binder needs to know of each function usable with OVER: its arity, which
 * argument is a constant integer, whether it honours the frame and IGNORE NULLS, and how its
 * result type follows from the argument (QuestDB's window overloads, §3.7).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { WindowFn } from '../../plan/nodes/window.js'

/**
 * How the result type is chosen:
 * - `LONG` / `DOUBLE`: fixed;
 * - `numeric`: a numeric argument, result DOUBLE (sum, avg, ksum);
 * - `ordered`: integers give LONG, FLOAT/DOUBLE give DOUBLE, DATE, TIMESTAMP and TIMESTAMP_NS stay (min, max);
 * - `same`: the argument's type, BYTE/SHORT/INT widened to LONG and FLOAT to DOUBLE (lag, first_value, ...).
 */
export type WindowResult = 'LONG' | 'DOUBLE' | 'numeric' | 'ordered' | 'same'

/** The window form of one function. */
export interface WindowFnSpec {
  readonly fn: WindowFn
  readonly minArgs: number
  readonly maxArgs: number
  readonly result: WindowResult
  /** index of the constant integer argument, or -1 */
  readonly constArg: number
  /** the constant's smallest allowed value, and its value when the argument is absent */
  readonly minN: number
  readonly defaultN: number
  /** true when the function computes over the frame (false: ranking and offset functions ignore it) */
  readonly framed: boolean
  /** true when IGNORE/RESPECT NULLS is accepted */
  readonly nulls: boolean
}

function spec(fn: WindowFn, minArgs: number, maxArgs: number, result: WindowResult, framed: boolean, extra: Partial<WindowFnSpec> = {}): WindowFnSpec {
  return { fn, minArgs, maxArgs, result, framed, constArg: -1, minN: 0, defaultN: 0, nulls: false, ...extra }
}

/** Window forms by lower-case function name. */
export const WINDOW_SPECS: Readonly<Record<string, WindowFnSpec>> = {
  row_number: spec('row_number', 0, 0, 'LONG', false),
  rank: spec('rank', 0, 0, 'LONG', false),
  dense_rank: spec('dense_rank', 0, 0, 'LONG', false),
  percent_rank: spec('percent_rank', 0, 0, 'DOUBLE', false),
  cume_dist: spec('cume_dist', 0, 0, 'DOUBLE', false),
  ntile: spec('ntile', 1, 1, 'LONG', false, { constArg: 0, minN: 1 }),
  lag: spec('lag', 1, 3, 'same', false, { constArg: 1, minN: 0, defaultN: 1, nulls: true }),
  lead: spec('lead', 1, 3, 'same', false, { constArg: 1, minN: 0, defaultN: 1, nulls: true }),
  first_value: spec('first_value', 1, 1, 'same', true, { nulls: true }),
  last_value: spec('last_value', 1, 1, 'same', true, { nulls: true }),
  nth_value: spec('nth_value', 2, 2, 'same', true, { constArg: 1, minN: 1 }),
  sum: spec('sum', 1, 1, 'numeric', true),
  avg: spec('avg', 1, 1, 'numeric', true),
  ksum: spec('ksum', 1, 1, 'numeric', true),
  count: spec('count', 0, 1, 'LONG', true),
  min: spec('min', 1, 1, 'ordered', true),
  max: spec('max', 1, 1, 'ordered', true),
}
