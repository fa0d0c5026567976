/**
 * Every scalar (non-operator) built-in, collected from the family files.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { FunctionDef } from '../registry-types.js'
import { MATH_FUNCTIONS } from './math.js'
import { STRING_FUNCTIONS } from './string.js'
import { CONDITIONAL_FUNCTIONS } from './conditional.js'
import { TIME_FUNCTIONS } from './time.js'
import { TIME_FIELD_FUNCTIONS } from './time-fields.js'
import { TIME_FORMAT_FUNCTIONS } from './time-format.js'
import { META_FUNCTIONS } from './meta.js'
import { BINARY_FUNCTIONS } from './binary.js'
import { SEQUENCE_FUNCTIONS } from './sequence.js'
import { PG_CATALOG_FUNCTIONS } from './pg-catalog.js'
import { ARRAY_FUNCTIONS } from './array-functions.js'
import { ARRAY_BUILD } from './array-build.js'
import { ARRAY_ELEMENTWISE_FUNCTIONS } from './array-elementwise.js'
import { L2PRICE } from './l2price.js'
import { FINANCE_FUNCTIONS } from './finance.js'
import { VISUALIZATION_FUNCTIONS } from './visualization.js'
import { HASH_FUNCTIONS } from './hash.js'
import { SPATIAL_FUNCTIONS } from './spatial.js'
import { GEOHASH_FUNCTIONS } from './geohash-functions.js'
import { INTERVAL_FUNCTIONS } from './interval-fns.js'
import { JSON_FUNCTIONS } from './json-extract.js'

/** All scalar function definitions. */
export const SCALAR_FUNCTIONS: readonly FunctionDef[] = [
  ...MATH_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...CONDITIONAL_FUNCTIONS,
  ...TIME_FUNCTIONS,
  ...TIME_FIELD_FUNCTIONS,
  ...TIME_FORMAT_FUNCTIONS,
  ...META_FUNCTIONS,
  ...BINARY_FUNCTIONS,
  ...SEQUENCE_FUNCTIONS,
  ...PG_CATALOG_FUNCTIONS,
  ...ARRAY_FUNCTIONS,
  ...ARRAY_ELEMENTWISE_FUNCTIONS,
  L2PRICE,
  ...FINANCE_FUNCTIONS,
  ...VISUALIZATION_FUNCTIONS,
  ...HASH_FUNCTIONS,
  ...SPATIAL_FUNCTIONS,
  ...GEOHASH_FUNCTIONS,
  ARRAY_BUILD,
  ...INTERVAL_FUNCTIONS,
  ...JSON_FUNCTIONS,
]
