/**
 * Options of the PostgreSQL wire protocol adapter, with QuestDB's defaults
 * (`pg.user` / `pg.password` = admin / quest).
 */
import { type SecureContext, type SecureContextOptions, createSecureContext } from 'node:tls'
import { LoginThrottle, type Principal } from '../../lib/index.js'
import { ScramKeys } from './scram.js'

/** What a client presented at login. */
export interface Credentials {
  readonly user: string
  /** the cleartext password (or a token passed as the password) */
  readonly password: string
  /** the StartupMessage `database` parameter */
  readonly database: string
  readonly remoteAddress: string | undefined
}

/** How passwords travel: cleartext (QuestDB's way) or SCRAM-SHA-256. */
export type AuthMethod = 'password' | 'scram-sha-256'

/** Options of {@link createPgwireServer} and {@link createPgwireHandler}. */
export interface PgwireOptions {
  /** the built-in admin user (`pg.user`), default `admin` */
  readonly user?: string
  /** its password (`pg.password`), default `quest` */
  readonly password?: string
  /** default `password` (cleartext) */
  readonly authMethod?: AuthMethod
  /**
   * Replaces the built-in user check (cleartext only; a token-as-password can be validated here):
   * resolves to the principal, or null to refuse with 28P01.
   */
  readonly authenticate?: (c: Credentials) => Principal | null | Promise<Principal | null>
  /**
   * Users whose password travels in cleartext even when `authMethod` is SCRAM: a token sent as
   * the password (an OIDC guard's `cleartextUser`, user `_sso`) must reach `authenticate`.
   */
  readonly cleartextUser?: (user: string) => boolean
  /** For SCRAM: the password of `user`, or undefined when unknown. Default: the built-in user. */
  readonly scramPassword?: (user: string) => string | undefined
  /** TLS key and certificate; when set, SSLRequest is answered `S` and the socket upgraded */
  readonly tls?: SecureContextOptions
  /**
   * With `tls` set: refuse a plaintext StartupMessage with 28000 (`pg.tls.required`, default
   * true); false also accepts unencrypted logins
   */
  readonly tlsRequired?: boolean
  /**
   * Failed-login limits per client address and per user (pass one {@link LoginThrottle} to
   * several adapters to share the counts); default a throttle of its own with the default
   * limits, `false` for none
   */
  readonly loginThrottle?: LoginThrottle | false
  /**
   * largest Query, Parse, Bind or FunctionCall message accepted, default 64 MiB (`pg.recv.buffer.size`);
   * larger ones are refused with 54000 and the connection closed. Other messages are capped as
   * PostgreSQL caps them (10 000 bytes; 65 535 for a password).
   */
  readonly maxMessageSize?: number
  /** a connection that has not logged in after this many milliseconds is closed, default 10 s */
  readonly startupTimeoutMs?: number
  /**
   * most connections served at once (`pg.net.connection.limit`), default 64: the next one is
   * answered FATAL 53300 "sorry, too many clients already" in response to its startup message
   */
  readonly maxConnections?: number
  /**
   * most connections one client address may hold at once (`epochdb.pg.net.connection.limit.per.address`),
   * default 0 = no limit of its own: the next one from that address is answered FATAL 53300
   * "too many connections from this address" in response to its startup message
   */
  readonly maxConnectionsPerAddress?: number
  /**
   * a logged-in connection with no statement running and nothing received or sent for this many
   * milliseconds is closed with FATAL 57P05 (`pg.net.connection.timeout`), default 300 000; 0 = never
   */
  readonly idleTimeoutMs?: number
  /**
   * refuse statements that change data or the catalog with 25006 (`pg.security.readonly`),
   * default false
   */
  readonly readOnly?: boolean
  /** the `server_version` ParameterStatus, default `11.3` as QuestDB sends */
  readonly serverVersion?: string
}

/** Options with defaults filled in. */
export type ResolvedOptions = Required<Omit<PgwireOptions, 'authenticate' | 'scramPassword' | 'tls' | 'loginThrottle' | 'cleartextUser'>> & Pick<PgwireOptions, 'authenticate' | 'scramPassword' | 'tls' | 'cleartextUser'> & {
  /** the failed-login limits, undefined when off */
  readonly loginThrottle: LoginThrottle | undefined
  /** SCRAM verifiers of this adapter's users */
  readonly scramKeys: ScramKeys
  /** `tls` loaded once (a bad key or certificate fails here, not at the first client) */
  readonly secureContext: SecureContext | undefined
}

/** Fills in defaults. */
export function resolveOptions(o: PgwireOptions): ResolvedOptions {
  return {
    user: o.user ?? 'admin',
    password: o.password ?? 'quest',
    authMethod: o.authMethod ?? 'password',
    authenticate: o.authenticate,
    cleartextUser: o.cleartextUser,
    scramPassword: o.scramPassword,
    tls: o.tls,
    tlsRequired: o.tlsRequired ?? true,
    loginThrottle: o.loginThrottle === false ? undefined : o.loginThrottle ?? new LoginThrottle(),
    scramKeys: new ScramKeys(),
    secureContext: o.tls === undefined ? undefined : createSecureContext(o.tls),
    maxMessageSize: o.maxMessageSize ?? 64 * 1024 * 1024,
    startupTimeoutMs: o.startupTimeoutMs ?? 10_000,
    maxConnections: o.maxConnections ?? 64,
    maxConnectionsPerAddress: o.maxConnectionsPerAddress ?? 0,
    idleTimeoutMs: o.idleTimeoutMs ?? 300_000,
    readOnly: o.readOnly ?? false,
    serverVersion: o.serverVersion ?? '11.3',
  }
}
