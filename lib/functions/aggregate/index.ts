/**
 * The aggregate family. Each kernel implements the `AggregateKernel` contract of
 * `registry-types.ts`: typed arrays indexed by dense group id, grown geometrically by `resize`,
 * a tight `update` loop per batch, `updateOne` for the non-keyed path, `merge` for parallel
 * partial results, and `result` giving null for a group that saw no rows (count gives 0).
 */
import type { FunctionDef } from '../registry-types.js'
import { APPROX_PERCENTILE_FUNCTIONS } from './approx-percentile.js'
import { ARRAY_AGGREGATES } from './array-aggregates.js'
import { BOOL_AGG_FUNCTIONS } from './bool-agg.js'
import { COMPENSATED_SUM_FUNCTIONS } from './compensated-sum.js'
import { COUNT_DISTINCT_FUNCTIONS } from './count-distinct.js'
import { COUNT_FUNCTIONS } from './count.js'
import { COVARIANCE_FUNCTIONS } from './covariance.js'
import { FIRST_LAST_FUNCTIONS } from './first-last.js'
import { MIN_MAX_FUNCTIONS } from './min-max.js'
import { MODE_ORDERED_FUNCTIONS } from './mode-ordered.js'
import { MOMENT_FUNCTIONS } from './moments.js'
import { MEAN_FUNCTIONS } from './means.js'
import { TWAP_FUNCTIONS } from './twap.js'
import { HAVERSINE_FUNCTIONS } from './haversine-dist.js'
import { SPARKLINE_FUNCTIONS } from './sparkline.js'
import { BIT_AGG_FUNCTIONS } from './bit-agg.js'
import { ARG_EXTREME_FUNCTIONS } from './arg-min-max.js'
import { WEIGHTED_STDDEV_FUNCTIONS } from './weighted-stddev.js'
import { STRING_AGG_FUNCTIONS } from './string-agg.js'
import { SUM_FUNCTIONS } from './sum.js'
import { VARIANCE_FUNCTIONS } from './variance.js'

/** Every aggregate function. */
export const AGGREGATE_FUNCTIONS: readonly FunctionDef[] = [
  ...COUNT_FUNCTIONS,
  ...COUNT_DISTINCT_FUNCTIONS,
  ...SUM_FUNCTIONS,
  ...MIN_MAX_FUNCTIONS,
  ...FIRST_LAST_FUNCTIONS,
  ...COMPENSATED_SUM_FUNCTIONS,
  ...VARIANCE_FUNCTIONS,
  ...MOMENT_FUNCTIONS,
  ...MEAN_FUNCTIONS,
  ...TWAP_FUNCTIONS,
  ...HAVERSINE_FUNCTIONS,
  ...SPARKLINE_FUNCTIONS,
  ...BIT_AGG_FUNCTIONS,
  ...ARG_EXTREME_FUNCTIONS,
  ...COVARIANCE_FUNCTIONS,
  ...STRING_AGG_FUNCTIONS,
  ...BOOL_AGG_FUNCTIONS,
  ...MODE_ORDERED_FUNCTIONS,
  ...WEIGHTED_STDDEV_FUNCTIONS,
  ...APPROX_PERCENTILE_FUNCTIONS,
  ...ARRAY_AGGREGATES,
]
