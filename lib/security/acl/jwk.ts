/**
 * JWK tokens (`ALTER USER u CREATE TOKEN TYPE JWK`): an ECDSA P-256 key pair, as QuestDB
 * Enterprise makes for InfluxDB Line Protocol over TCP. The statement returns the public key's
 * `x` and `y` and the private key `d` (base64url, as in a JSON Web Key); only the public key is
 * kept, so the private key cannot be recovered — a new token replaces the old one.
 *
 * ILP/TCP's challenge login (QuestDB's): the client sends its key id (the user or service
 * account name) and a newline; the server answers with a challenge ({@link newJwkChallenge}) and
 * a newline; the client signs the challenge bytes with SHA-256 ECDSA and sends the signature in
 * base64 and a newline; the server checks it with {@link verifyJwkSignature} (through
 * `Database.authenticateJwk`, which also checks the account is enabled).
 */
import { createPublicKey, generateKeyPairSync, randomInt, verify } from 'node:crypto'

/** A stored JWK token: the public key's coordinates, base64url (P-256). */
export interface StoredJwk {
  readonly x: string
  readonly y: string
}

/** A new key pair: the public key to keep, and the private key (`d`) to hand out once. */
export function newJwk(): { readonly publicKey: StoredJwk; readonly privateKey: string } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = privateKey.export({ format: 'jwk' })
  return { publicKey: { x: jwk.x!, y: jwk.y! }, privateKey: jwk.d! }
}

/** The length of a challenge, as QuestDB's ILP/TCP authenticator sends it. */
export const CHALLENGE_LENGTH = 512
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A fresh challenge: {@link CHALLENGE_LENGTH} random letters and digits (never a newline). */
export function newJwkChallenge(): Buffer {
  const b = Buffer.allocUnsafe(CHALLENGE_LENGTH)
  for (let i = 0; i < b.length; i++) b[i] = ALPHABET.charCodeAt(randomInt(ALPHABET.length))
  return b
}

/**
 * True when `signature` (base64 or base64url text; DER, as Java and Node.js clients send it, or
 * the 64-byte r‖s form other clients send) is a SHA-256 ECDSA signature of `challenge` by the
 * private key of `key`. Malformed input is false, never an exception.
 */
export function verifyJwkSignature(key: StoredJwk, challenge: Uint8Array, signature: string): boolean {
  const text = signature.trim()
  if (text.length === 0 || text.length > 512 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return false
  let pub
  try { pub = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: key.x, y: key.y }, format: 'jwk' }) } catch { return false }
  const sig = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  try {
    if (sig.length === 64 && verify('sha256', challenge, { key: pub, dsaEncoding: 'ieee-p1363' }, sig)) return true
    return verify('sha256', challenge, { key: pub, dsaEncoding: 'der' }, sig)
  } catch {
    return false
  }
}
