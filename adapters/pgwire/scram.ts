/**
 * The server side of SCRAM-SHA-256 (RFC 5802 / RFC 7677) as PostgreSQL speaks it: no channel
 * binding, the user name taken from the StartupMessage. Pure functions over node:crypto.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto'

/** Iterations of PBKDF2 (PostgreSQL's default). */
export const SCRAM_ITERATIONS = 4096

/** State kept between the server-first and client-final messages. */
export interface ScramState {
  readonly clientFirstBare: string
  readonly serverFirst: string
  readonly nonce: string
  readonly salt: Buffer
}

const hmac = (key: Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest()
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest()

function attributes(s: string): Map<string, string> {
  const m = new Map<string, string>()
  for (const part of s.split(',')) {
    const eq = part.indexOf('=')
    if (eq === 1) m.set(part[0]!, part.slice(2))
  }
  return m
}

/** Handles client-first-message; returns the state and the server-first-message, or an error text. */
export function scramServerFirst(clientFirst: string): ScramState | string {
  if (clientFirst.startsWith('p=')) return 'channel binding is not supported'
  if (!clientFirst.startsWith('n,') && !clientFirst.startsWith('y,')) return 'malformed SCRAM client-first-message'
  const second = clientFirst.indexOf(',', 2)
  if (second < 0) return 'malformed SCRAM client-first-message'
  const clientFirstBare = clientFirst.slice(second + 1)
  const clientNonce = attributes(clientFirstBare).get('r')
  if (clientNonce === undefined || clientNonce === '') return 'SCRAM client nonce is missing'
  const nonce = clientNonce + randomBytes(18).toString('base64')
  const salt = randomBytes(16)
  const serverFirst = `r=${nonce},s=${salt.toString('base64')},i=${SCRAM_ITERATIONS}`
  return { clientFirstBare, serverFirst, nonce, salt }
}

/** Verifies client-final-message against `password`; returns server-final-message, or null when the proof is wrong. */
export function scramServerFinal(state: ScramState, clientFinal: string, password: string): string | null {
  const attrs = attributes(clientFinal)
  const proof = attrs.get('p')
  if (attrs.get('r') !== state.nonce || proof === undefined) return null
  const withoutProof = clientFinal.slice(0, clientFinal.lastIndexOf(',p='))
  const authMessage = `${state.clientFirstBare},${state.serverFirst},${withoutProof}`
  const salted = pbkdf2Sync(password.normalize('NFKC'), state.salt, SCRAM_ITERATIONS, 32, 'sha256')
  const clientKey = hmac(salted, 'Client Key')
  const storedKey = sha256(clientKey)
  const signature = hmac(storedKey, authMessage)
  const given = Buffer.from(proof, 'base64')
  if (given.length !== signature.length) return null
  const recovered = Buffer.alloc(given.length)
  for (let i = 0; i < given.length; i++) recovered[i] = given[i]! ^ signature[i]!
  if (!timingSafeEqual(sha256(recovered), storedKey)) return null
  return `v=${hmac(hmac(salted, 'Server Key'), authMessage).toString('base64')}`
}
