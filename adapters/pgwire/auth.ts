/**
 * The authentication exchange after the StartupMessage: cleartext password (QuestDB's way) or
 * SCRAM-SHA-256. Each step consumes one `p` message body and says what to send next.
 */
import type { Principal } from '../../lib/index.js'
import * as be from './backend-serializer.js'
import { BufferReader } from './buffer-reader.js'
import type { BufferWriter } from './buffer-writer.js'
import type { ResolvedOptions } from './options.js'
import { type ScramState, scramServerFinal, scramServerFirst } from './scram.js'

/** The result of one step: keep going, logged in as a principal, or refused with a message. */
export type AuthStep =
  | { readonly kind: 'continue' }
  | { readonly kind: 'ok'; readonly principal: Principal }
  | { readonly kind: 'fail'; readonly message: string }

/** One login attempt. */
export class Authenticator {
  private scram: ScramState | undefined

  constructor(
    private readonly opts: ResolvedOptions,
    private readonly user: string,
    private readonly database: string,
    private readonly remoteAddress: string | undefined,
  ) {}

  /** Writes the first authentication request. */
  begin(w: BufferWriter): void {
    if (this.opts.authMethod === 'scram-sha-256') be.auth.sasl(w, ['SCRAM-SHA-256'])
    else be.auth.cleartext(w)
  }

  private refused(): AuthStep {
    return { kind: 'fail', message: `password authentication failed for user "${this.user}"` }
  }

  private principal(): Principal {
    return { name: this.user, groups: [], admin: true }
  }

  /** Handles a `p` message body, writing any reply into `w`. */
  async step(body: Buffer, w: BufferWriter): Promise<AuthStep> {
    const r = new BufferReader(body)
    if (this.opts.authMethod === 'password') {
      const password = r.cstring()
      if (this.opts.authenticate !== undefined) {
        const p = await this.opts.authenticate({ user: this.user, password, database: this.database, remoteAddress: this.remoteAddress })
        return p === null ? this.refused() : { kind: 'ok', principal: p }
      }
      return this.user === this.opts.user && password === this.opts.password ? { kind: 'ok', principal: this.principal() } : this.refused()
    }
    if (this.scram === undefined) {
      const mechanism = r.cstring()
      if (mechanism !== 'SCRAM-SHA-256') return { kind: 'fail', message: `unsupported SASL mechanism ${mechanism}` }
      const len = r.int32()
      const state = scramServerFirst(r.bytes(Math.max(0, Math.min(len, r.remaining))).toString('utf8'))
      if (typeof state === 'string') return { kind: 'fail', message: state }
      this.scram = state
      be.auth.saslContinue(w, state.serverFirst)
      return { kind: 'continue' }
    }
    const password = this.passwordOf(this.user)
    const final = password === undefined ? null : scramServerFinal(this.scram, body.toString('utf8'), password)
    if (final === null) return this.refused()
    be.auth.saslFinal(w, final)
    return { kind: 'ok', principal: this.principal() }
  }

  private passwordOf(user: string): string | undefined {
    if (this.opts.scramPassword !== undefined) return this.opts.scramPassword(user)
    return user === this.opts.user ? this.opts.password : undefined
  }
}
