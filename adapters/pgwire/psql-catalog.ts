/**
 * psql's catalog queries for `\dt` and `\d table` (placeholder until the emulation lands).
 */
import type { Prepared, RunContext } from './prepared.js'

/** The adapter's answer to a psql catalog query, or undefined. */
export function psqlCatalog(_ctx: RunContext, _sql: string): Prepared | undefined {
  return undefined
}
