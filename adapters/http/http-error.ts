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
 * Statuses of server-side faults: the request was fine, the server could not serve it. A client
 * (or a proxy) may retry a 503 later; 507 says the disk is full; 500 is a fault to report.
 * 58030 and XX001 are faults of the server's own storage (a damaged partition, a failed write);
 * a file the client names (`read_parquet`) that is missing or damaged has a client code of its
 * own (58P01, 22P04, ...: lib/parquet/user-file-error.ts) and is answered 400, as QuestDB does.
 */
const SERVER_FAULTS: Readonly<Record<string, number>> = {
  [SqlState.DISK_FULL]: 507, // 53100: Insufficient Storage
  [SqlState.ADMIN_SHUTDOWN]: 503, // 57P01: the server is shutting down
  [SqlState.OUT_OF_MEMORY]: 503, // out of memory: the server is busy, retry later
  [SqlState.INSUFFICIENT_RESOURCES]: 503, // 53000: out of file descriptors: retry later
  [SqlState.IO_ERROR]: 500, // 58030
  [SqlState.DATA_CORRUPTED]: 500, // XX001
  [SqlState.INTERNAL_ERROR]: 500, // XX000
}

/**
 * The status for an error: 403 permission denied (the access control's 42501), a 5xx for
 * server-side faults (507 disk full, 503 shutting down or out of memory, 500 I/O, corruption and
 * internal errors), 400 for every other SQL error (the client's mistake, as QuestDB answers), 500
 * for anything else. A 42501 caused by the operating system refusing a file the statement names
 * (`read_parquet` of a file the server may not read: EACCES, EPERM) is not the principal's
 * permission: 400, as QuestDB answers it.
 */
export function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status
  if (err instanceof SqlError) {
    if (err.code === SqlState.INSUFFICIENT_PRIVILEGE) return osRefusal(err.cause) ? 400 : 403
    return SERVER_FAULTS[err.code] ?? 400
  }
  return 500
}

/** True for an operating system's permission error (an `Error` with `code` EACCES or EPERM). */
function osRefusal(cause: unknown): boolean {
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined
  return code === 'EACCES' || code === 'EPERM'
}

/** The message and position to report for an error. */
export function describe(err: unknown): { message: string; position: number | undefined } {
  if (err instanceof HttpError) return { message: err.message, position: err.position ?? undefined }
  if (err instanceof SqlError) return { message: err.message, position: Math.max(0, err.position) }
  return { message: err instanceof Error ? err.message : String(err), position: 0 }
}
