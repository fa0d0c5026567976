/**
 * The authentication exchange after the StartupMessage: cleartext password (QuestDB's way) or
 * SCRAM-SHA-256. Each step consumes one `p` message body and says what to send next.
 *
 * Every password check goes through the adapter's login throttle: the attempt is admitted (and
 * counted) before the password is looked at, so a locked-out client is refused even with the
 * right password. Built-in passwords are compared in constant time.
 *
 * With access control on (`db.aclEnabled`) the engine's users log in instead of `pg.user`:
 * cleartext through `db.authenticate`, SCRAM against `db.passwordVerifier` (an unknown user gets
 * the mock verifier, so the exchange and its 28P01 look the same). The `authenticate` hook still
 * goes first; when it answers null, the engine's users are tried. The PGWIRE endpoint check
 * follows in the connection.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Database, LoginAttempt, LoginRefusal, Principal } from '../../lib/index.js'
import * as be from './backend-serializer.js'
import { BufferReader } from './buffer-reader.js'
import type { BufferWriter } from './buffer-writer.js'
import type { ResolvedOptions } from './options.js'
import { type ScramState, type ScramVerifier, scramServerFinal, scramServerFirst } from './scram.js'

/** The result of one step: keep going, logged in as a principal, or refused with a SQLSTATE and message. */
export type AuthStep =
  | { readonly kind: 'continue' }
  | { readonly kind: 'ok'; readonly principal: Principal }
  | { readonly kind: 'fail'; readonly code: string; readonly message: string }

/** The refusal of a locked-out client (or of one with too many logins in progress): 28000, and when to come back. */
export function lockedOut(retryAfterMs: number, reason: LoginRefusal['reason'] = 'locked'): { readonly code: string; readonly message: string } {
  const what = reason === 'locked' ? 'too many failed login attempts' : 'too many login attempts in progress'
  return { code: '28000', message: `${what}, retry in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s` }
}

/** Equality of two strings in time independent of where they differ (both are hashed first). */
export function constantTimeEqual(a: string, b: string): boolean {
  const h = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(h(a), h(b))
}

/** One login attempt. */
export class Authenticator {
  private scram: ScramState | undefined

  constructor(
    private readonly opts: ResolvedOptions,
    private readonly user: string,
    private readonly database: string,
    private readonly remoteAddress: string | undefined,
    private readonly db?: Database,
  ) {}

  /** SCRAM, unless the method is cleartext or this user's password is a token (`cleartextUser`). */
  private get scramMode(): boolean {
    return this.opts.authMethod === 'scram-sha-256' && this.opts.cleartextUser?.(this.user) !== true
  }

  /** True when the engine's users log in (access control on). */
  private get engine(): boolean {
    return this.db?.aclEnabled === true
  }

  /** Writes the first authentication request. */
  begin(w: BufferWriter): void {
    if (this.scramMode) be.auth.sasl(w, ['SCRAM-SHA-256'])
    else be.auth.cleartext(w)
  }

  private refused(): AuthStep {
    return { kind: 'fail', code: '28P01', message: `password authentication failed for user "${this.user}"` }
  }

  private principal(): Principal {
    return { name: this.user, groups: [], admin: true }
  }

  /** Admits the password check of this attempt, or refuses it while the client is locked out. */
  private admit(): LoginAttempt | LoginRefusal {
    const t = this.opts.loginThrottle
    if (t === undefined) return { allowed: true, succeeded: () => undefined, failed: () => undefined }
    return t.begin(this.user, this.remoteAddress)
  }

  /** Handles a `p` message body, writing any reply into `w`. */
  async step(body: Buffer, w: BufferWriter): Promise<AuthStep> {
    const r = new BufferReader(body)
    if (!this.scramMode) {
      const password = r.cstring()
      const gate = this.admit()
      if (!gate.allowed) return { kind: 'fail', ...lockedOut(gate.retryAfterMs, gate.reason) }
      let p: Principal | null
      try {
        p = await this.checkCleartext(password)
      } catch (e) {
        // a hook's error with a SQLSTATE other than 28P01 (42501: no PGWIRE; 08006: identity provider down) is sent as it is
        const code = (e as { code?: unknown }).code
        if (typeof code === 'string' && /^(42501|08006)$/.test(code)) { gate.succeeded(); return { kind: 'fail', code, message: (e as Error).message } }
        p = null
      }
      if (p === null) { gate.failed(); return this.refused() }
      gate.succeeded()
      return { kind: 'ok', principal: p }
    }
    if (this.scram === undefined) {
      const mechanism = r.cstring()
      if (mechanism !== 'SCRAM-SHA-256') return { kind: 'fail', code: '28000', message: `unsupported SASL mechanism ${mechanism}` }
      const len = r.int32()
      const verifier = this.engine && this.opts.scramPassword === undefined
        ? await this.engineVerifier()
        : await this.opts.scramKeys.verifierOf(this.user, this.passwordOf(this.user))
      const state = scramServerFirst(r.bytes(Math.max(0, Math.min(len, r.remaining))).toString('utf8'), verifier)
      if (typeof state === 'string') return { kind: 'fail', code: '08P01', message: state }
      this.scram = state
      be.auth.saslContinue(w, state.serverFirst)
      return { kind: 'continue' }
    }
    const gate = this.admit()
    if (!gate.allowed) return { kind: 'fail', ...lockedOut(gate.retryAfterMs, gate.reason) }
    const final = scramServerFinal(this.scram, body.toString('utf8'))
    // with the engine's users: a user disabled (or dropped) during the exchange is refused alike
    const p = final === null ? null : this.engine && this.opts.scramPassword === undefined ? this.db!.userPrincipal(this.user) : this.principal()
    if (final === null || p === null) { gate.failed(); return this.refused() }
    gate.succeeded()
    be.auth.saslFinal(w, final)
    return { kind: 'ok', principal: p }
  }

  /** The engine's verifier of this user, or the mock one (same salt length and iterations) when there is none. */
  private async engineVerifier(): Promise<ScramVerifier> {
    const v = await this.db!.passwordVerifier(this.user).catch(() => undefined)
    if (v !== undefined) { this.opts.scramKeys.noteIterations(v.iterations); return v }
    return this.opts.scramKeys.verifierOf(this.user, undefined)
  }

  /** The principal for a cleartext password, or null. A throwing hook counts as a refusal. */
  private async checkCleartext(password: string): Promise<Principal | null> {
    if (this.opts.authenticate !== undefined) {
      const p = await this.opts.authenticate({ user: this.user, password, database: this.database, remoteAddress: this.remoteAddress })
      if (p !== null || !this.engine) return p
    }
    if (this.engine) return this.db!.authenticate(this.user, password)
    // both compared, always: no early exit that tells a wrong user from a wrong password
    const userOk = constantTimeEqual(this.user, this.opts.user)
    const passwordOk = constantTimeEqual(password, this.opts.password)
    return userOk && passwordOk ? this.principal() : null
  }

  private passwordOf(user: string): string | undefined {
    if (this.opts.scramPassword !== undefined) return this.opts.scramPassword(user)
    return user === this.opts.user ? this.opts.password : undefined
  }
}
