/**
 * The INTERVAL value functions: `interval(lo, hi)` makes one (printed as QuestDB does,
 * `('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z')`), `interval_start` and
 * `interval_end` take its bounds back. `ts IN interval(...)` is bound as a BETWEEN of the two
 * (plan/bind-expr.ts). An INTERVAL value is held as that text, so its bounds keep millisecond
 * precision, as QuestDB prints them.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { parseTimestamp } from '../../types/timestamp.js'
import type { Scalar } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'

function iso(micros: number): string {
  return new Date(Math.floor(micros / 1000)).toISOString()
}

/** The [lo, hi] bounds of an INTERVAL value, in microseconds. */
export function intervalBounds(v: Scalar): [number, number] | null {
  if (typeof v !== 'string') return null
  const m = /^\('([^']*)', '([^']*)'\)$/.exec(v)
  if (m === null) return null
  const lo = parseTimestamp(m[1]!)
  const hi = parseTimestamp(m[2]!)
  return lo === null || hi === null ? null : [Number(lo), Number(hi)]
}

/** interval, interval_start, interval_end. */
export const INTERVAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'interval', family: 'time',
    description: 'An INTERVAL from two timestamps (the end not before the start).',
    example: "SELECT interval('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z')",
    signatures: [{ args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'INTERVAL' }],
    row: ([lo, hi], _ctx, _state) => {
      if (Number(hi) < Number(lo)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'invalid interval boundaries')
      return `('${iso(Number(lo))}', '${iso(Number(hi))}')`
    },
  },
  {
    kind: 'scalar', name: 'interval_start', family: 'time',
    description: 'The lower bound of an INTERVAL.',
    example: "SELECT interval_start(interval('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z'))",
    signatures: [{ args: ['INTERVAL'], returns: 'TIMESTAMP' }],
    row: ([v]) => intervalBounds(v ?? null)?.[0] ?? null,
  },
  {
    kind: 'scalar', name: 'interval_end', family: 'time',
    description: 'The upper bound of an INTERVAL.',
    example: "SELECT interval_end(interval('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z'))",
    signatures: [{ args: ['INTERVAL'], returns: 'TIMESTAMP' }],
    row: ([v]) => intervalBounds(v ?? null)?.[1] ?? null,
  },
]
