/**
 * `bar(value, min, max, width)` (QuestDB's visualization page): a horizontal bar of `width`
 * characters at `max`, made of full blocks `█` and one partial block of `▏▎▍▌▋▊▉` (eighths) for
 * the remainder, so a width of 20 has 160 levels. The value is clamped to [min, max]; the bar
 * has floor(p * width) full blocks and, while shorter than `width`, the block of
 * floor(frac(p * width) * 8) eighths (none for 0), p = (v - min) / (max - min). VARCHAR; NULL
 * when an argument is NULL, a value or bound is not finite, `width` <= 0 or `min >= max`. A width
 * over 349,525 characters (QuestDB's 1 MiB string buffer) is an error (54000). The aggregate
 * twin, `sparkline`, is in aggregate/sparkline.ts.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ScalarFunctionDef } from '../registry-types.js'

const EIGHTHS = '▏▎▍▌▋▊▉█'
const MAX_WIDTH = Math.floor(1048576 / 3)

/** Draws one bar; null for the cases the page lists. */
export function drawBar(value: number, min: number, max: number, width: number, widthPos: number): string | null {
  if (!Number.isFinite(value) || !Number.isFinite(min) || !Number.isFinite(max) || width <= 0 || min >= max) return null
  if (width > MAX_WIDTH) {
    throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `breached memory limit set for bar(DDDI) [maxWidth=${MAX_WIDTH}, requestedWidth=${width}]`, widthPos)
  }
  const clamped = Math.max(min, Math.min(max, value))
  const filled = (clamped - min) / (max - min) * width
  const whole = Math.trunc(filled)
  let out = '█'.repeat(whole)
  if (whole < width) {
    const eighths = Math.trunc((filled - whole) * 8)
    if (eighths > 0) out += EIGHTHS[eighths - 1]!
  }
  return out
}

/** bar. */
export const VISUALIZATION_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'bar', family: 'string',
    description: 'A horizontal bar of block characters proportional to value within [min, max], `width` characters at max (eighths of a character resolution).',
    example: 'SELECT x, bar(x, 0, 10, 5) FROM long_sequence(10)',
    signatures: [{ args: ['DOUBLE', 'DOUBLE', 'DOUBLE', 'INT'], returns: 'VARCHAR' }],
    init: (site) => site.argPositions[3] ?? site.pos,
    row: (a, _ctx, widthPos) => drawBar(Number(a[0]), Number(a[1]), Number(a[2]), Number(a[3]), widthPos as number),
  },
]
