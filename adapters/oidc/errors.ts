/**
 * The three ways a request can fail the guard, each with the HTTP status the REST adapter
 * answers and the SQLSTATE pgwire answers.
 */

/** Why the guard refused or could not decide. */
export type OidcFailure =
  /** missing, malformed, forged, expired or revoked token; unusable claims → 401 / 28P01 */
  | 'unauthenticated'
  /** a valid identity without the endpoint permission → 403 / 42501 */
  | 'forbidden'
  /** the identity provider is unreachable, slow or answers nonsense → 503 / 08006 */
  | 'unavailable'

const STATUS: Readonly<Record<OidcFailure, number>> = { unauthenticated: 401, forbidden: 403, unavailable: 503 }
const SQLSTATE: Readonly<Record<OidcFailure, string>> = { unauthenticated: '28P01', forbidden: '42501', unavailable: '08006' }

/**
 * A refusal by the guard. `status` is read by the REST adapter (a hook throwing an error with
 * `status` 403 or 503 answers that status), `code` by the pgwire adapter (the SQLSTATE of the
 * FATAL ErrorResponse).
 */
export class OidcError extends Error {
  override readonly name = 'OidcError'
  /** the HTTP status: 401, 403 or 503 */
  readonly status: number
  /** the SQLSTATE for pgwire */
  readonly code: string

  constructor(readonly failure: OidcFailure, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.status = STATUS[failure]
    this.code = SQLSTATE[failure]
  }
}

/** The provider could not be reached or answered something unusable: 503, never cached. */
export function unavailable(message: string, cause?: unknown): OidcError {
  return new OidcError('unavailable', `identity provider unreachable: ${message}`, { cause })
}

/** The token was refused: 401. */
export function unauthenticated(message: string): OidcError {
  return new OidcError('unauthenticated', message)
}
