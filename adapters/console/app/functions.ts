/**
 * The engine's function registry as data (name, signatures, one-line description), put into
 * the bundle by adapters/console/build.mjs from lib/functions/builtins.ts.
 */

/** One function as completion shows it. */
export interface FunctionInfo {
  readonly name: string
  readonly kind: string
  readonly sigs: readonly string[]
  readonly description: string
}

declare const CONSOLE_FUNCTIONS: readonly FunctionInfo[]

/** Every built-in function, sorted by name. */
export const FUNCTIONS: readonly FunctionInfo[] = CONSOLE_FUNCTIONS
