/**
 * Frontend messages (client → server) as a discriminated union, and the protocol's constants.
 * Mirror image of node-postgres's `pg-protocol/src/messages.ts`, which types the backend side.
 */

/** Request codes of the untyped first packet. */
export const StartupCode = {
  PROTOCOL_3_0: 196608,
  SSL_REQUEST: 80877103,
  GSSENC_REQUEST: 80877104,
  CANCEL_REQUEST: 80877102,
} as const

/** Format code of a parameter or result column: 0 text, 1 binary. */
export type FormatCode = 0 | 1

/** The first packet of a connection (no type byte). */
export type StartupPacket =
  | { readonly kind: 'startup'; readonly params: ReadonlyMap<string, string> }
  | { readonly kind: 'ssl' }
  | { readonly kind: 'gssenc' }
  | { readonly kind: 'cancel'; readonly pid: number; readonly secret: number }

/** A typed frontend message after startup. */
export type FrontendMessage =
  | { readonly kind: 'query'; readonly sql: string }
  | { readonly kind: 'parse'; readonly name: string; readonly sql: string; readonly paramOids: readonly number[] }
  | {
    readonly kind: 'bind'; readonly portal: string; readonly statement: string
    readonly paramFormats: readonly FormatCode[]
    /** values in text format, already decoded (UTF-8); values in binary format as their bytes; null for SQL NULL */
    readonly params: readonly (Buffer | string | null)[]
    readonly resultFormats: readonly FormatCode[]
  }
  | { readonly kind: 'describe'; readonly target: 'S' | 'P'; readonly name: string }
  | { readonly kind: 'execute'; readonly portal: string; readonly maxRows: number }
  | { readonly kind: 'close'; readonly target: 'S' | 'P'; readonly name: string }
  | { readonly kind: 'sync' }
  | { readonly kind: 'flush' }
  | { readonly kind: 'terminate' }
  /** `p`: a password, SASLInitialResponse or SASLResponse; decoded by the auth step that expects it */
  | { readonly kind: 'password'; readonly body: Buffer }
  /**
   * a well-framed message refused without closing the connection, as PostgreSQL refuses it:
   * FunctionCall (0A000), CopyData / CopyDone / CopyFail outside COPY, fields that do not parse
   * (08P01). `code` is its type byte.
   */
  | { readonly kind: 'invalid'; readonly code: string; readonly sqlstate: string; readonly message: string }

/** The kind tags of {@link FrontendMessage}. */
export type FrontendKind = FrontendMessage['kind']

/** Transaction status reported in ReadyForQuery. */
export type TxStatus = 'I' | 'T' | 'E'
