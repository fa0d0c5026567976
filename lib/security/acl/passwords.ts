/**
 * Passwords stored the way PostgreSQL stores them: a SCRAM-SHA-256 verifier (RFC 5802/7677:
 * salt, iterations, StoredKey, ServerKey), never the text. A cleartext or HTTP Basic login
 * derives the keys from the password it was given and compares StoredKey in constant time; a
 * SCRAM login runs the exchange against the same verifier.
 */
import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import type { PasswordVerifier } from './access-control.js'

const pbkdf2Async = promisify(pbkdf2)

/** PostgreSQL's default PBKDF2 iteration count for SCRAM-SHA-256 verifiers. */
export const DEFAULT_ITERATIONS = 4096
/** Salt length in bytes (PostgreSQL uses 16). */
const SALT_BYTES = 16

/**
 * The SASLprep (RFC 4013) steps that change a password's bytes, as PostgreSQL and libpq apply
 * them: non-ASCII spaces to a space, characters "commonly mapped to nothing" removed, NFKC.
 */
export function saslPrep(password: string): string {
  // eslint-disable-next-line no-misleading-character-class
  return password.replace(/[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g, ' ').replace(/[\u00AD\u034F\u1806\u180B\u180C\u180D\u200C\u200D\u2060\uFE00-\uFE0F\uFEFF]/g, '').normalize('NFKC')
}

/** SaltedPassword = PBKDF2-HMAC-SHA-256(SASLprep(password), salt, i): on the thread pool, off the event loop. */
export function saltedPassword(password: string, salt: Buffer, iterations: number): Promise<Buffer> {
  return pbkdf2Async(Buffer.from(saslPrep(password), 'utf8'), salt, iterations, 32, 'sha256')
}

function hmac(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest()
}

/** StoredKey = H(HMAC(SaltedPassword, "Client Key")). */
function storedKeyOf(salted: Buffer): Buffer {
  return createHash('sha256').update(hmac(salted, 'Client Key')).digest()
}

/** A new verifier for `password`, with a random salt. */
export async function makeVerifier(password: string, iterations: number = DEFAULT_ITERATIONS, salt: Buffer = randomBytes(SALT_BYTES)): Promise<PasswordVerifier> {
  const salted = await saltedPassword(password, salt, iterations)
  return { salt, iterations, storedKey: storedKeyOf(salted), serverKey: hmac(salted, 'Server Key') }
}

/** True when `password` derives `v`'s StoredKey (constant-time comparison). */
export async function checkPassword(v: PasswordVerifier, password: string): Promise<boolean> {
  const salted = await saltedPassword(password, v.salt, v.iterations)
  return timingSafeEqual(storedKeyOf(salted), v.storedKey)
}

/** PostgreSQL's text form of a verifier: `SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>` (base64). */
export function verifierText(v: PasswordVerifier): string {
  return `SCRAM-SHA-256$${v.iterations}:${v.salt.toString('base64')}$${v.storedKey.toString('base64')}:${v.serverKey.toString('base64')}`
}
