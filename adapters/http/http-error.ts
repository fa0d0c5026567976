/**
 * An HTTP-level failure the handler answers with a JSON error (or plain text, as QuestDB does
 * for a few statuses). SQL failures stay {@link SqlError}s and are mapped by {@link statusOf}.
 */
import { SqlError, SqlState } from '../../lib/index.js'

/** A request the handler refuses before any SQL runs. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** 0-based position to report, or null to omit `position` (QuestDB's `cols` errors) */
    readonly position: number | null = 0,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/**
 * QuestDB's status for an error: 403 permission denied, 400 other SQL errors, 500 anything else;
 * a statement over its memory budget (53200) is the server's resource limit, not a bad request: 503.
 */
export function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status
  if (err instanceof SqlError) {
    if (err.code === SqlState.INSUFFICIENT_PRIVILEGE) return 403
    if (err.code === SqlState.INTERNAL_ERROR) return 500
    if (err.code === SqlState.OUT_OF_MEMORY) return 503
    return 400
  }
  return 500
}

/** The message and position to report for an error. */
export function describe(err: unknown): { message: string; position: number | undefined } {
  if (err instanceof HttpError) return { message: err.message, position: err.position ?? undefined }
  if (err instanceof SqlError) return { message: err.message, position: Math.max(0, err.position) }
  return { message: err instanceof Error ? err.message : String(err), position: 0 }
}
