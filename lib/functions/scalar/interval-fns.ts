/**
 * The INTERVAL value functions: `interval(lo, hi)` makes one (printed as QuestDB does,
 * `('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z')`), `interval_start` and
 * `interval_end` take its bounds back. `ts IN interval(...)` is bound as a BETWEEN of the two
 * (plan/bind-expr.ts). An INTERVAL value is held as text with every digit of its bounds and
 * printed to the millisecond as QuestDB prints it (types/interval-value.ts). As in QuestDB 9, an
 * interval of TIMESTAMP_NS bounds has its own type, INTERVAL_NS (QuestDB's
 * INTERVAL_TIMESTAMP_NANO, named `INTERVAL` like the other), so a subquery's or CTE's interval
 * column keeps its bounds and `interval_start` / `interval_end` of it are TIMESTAMP_NS with every
 * digit; `interval_start(interval(lo, hi))` and
 * `interval_end(interval(lo, hi))` are bound to {@link INTERVAL_BOUNDS} over `lo` and `hi`
 * themselves (plan/bind-interval-bounds.ts), so they keep every digit and return the bounds'
 * type, TIMESTAMP_NS for a nanosecond interval (QuestDB 9's `interval_start` of an
 * INTERVAL_TIMESTAMP_NANO).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { intervalBoundsMicros, intervalBoundsNs, intervalValue } from '../../types/interval-value.js'
import { nsBig } from '../../types/timestamp-ns.js'
import type { Scalar } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { JSON_EXTRACT_TYPED } from './json-extract-typed.js'

/** True when `hi` is before `lo` (values of one timestamp type). */
function reversed(lo: Scalar, hi: Scalar): boolean {
  return typeof lo === 'bigint' || typeof hi === 'bigint' ? nsBig(hi as number | bigint) < nsBig(lo as number | bigint) : Number(hi) < Number(lo)
}

function invalid(site: CallSite | undefined): SqlError {
  return new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'invalid interval boundaries', site?.pos ?? -1)
}

/** The [lo, hi] bounds of an INTERVAL value, in microseconds. */
export function intervalBounds(v: Scalar): [number, number] | null {
  return typeof v === 'string' ? intervalBoundsMicros(v) : null
}

/** The [lo, hi] bounds of an INTERVAL_NS value, in nanoseconds (TIMESTAMP_NS scalars). */
function intervalBoundsOfNs(v: Scalar): [number | bigint, number | bigint] | null {
  return typeof v === 'string' ? intervalBoundsNs(v) : null
}

/** interval, interval_start, interval_end. */
export const INTERVAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'interval', family: 'time',
    description: 'An INTERVAL from two timestamps (the end not before the start); a nanosecond interval when either is a TIMESTAMP_NS.',
    example: "SELECT interval('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z')",
    signatures: [{ args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'INTERVAL' }, { args: ['TIMESTAMP_NS', 'TIMESTAMP_NS'], returns: 'INTERVAL_NS' }],
    init: (site) => site,
    row: ([lo, hi], _ctx, site) => {
      if (reversed(lo!, hi!)) throw invalid(site as CallSite)
      const ns = (site as CallSite | undefined)?.argTypes[0] === 'TIMESTAMP_NS'
      return intervalValue(lo as number | bigint, hi as number | bigint, ns)
    },
  },
  {
    kind: 'scalar', name: 'interval_start', family: 'time',
    description: 'The lower bound of an INTERVAL (a TIMESTAMP_NS, to the nanosecond, for an interval of TIMESTAMP_NS values).',
    example: "SELECT interval_start(interval('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z'))",
    signatures: [{ args: ['INTERVAL'], returns: 'TIMESTAMP' }, { args: ['INTERVAL_NS'], returns: 'TIMESTAMP_NS' }],
    init: (site) => site,
    row: ([v], _ctx, site) => ((site as CallSite | undefined)?.argTypes[0] === 'INTERVAL_NS' ? intervalBoundsOfNs(v ?? null) : intervalBounds(v ?? null))?.[0] ?? null,
  },
  {
    kind: 'scalar', name: 'interval_end', family: 'time',
    description: 'The upper bound of an INTERVAL (a TIMESTAMP_NS, to the nanosecond, for an interval of TIMESTAMP_NS values).',
    example: "SELECT interval_end(interval('2024-10-08T11:09:47.573Z', '2024-10-09T11:09:47.573Z'))",
    signatures: [{ args: ['INTERVAL'], returns: 'TIMESTAMP' }, { args: ['INTERVAL_NS'], returns: 'TIMESTAMP_NS' }],
    init: (site) => site,
    row: ([v], _ctx, site) => ((site as CallSite | undefined)?.argTypes[0] === 'INTERVAL_NS' ? intervalBoundsOfNs(v ?? null) : intervalBounds(v ?? null))?.[1] ?? null,
  },
]

function bound(name: 'interval_start' | 'interval_end', which: 0 | 1): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'time',
    description: `${name} of interval(lo, hi): the bound itself, in its own type.`,
    example: `SELECT ${name}(interval('2024-01-01T00:00:00.000000001Z'::timestamp_ns, '2024-01-02'::timestamp_ns))`,
    signatures: [{ args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'TIMESTAMP' }, { args: ['TIMESTAMP_NS', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS' }],
    init: (site) => site,
    row: ([lo, hi], _ctx, site) => {
      if (reversed(lo!, hi!)) throw invalid(site as CallSite)
      return which === 0 ? lo! : hi!
    },
  }
}

/**
 * `interval_start` / `interval_end` of an `interval(lo, hi)` call, over its two (cast) bounds:
 * the bound, in the bounds' type, after interval()'s check that `hi` is not before `lo`. Not in
 * the list of built-ins: plan/bind-interval-bounds.ts binds to them.
 */
export const INTERVAL_BOUNDS: Readonly<Record<'interval_start' | 'interval_end', ScalarFunctionDef>> = {
  interval_start: bound('interval_start', 0),
  interval_end: bound('interval_end', 1),
}

/**
 * The definitions the binder calls that are not built-ins (not callable by name): a parallel
 * task names them apart from the built-ins of the same name (exec/parallel/wire.ts).
 */
export const INTERNAL_FUNCTIONS: readonly ScalarFunctionDef[] = [INTERVAL_BOUNDS.interval_start, INTERVAL_BOUNDS.interval_end, JSON_EXTRACT_TYPED]
