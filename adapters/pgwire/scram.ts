/**
 * The server side of SCRAM-SHA-256 (RFC 5802 / RFC 7677) as PostgreSQL speaks it: no channel
 * binding, the user name taken from the StartupMessage.
 *
 * As PostgreSQL stores a verifier (salt, StoredKey, ServerKey) instead of the password, the
 * adapter derives each user's verifier once (PBKDF2 on libuv's thread pool, never on the event
 * loop) and keeps it in a small {@link ScramKeys} cache, so a login costs a few HMACs. An
 * unknown user gets a mock verifier derived from a per-server secret — a stable salt, the same
 * work, a proof that never matches — so the exchange does not reveal which users exist.
 */
import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

/** Iterations of PBKDF2 (PostgreSQL's default). */
export const SCRAM_ITERATIONS = 4096

/** Verifiers cached per adapter at most. */
const MAX_CACHED = 1000

const pbkdf2Async = promisify(pbkdf2)

/** What the server keeps of a password: PostgreSQL's SCRAM secret. */
export interface ScramVerifier {
  readonly salt: Buffer
  readonly iterations: number
  readonly storedKey: Buffer
  readonly serverKey: Buffer
}

/** State kept between the server-first and client-final messages. */
export interface ScramState {
  readonly clientFirstBare: string
  readonly serverFirst: string
  readonly nonce: string
  readonly verifier: ScramVerifier
}

const hmac = (key: Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest()
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest()

/** Derives the verifier of `password` with `salt` (PBKDF2 off the event loop). */
export async function scramVerifier(password: string, salt: Buffer, iterations = SCRAM_ITERATIONS): Promise<ScramVerifier> {
  const salted = await pbkdf2Async(password.normalize('NFKC'), salt, iterations, 32, 'sha256')
  return { salt, iterations, storedKey: sha256(hmac(salted, 'Client Key')), serverKey: hmac(salted, 'Server Key') }
}

/** Verifiers by user name, derived on first use; unknown users get a mock one. */
export class ScramKeys {
  private readonly secret = randomBytes(32)
  /** iterations the mock verifier announces: those of the last real verifier seen (the engine's `acl.password.hash.iteration.count`) */
  private mockIterations = SCRAM_ITERATIONS

  /** Makes mock verifiers announce `iterations`, as the real ones (from the engine's store) do. */
  noteIterations(iterations: number): void {
    this.mockIterations = iterations
  }
  private readonly cache = new Map<string, { password: string; verifier: Promise<ScramVerifier> }>()

  /** The verifier for `user` whose password is `password`, or a mock one when it is undefined. */
  verifierOf(user: string, password: string | undefined): Promise<ScramVerifier> {
    if (password === undefined) return Promise.resolve(this.mock(user))
    const hit = this.cache.get(user)
    if (hit !== undefined && hit.password === password) return hit.verifier
    const verifier = scramVerifier(password, hmac(this.secret, `salt:${user}`).subarray(0, 16))
    this.cache.delete(user)
    this.cache.set(user, { password, verifier })
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!)
    return verifier
  }

  private mock(user: string): ScramVerifier {
    return {
      salt: hmac(this.secret, `salt:${user}`).subarray(0, 16), iterations: this.mockIterations,
      storedKey: hmac(this.secret, `stored:${user}`), serverKey: hmac(this.secret, `server:${user}`),
    }
  }
}

function attributes(s: string): Map<string, string> {
  const m = new Map<string, string>()
  for (const part of s.split(',')) {
    const eq = part.indexOf('=')
    if (eq === 1) m.set(part[0]!, part.slice(2))
  }
  return m
}

/** Handles client-first-message; returns the state (with the server-first-message), or an error text. */
export function scramServerFirst(clientFirst: string, verifier: ScramVerifier): ScramState | string {
  if (clientFirst.startsWith('p=')) return 'channel binding is not supported'
  if (!clientFirst.startsWith('n,') && !clientFirst.startsWith('y,')) return 'malformed SCRAM client-first-message'
  const second = clientFirst.indexOf(',', 2)
  if (second < 0) return 'malformed SCRAM client-first-message'
  const clientFirstBare = clientFirst.slice(second + 1)
  const clientNonce = attributes(clientFirstBare).get('r')
  if (clientNonce === undefined || clientNonce === '') return 'SCRAM client nonce is missing'
  const nonce = clientNonce + randomBytes(18).toString('base64')
  const serverFirst = `r=${nonce},s=${verifier.salt.toString('base64')},i=${verifier.iterations}`
  return { clientFirstBare, serverFirst, nonce, verifier }
}

/** Verifies client-final-message; returns server-final-message, or null when the proof is wrong. */
export function scramServerFinal(state: ScramState, clientFinal: string): string | null {
  const attrs = attributes(clientFinal)
  const proof = attrs.get('p')
  if (attrs.get('r') !== state.nonce || proof === undefined) return null
  const withoutProof = clientFinal.slice(0, clientFinal.lastIndexOf(',p='))
  const authMessage = `${state.clientFirstBare},${state.serverFirst},${withoutProof}`
  const { storedKey, serverKey } = state.verifier
  const signature = hmac(storedKey, authMessage)
  const given = Buffer.from(proof, 'base64')
  if (given.length !== signature.length) return null
  const recovered = Buffer.alloc(given.length)
  for (let i = 0; i < given.length; i++) recovered[i] = given[i]! ^ signature[i]!
  if (!timingSafeEqual(sha256(recovered), storedKey)) return null
  return `v=${hmac(serverKey, authMessage).toString('base64')}`
}
