/**
 * What an endpoint gets for one request: the database, the node request/response, the parsed
 * target, the session of the authenticated principal and the request's cancel signal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database, Session } from '../../lib/index.js'
import type { ResolvedOptions } from './options.js'
import type { Target } from './request.js'
import { HttpError } from './http-error.js'
import { PARQUET_PARAMS } from './exp-parquet.js'

/** A cancel signal that a client disconnect sets. */
export interface RequestSignal {
  cancelled: boolean
}

/** One request, as endpoints see it. */
export interface RequestContext {
  readonly db: Database
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly target: Target
  readonly options: ResolvedOptions
  readonly session: Session
  readonly signal: RequestSignal
  /** nanoseconds spent authenticating (`timings.authentication`) */
  readonly authNanos: number
}

/** Parameters each endpoint accepts (QuestDB's names, including ones it accepts and ignores). */
export const KNOWN_PARAMS = {
  exec: new Set(['query', 'limit', 'count', 'nm', 'timings', 'explain', 'cols', 'quoteLargeNum', 'src', 'version', 'fmt', 'timeout', 'session']),
  exp: new Set(['query', 'limit', 'count', 'nm', 'filename', 'delimiter', 'fmt', 'timeout', 'src', 'version', ...PARQUET_PARAMS]),
  imp: new Set(['name', 'overwrite', 'atomicity', 'forceHeader', 'skipLev', 'delimiter', 'timestamp', 'partitionBy', 'o3MaxLag', 'maxUncommittedRows', 'create', 'fmt', 'durable']),
  chk: new Set(['j', 'f', 'version']),
  validate: new Set(['query', 'version', 'src']),
} as const

/** Throws 400 for a parameter `known` does not hold (unless the option turns the check off). */
export function checkParams(ctx: RequestContext, known: ReadonlySet<string>): void {
  if (!ctx.options.rejectUnknownParams) return
  for (const name of ctx.target.params.keys()) {
    if (!known.has(name)) throw new HttpError(400, `unknown parameter [name=${name}]`)
  }
}
