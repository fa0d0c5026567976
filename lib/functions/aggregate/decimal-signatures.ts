/**
 * The DECIMAL signatures of `sum`, `avg`, `min` and `max` (their kernels: `decimal-aggregates.ts`).
 * A file of its own so `min-max.ts` and `sum.ts` can read them at load time without an import cycle.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { sumResultType } from '../../types/decimal-rules.js'
import type { Signature } from '../registry-types.js'
import { decimalView } from '../decimal-vectors.js'

/** sum(DECIMAL): DECIMAL(38,s) for p <= 18 (QuestDB's rule), exact, overflow an error. */
export const DECIMAL_SUM_SIGNATURE: Signature = { args: ['DECIMAL'], returns: (a) => sumResultType(decimalView(a[0]!)) }
/** avg(DECIMAL): the input's type, rounded half to even. */
export const DECIMAL_AVG_SIGNATURE: Signature = { args: ['DECIMAL'], returns: (a) => decimalView(a[0]!) }
/** min/max(DECIMAL): the input's type. */
export const DECIMAL_MINMAX_SIGNATURE: Signature = { args: ['DECIMAL'], returns: (a) => decimalView(a[0]!) }
