/**
 * Every operator as a function definition (the binder turns `a + b` into a call of '+', and so
 * on). Each sub-family lives in its own file; this module only collects them.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { FunctionDef } from '../registry-types.js'
import { ARITHMETIC_OPERATORS } from './arithmetic.js'
import { COMPARISON_OPERATORS } from './compare.js'
import { LOGIC_OPERATORS } from './logic.js'
import { BITWISE_OPERATORS } from './bitwise.js'
import { LIKE_OPERATORS } from './like.js'
import { REGEX_OPERATORS } from './regex.js'
import { MISC_OPERATORS } from './misc-operators.js'

/** All operator definitions. */
export const OPERATOR_FUNCTIONS: readonly FunctionDef[] = [
  ...ARITHMETIC_OPERATORS,
  ...COMPARISON_OPERATORS,
  ...LOGIC_OPERATORS,
  ...BITWISE_OPERATORS,
  ...LIKE_OPERATORS,
  ...REGEX_OPERATORS,
  ...MISC_OPERATORS,
]
