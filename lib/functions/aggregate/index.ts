import type { FunctionDef } from '../registry-types.js'

/** Placeholder until the family is written. */
export const AGGREGATE_FUNCTIONS: readonly FunctionDef[] = []
