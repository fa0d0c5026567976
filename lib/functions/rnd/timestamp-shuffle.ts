/**
 * `timestamp_shuffle(lo, hi)` (QuestDB's date-time page): a random timestamp between two constant
 * timestamps, `lo + nextPositiveLong() % (hi - lo)` drawn from the statement's generator as
 * QuestDB's TimestampShuffleFunctionFactory draws it (so `hi` itself is never drawn, and bounds
 * given the wrong way round draw from `lo` upward). A TIMESTAMP_NS bound, or a string literal with
 * nanosecond digits in the first argument, makes it a TIMESTAMP_NS drawn in nanoseconds. A NULL
 * bound gives NULL; equal bounds are refused (QuestDB divides by zero there).
 */
import { SqlError, SqlState } from '../../errors.js'
import type { FunctionDef } from '../registry-types.js'
import { nsScalar } from '../../types/timestamp-ns.js'
import { rndFunction, type RndDraw } from './rnd-def.js'

/** The definition. */
export const TIMESTAMP_SHUFFLE: FunctionDef = rndFunction({
  name: 'timestamp_shuffle',
  signatures: [
    { args: ['TIMESTAMP', 'TIMESTAMP'], constant: [0, 1], returns: 'TIMESTAMP' },
    { args: ['TIMESTAMP_NS', 'TIMESTAMP_NS'], constant: [0, 1], returns: 'TIMESTAMP_NS' },
  ],
  description: 'A random timestamp from lo up to (not including) hi, two constants; TIMESTAMP_NS for nanosecond bounds.',
  example: "SELECT timestamp_shuffle('2023-03-31T22:00:30.555998Z', '2023-04-01T22:00:30.555998Z')",
  prepare: (site): RndDraw => {
    const type = site.returns === 'TIMESTAMP_NS' ? 'TIMESTAMP_NS' : 'TIMESTAMP'
    const [a, b] = site.constants
    if (a === null || a === undefined || b === null || b === undefined) return { type, next: () => null }
    const lo = BigInt(a as number | bigint), hi = BigInt(b as number | bigint)
    const range = hi - lo
    if (range === 0n) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'timestamp_shuffle bounds must differ', site.argPositions[1] ?? site.pos)
    // Java's `%` keeps the dividend's sign: a positive draw stays at or above lo
    const abs = range < 0n ? -range : range
    return { type, next: (rnd) => nsScalar(lo + rnd.nextPositiveLong() % abs) }
  },
})
