/// <reference lib="dom" />
/**
 * PKCE (RFC 7636) and `state` values from Web Crypto: a random verifier, its S256 challenge.
 */

/** `bytes` random bytes as base64url without padding (60 bytes → 80 characters). */
export function randomToken(bytes = 60): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)). */
export async function challengeS256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
}

function base64url(b: Uint8Array): string {
  let s = ''
  for (const x of b) s += String.fromCharCode(x)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The claims of a JWT's payload, unverified (for the display name only), or undefined. */
export function jwtClaims(token: string | undefined): Record<string, unknown> | undefined {
  const part = token?.split('.')[1]
  if (part === undefined) return undefined
  try {
    return JSON.parse(decodeURIComponent(escape(atob(part.replace(/-/g, '+').replace(/_/g, '/'))))) as Record<string, unknown>
  } catch {
    return undefined
  }
}
