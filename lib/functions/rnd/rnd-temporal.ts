/**
 * Random timestamps and dates: `rnd_timestamp(lo, hi, nullRate)`, `rnd_timestamp_ns(lo, hi, nullRate)` and `rnd_date(lo, hi, nullRate)`
 * — a null-rate gate (one `nextInt()` draw), then `lo + nextPositiveLong() % (hi - lo + 1)`.
 */
import type { FunctionDef } from '../registry-types.js'
import { checkRate, constLong, invalidRange, rndFunction, type RndDraw } from './rnd-def.js'
import { longInRange } from './rnd-numeric.js'

function temporal(name: string, type: 'TIMESTAMP' | 'TIMESTAMP_NS' | 'DATE', unit: string): FunctionDef {
  return rndFunction({
    name,
    signatures: [{ args: [type, type, 'INT'], constant: [0, 1, 2], returns: type }],
    description: `A random ${type.toLowerCase()} in [lo, hi] (${unit}), null at about 1 in nullRate rows.`,
    example: `SELECT ${name}('2020-01-01', '2020-12-31', 0) FROM long_sequence(3)`,
    prepare: (site): RndDraw => {
      const lo = constLong(site, 0)
      const hi = constLong(site, 1)
      const rate = checkRate(site, 2)
      if (!(lo < hi)) throw invalidRange(site)
      const draw = longInRange(lo, hi)
      const one = (rnd: Parameters<typeof draw>[0]): number | bigint => (rnd.nullGate(rate) ? -9223372036854775808 : draw(rnd))
      return {
        type,
        next: (rnd) => { const v = one(rnd); return v === -9223372036854775808 ? null : v },
        // both bounds are safe integers, so every value in between is too
        fill: typeof lo === 'number' && typeof hi === 'number'
          ? (rnd, out, n) => { const d = out.data as Float64Array; for (let i = 0; i < n; i++) d[i] = one(rnd) as number }
          : undefined,
      }
    },
  })
}

/** rnd_timestamp, rnd_timestamp_ns (QuestDB 9: its bounds taken in nanoseconds, a TIMESTAMP bound widened) and rnd_date. */
export const RND_TEMPORAL_FUNCTIONS: readonly FunctionDef[] = [
  temporal('rnd_timestamp', 'TIMESTAMP', 'microseconds'),
  temporal('rnd_timestamp_ns', 'TIMESTAMP_NS', 'nanoseconds'),
  temporal('rnd_date', 'DATE', 'milliseconds'),
]
