/// <reference lib="dom" />
/**
 * Every request the console makes to the server goes through here: the current sign-in (OIDC
 * tokens, or a password sign-in) adds its `Authorization` header, and answers that concern the
 * sign-in (401, 403 `Access denied … [HTTP]`, 503) are announced as `epochdb-auth` events for
 * the sign-in screens.
 */

/** Produces the `Authorization` header value (refreshing a token first if needed), or undefined. */
export type Authorizer = () => Promise<string | undefined>

let authorizer: Authorizer | undefined

/** Installs (or removes) the sign-in whose header every request carries. */
export function setAuthorizer(a: Authorizer | undefined): void {
  authorizer = a
}

/** True when a sign-in adds a header to requests. */
export function hasAuthorizer(): boolean {
  return authorizer !== undefined
}

/** The current `Authorization` header value, or undefined when nobody is signed in. */
export async function authorization(): Promise<string | undefined> {
  return authorizer === undefined ? undefined : authorizer()
}

/** What a sign-in screen reacts to. */
export type AuthEvent = 'unauthorized' | 'forbidden' | 'unavailable'

/** `fetch` with the sign-in's header; 401/403 [HTTP]/503 also fire an `epochdb-auth` event. */
export async function authorizedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const auth = await authorization()
  const headers = new Headers(init.headers)
  if (auth !== undefined) headers.set('Authorization', auth)
  const res = await fetch(url, { ...init, headers })
  if (authorizer !== undefined && (res.status === 401 || res.status === 403 || res.status === 503)) {
    const text = await res.clone().text()
    const kind: AuthEvent | undefined = res.status === 401 ? 'unauthorized' : res.status === 503 ? 'unavailable' : /Access denied.*\[HTTP\]/.test(text) ? 'forbidden' : undefined
    if (kind !== undefined) window.dispatchEvent(new CustomEvent<{ kind: AuthEvent; text: string }>('epochdb-auth', { detail: { kind, text } }))
  }
  return res
}
