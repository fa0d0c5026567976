/// <reference lib="dom" />
/**
 * Signing in to the console when the server needs credentials (`/settings` says `acl.enabled`
 * and OIDC is off), as QuestDB's console does: the user name and password go once, as HTTP
 * Basic, with `ALTER USER '<u>' CREATE TOKEN TYPE REST WITH TTL '1d' REFRESH`; every later request
 * carries the returned REST token as `Authorization: Bearer qt1…`. The token lives in memory
 * only (a reload asks again). A server that cannot mint tokens (`http.user` Basic auth, an
 * engine without access control) is signed in with the Basic header kept in memory instead.
 *
 * 401 means a wrong user name or password (at sign-in) or an ended session (later: the form
 * comes back, once, no retry loop); 403 `Access denied … [HTTP]` means the user may not use the
 * console, said as such.
 */
import { el } from './dom.js'

/** What QuestDB's console says when a user lacks the HTTP permission. */
export const NOT_AUTHORIZED = 'You are not authorized to use the Web Console. Contact your account administrator.'

let authorization: string | undefined
let signedInUser: string | undefined
let token: string | undefined

/** Headers that authenticate a request ({} when not signed in). */
export function authHeaders(): Record<string, string> {
  return authorization === undefined ? {} : { Authorization: authorization }
}

/** The signed-in user's name, or undefined. */
export function currentUser(): string | undefined {
  return signedInUser
}

/** True when `body` (JSON `{error}` or text) is the HTTP endpoint's denial. */
export function isEndpointDenial(body: string): boolean {
  let text = body
  try { const j = JSON.parse(body) as { error?: unknown }; if (typeof j.error === 'string') text = j.error } catch { /* text */ }
  return /Access denied.*\[HTTP\]/.test(text)
}

/** Listeners told when the server refuses the current credentials (401) or the console (403 HTTP). */
const refusedListeners: ((why: string) => void)[] = []

/** Calls `f` when a request is refused as unauthenticated or not authorized for the console. */
export function onRefused(f: (why: string) => void): void {
  refusedListeners.push(f)
}

/** Reports an answer's status; 401 and the 403 HTTP denial end the session and show the form. */
export function noteStatus(status: number, body: string): void {
  if (status === 401) refused('Your session has ended: sign in again.')
  else if (status === 403 && isEndpointDenial(body)) refused(NOT_AUTHORIZED)
}

function refused(why: string): void {
  authorization = undefined
  signedInUser = undefined
  token = undefined
  for (const f of refusedListeners) f(why)
}

const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`

/** Signs in; resolves undefined when signed in, else the message to show. */
export async function signIn(user: string, password: string): Promise<string | undefined> {
  const basic = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)))}`
  const get = (query: string): Promise<Response> => fetch(`exec?${new URLSearchParams({ query }).toString()}`, { headers: { Accept: 'application/json', Authorization: basic } })
  try {
    let res = await get(`ALTER USER ${sqlString(user)} CREATE TOKEN TYPE REST WITH TTL '1d' REFRESH`)
    let body = await res.text()
    const minted = res.status === 200 ? restToken(body) : undefined
    if (minted === undefined && res.status !== 401 && !(res.status === 403 && isEndpointDenial(body))) {
      // no token from this server: check the credentials with a plain query and keep Basic
      res = await get('select 1')
      body = await res.text()
    }
    if (res.status === 401) return 'Invalid username or password'
    if (res.status === 403) return isEndpointDenial(body) ? NOT_AUTHORIZED : 'Error occurred while trying to login'
    if (res.status !== 200) return `Error occurred while trying to login (HTTP ${res.status})`
    token = minted
    authorization = minted === undefined ? basic : `Bearer ${minted}`
    signedInUser = user
    return undefined
  } catch {
    return 'Error occurred while trying to login: the server does not answer'
  }
}

/** The `qt1…` token of an ALTER USER … CREATE TOKEN answer, or undefined. */
function restToken(body: string): string | undefined {
  try {
    const j = JSON.parse(body) as { dataset?: unknown[][] }
    const v = j.dataset?.[0]?.find((c) => typeof c === 'string' && c.startsWith('qt1'))
    return typeof v === 'string' ? v : undefined
  } catch {
    return undefined
  }
}

/** Signs out: drops the REST token on the server (best effort), forgets the credentials, reloads the page. */
export function signOut(): void {
  if (token !== undefined && signedInUser !== undefined) {
    const query = `ALTER USER ${sqlString(signedInUser)} DROP TOKEN TYPE REST ${sqlString(token)}`
    void fetch(`exec?${new URLSearchParams({ query }).toString()}`, { headers: authHeaders(), keepalive: true }).catch(() => undefined)
  }
  authorization = undefined
  signedInUser = undefined
  token = undefined
  // no data of the previous user stays in the grid, history panel or schema browser
  location.reload()
}

/** The sign-in form as an overlay; `done` runs once signed in. */
export function signInForm(done: () => void): { element: HTMLElement; show(message?: string): void } {
  const userInput = el('input', { type: 'text', autocomplete: 'username', placeholder: 'Enter username', 'data-testid': 'signin-user' })
  const passwordInput = el('input', { type: 'password', autocomplete: 'current-password', placeholder: 'Enter password', 'data-testid': 'signin-password' })
  const error = el('div', { class: 'signin-error hidden', role: 'alert', 'data-testid': 'signin-error' })
  const submit = el('button', { class: 'primary', type: 'submit', 'data-testid': 'signin-submit' }, 'Sign in')
  const form = el('form', { class: 'signin-card' },
    el('h1', {}, 'Sign in to EpochDB'),
    el('label', {}, 'Username', userInput),
    el('label', {}, 'Password', passwordInput),
    error, submit)
  const element = el('div', { class: 'signin hidden', 'data-testid': 'signin' }, form)
  const say = (m: string | undefined): void => { error.textContent = m ?? ''; error.classList.toggle('hidden', m === undefined) }
  form.onsubmit = async (e) => {
    e.preventDefault()
    if (userInput.value === '' || passwordInput.value === '') { say('Username and password are required'); return }
    submit.setAttribute('disabled', '')
    const failed = await signIn(userInput.value, passwordInput.value)
    submit.removeAttribute('disabled')
    passwordInput.value = ''
    if (failed !== undefined) { say(failed); return }
    say(undefined)
    element.classList.add('hidden')
    done()
  }
  return {
    element,
    show(message?: string): void {
      say(message)
      element.classList.remove('hidden')
      userInput.focus()
    },
  }
}
