/**
 * The errors of InfluxDB Line Protocol ingestion, with what QuestDB's ILP/HTTP endpoint answers
 * for them: an HTTP status, QuestDB's `code` string (`invalid`, `not supported`, `request too
 * large`, `unauthorised`, `internal error`) and, for an error in one line, that line's 1-based
 * number among the request's non-empty lines.
 */
import { SqlError, SqlState, type SqlStateCode } from '../errors.js'

/** QuestDB's `code` strings of ILP/HTTP error bodies. */
export type IlpErrorCode = 'invalid' | 'not supported' | 'request too large' | 'unauthorised' | 'internal error'

/** Prefix QuestDB puts before a line-level error's detail. */
export const LINE_ERROR_PREFIX = 'failed to parse line protocol:errors encountered on line(s):\nerror in line '

/**
 * An ingestion error. `line` is set for errors in one line (the message then carries QuestDB's
 * `failed to parse line protocol:…error in line N: <detail>` prefix); `reason` is the bare
 * reason (what the TCP endpoint logs).
 */
export class IlpError extends SqlError {
  /** the HTTP status QuestDB answers with */
  readonly status: number
  /** QuestDB's `code` of the JSON error body */
  readonly ilpCode: IlpErrorCode
  /** 1-based number of the failing non-empty line, when one line is at fault */
  readonly line: number | undefined
  /** the reason without the line prefix */
  readonly reason: string

  constructor(status: number, ilpCode: IlpErrorCode, detail: string, line?: number, state: SqlStateCode = SqlState.INVALID_TEXT_REPRESENTATION) {
    super(state, line === undefined ? detail : `${LINE_ERROR_PREFIX}${line}: ${detail}`)
    this.name = 'IlpError'
    this.status = status
    this.ilpCode = ilpCode
    this.line = line
    this.reason = detail
  }
}

/** An error in the current line (its number is added by the writer, which counts lines). */
export class LineError extends SqlError {
  constructor(message: string, readonly status = 400, readonly ilpCode: IlpErrorCode = 'invalid') {
    super(status === 403 ? SqlState.INSUFFICIENT_PRIVILEGE : SqlState.INVALID_TEXT_REPRESENTATION, message)
    this.name = 'LineError'
  }
}
