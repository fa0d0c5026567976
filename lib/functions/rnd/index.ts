/**
 * The `rnd_*` family: QuestDB's random value generators, bit-exact with its shared `Rnd`
 * (see `rnd.ts`). Every function draws from `ctx.rnd`, the statement's generator, which
 * `long_sequence(n, seedLo, seedHi)` re-seeds.
 */
import type { FunctionDef } from '../registry-types.js'
import { RND_MISC_FUNCTIONS } from './rnd-misc.js'
import { RND_NUMERIC_FUNCTIONS } from './rnd-numeric.js'
import { RND_SYMBOL_FUNCTIONS } from './rnd-symbol.js'
import { RND_SYMBOL_WEIGHTED_FUNCTIONS } from './rnd-symbol-weighted.js'
import { RND_TEMPORAL_FUNCTIONS } from './rnd-temporal.js'
import { RND_TEXT_FUNCTIONS } from './rnd-text.js'
import { TIMESTAMP_SHUFFLE } from './timestamp-shuffle.js'
import { RND_DECIMAL } from './rnd-decimal.js'
import { RND_DOUBLE_ARRAY } from './rnd-double-array.js'
import { RND_GEOHASH } from './rnd-geohash.js'

/** Every rnd function. */
export const RND_FUNCTIONS: readonly FunctionDef[] = [
  ...RND_NUMERIC_FUNCTIONS,
  ...RND_TEMPORAL_FUNCTIONS,
  ...RND_TEXT_FUNCTIONS,
  ...RND_SYMBOL_FUNCTIONS,
  ...RND_SYMBOL_WEIGHTED_FUNCTIONS,
  ...RND_MISC_FUNCTIONS,
  TIMESTAMP_SHUFFLE,
  RND_DECIMAL,
  RND_DOUBLE_ARRAY,
  RND_GEOHASH,
]
