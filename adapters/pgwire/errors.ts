/**
 * Turns anything thrown while serving a client into ErrorResponse fields: a {@link SqlError}
 * keeps its SQLSTATE and gets a 1-based position; protocol and parameter errors get 08P01 /
 * 22P02; anything else is an internal error (XX000). Never SQLSTATE 00000.
 */
import { SqlError } from '../../lib/index.js'
import type { ErrorFields } from './backend-serializer.js'
import { ProtocolError } from './buffer-reader.js'
import { ParamError } from './params.js'

/** A protocol-level failure with its own SQLSTATE (e.g. 25P02, 26000, 34000). */
export class PgError extends Error {
  override readonly name = 'PgError'
  constructor(readonly code: string, message: string) {
    super(message)
  }
}

/** The ErrorResponse fields of `e`. */
export function errorFields(e: unknown): ErrorFields {
  if (e instanceof SqlError) {
    return {
      severity: 'ERROR', code: e.code, message: e.message,
      ...(e.position >= 0 ? { position: e.position + 1 } : {}),
      ...(e.detail !== undefined ? { detail: e.detail } : {}),
      ...(e.hint !== undefined ? { hint: e.hint } : {}),
    }
  }
  if (e instanceof PgError) return { severity: 'ERROR', code: e.code, message: e.message }
  if (e instanceof ParamError) return { severity: 'ERROR', code: '22P02', message: e.message }
  if (e instanceof ProtocolError) return { severity: 'FATAL', code: e.code, message: e.message }
  return { severity: 'ERROR', code: 'XX000', message: `internal error: ${e instanceof Error ? e.message : String(e)}` }
}
