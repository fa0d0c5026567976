/**
 * `rnd_symbol(count, lo, hi, nullRate)` and `rnd_symbol(list...)`.
 *
 * The count form makes its dictionary when the statement starts (`init`): `count` strings of
 * letters B..Z whose length is `lo` when lo = hi and `lo + nextPositiveInt() % (hi - lo + 1)`
 * otherwise. Each row then draws `nextPositiveInt() % (nullRate + 1) == 1` for null, else
 * `nextPositiveInt() % count` for the value. The list form draws `nextPositiveInt() % size`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { FunctionDef } from '../registry-types.js'
import { constInt, invalidRange, rndFunction, type RndDraw } from './rnd-def.js'
import { constStrings } from './rnd-text.js'

const rndSymbol = rndFunction({
  name: 'rnd_symbol',
  signatures: [
    { args: ['INT', 'INT', 'INT', 'INT'], constant: [0, 1, 2, 3], returns: 'SYMBOL' },
    { args: ['STRING'], variadic: 'STRING', returns: 'SYMBOL' },
  ],
  description: 'A random symbol: from a dictionary of count random strings of lo to hi letters (null at about 1 in nullRate rows), or one of the given values.',
  example: "SELECT rnd_symbol(5, 4, 4, 1), rnd_symbol('AAPL', 'MSFT') FROM long_sequence(3)",
  prepare: (site, ctx): RndDraw => {
    if (site.argTypes.length === 4 && site.argTypes[0] === 'INT') {
      const count = constInt(site, 0)
      const lo = constInt(site, 1)
      const hi = constInt(site, 2)
      const rate = constInt(site, 3)
      if (count < 1) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'invalid symbol count', site.argPositions[0] ?? site.pos)
      if (lo > hi || lo < 1) throw invalidRange(site)
      if (rate < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'rate must be positive', site.argPositions[3] ?? site.pos)
      const rnd = ctx.rnd
      const symbols: string[] = []
      const range = hi - lo + 1
      for (let i = 0; i < count; i++) symbols.push(rnd.nextChars(lo === hi ? lo : lo + (rnd.nextPositiveInt() % range)))
      const div = rate + 1
      return { type: 'SYMBOL', next: (r) => (r.nextPositiveInt() % div === 1 ? null : symbols[r.nextPositiveInt() % count]!) }
    }
    const list = constStrings(site)
    const n = list.length
    return { type: 'SYMBOL', next: (r) => list[Math.abs(r.nextPositiveInt() % n)]! }
  },
})

/** rnd_symbol. */
export const RND_SYMBOL_FUNCTIONS: readonly FunctionDef[] = [rndSymbol]
