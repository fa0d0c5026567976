/**
 * The one list of every built-in function. Each family file exports an array of definitions;
 * this module concatenates them and checks that no name is defined twice.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { FunctionDef } from './registry-types.js'
import { OPERATOR_FUNCTIONS } from './scalar/operators.js'
import { SCALAR_FUNCTIONS } from './scalar/index.js'
import { AGGREGATE_FUNCTIONS } from './aggregate/index.js'
import { TABLE_FUNCTIONS } from './table/index.js'
import { setFunctionList } from './table/functions-list.js'
import { RND_FUNCTIONS } from './rnd/index.js'
import { WINDOW_FUNCTIONS } from './window/index.js'
import { withDecimalOverloads } from './decimal-functions.js'
import { withTimestampNsOverloads } from './timestamp-ns-functions.js'

/** Every built-in function definition. */
export const BUILTINS: readonly FunctionDef[] = withTimestampNsOverloads(withDecimalOverloads([
  ...OPERATOR_FUNCTIONS,
  ...SCALAR_FUNCTIONS,
  ...AGGREGATE_FUNCTIONS,
  ...TABLE_FUNCTIONS,
  ...RND_FUNCTIONS,
  ...WINDOW_FUNCTIONS,
]))
setFunctionList(BUILTINS)
