/**
 * `statement_timeout`, with PostgreSQL's semantics: an integer is milliseconds, or a number with
 * a unit (`us`, `ms`, `s`, `min`, `h`, `d`); 0 means no timeout. A session's
 * `SET statement_timeout` (pgwire, also from the startup packet) overrides the database's
 * `queryTimeout` for the statements that session runs.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'

/** The session setting's name. */
export const STATEMENT_TIMEOUT = 'statement_timeout'

const UNIT_MS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 }

/** PostgreSQL's largest statement_timeout (INT_MAX milliseconds). */
const MAX_MS = 2147483647

/**
 * Milliseconds of a `statement_timeout` value (0 = none), or undefined when it is not one.
 * `'1500'`, `'1500ms'`, `'2s'`, `'1 min'` and `'0'` are accepted, as PostgreSQL does.
 */
export function parseStatementTimeout(text: string): number | undefined {
  const m = /^\s*'?\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*'?\s*$/i.exec(text)
  if (m === null) return undefined
  const ms = Number(m[1]) * UNIT_MS[(m[2] ?? 'ms').toLowerCase()]!
  if (!Number.isFinite(ms) || ms > MAX_MS) return undefined
  return ms > 0 && ms < 1 ? 1 : Math.round(ms)
}

/** Checks a `SET statement_timeout` value: 22023 at `position` when it is not a valid timeout. */
export function checkStatementTimeout(text: string, position: number): void {
  if (parseStatementTimeout(text) === undefined) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid value for parameter "statement_timeout": "${text}"`, position)
  }
}
