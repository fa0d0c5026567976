/**
 * Every scalar (non-operator) built-in, collected from the family files.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { FunctionDef } from '../registry-types.js'
import { MATH_FUNCTIONS } from './math.js'

/** All scalar function definitions. */
export const SCALAR_FUNCTIONS: readonly FunctionDef[] = [
  ...MATH_FUNCTIONS,
]
