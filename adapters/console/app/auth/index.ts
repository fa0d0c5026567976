/// <reference lib="dom" />
/**
 * The console's sign-in, run before anything else: reads `/settings`; when OIDC is on, signs in
 * at the provider (or finishes the callback), installs the token on every request, checks the
 * HTTP permission once (the same request starts QuestDB's `qdb_session` cookie session, ended
 * again at sign-out), and reacts to 401 / 403 / 503 later in the session. Without OIDC it
 * does nothing (a password sign-in can install its own header with `setAuthorizer`).
 */
import { authorizedFetch, setAuthorizer, type AuthEvent } from './authorized-fetch.js'
import { OidcSession, SignInError, oidcConfig } from './oidc-session.js'
import { showBanner, showScreen, userBadge } from './screens.js'
import { endServerSession, withSession } from './server-session.js'

/** What the page needs once signed in. */
export interface SignedIn {
  /** the `/settings` config */
  readonly config: Readonly<Record<string, unknown>>
  /** the top bar's user name and sign-out button, when someone signed in */
  readonly badge: HTMLElement | undefined
}

const SIGNED_OUT = 'epochdb.oauth.signed-out'
/**
 * Set (localStorage, no token in it) once this browser signed in with the provider, removed at
 * sign-out: a reload then signs in silently with `prompt=none` (QuestDB's `sso.session.active`).
 */
const SSO_ACTIVE = 'sso.session.active'

/** Resolves once the page may run queries; never resolves while a sign-in screen is up or the page is leaving. */
export async function startAuth(): Promise<SignedIn> {
  const config = await fetch('settings').then((r) => r.json() as Promise<{ config?: Record<string, unknown> }>).then((s) => s.config ?? {})
  const oidc = oidcConfig(config)
  if (oidc === undefined) return { config, badge: undefined }
  const session = new OidcSession(oidc)
  Object.assign(window, { epochConsoleAuth: session })
  const again = (): void => { void session.begin('login') }
  const never = new Promise<never>(() => undefined)
  if (sessionStorage.getItem(SIGNED_OUT) !== null && !OidcSession.isCallback()) {
    sessionStorage.removeItem(SIGNED_OUT)
    showScreen('signed-out', 'Signed out', 'You signed out of the EpochDB Web Console.', [{ label: 'Sign in', run: () => { void session.begin() } }])
    return never
  }
  if (!OidcSession.isCallback()) return session.begin(localStorage.getItem(SSO_ACTIVE) !== null ? 'none' : undefined)
  // the provider could not sign in silently (its session ended): once, interactively
  if (OidcSession.silentSignInFailed()) {
    localStorage.removeItem(SSO_ACTIVE)
    return session.begin()
  }
  try {
    await session.complete()
  } catch (e) {
    const unreachable = /unreachable/.test((e as Error).message)
    showScreen(unreachable ? 'idp-unreachable' : 'sign-in-failed', unreachable ? 'Identity provider unreachable' : 'Sign-in failed',
      e instanceof SignInError ? e.message : String(e), [{ label: 'Sign in again', run: again }])
    return never
  }
  setAuthorizer(() => session.authorization())
  // the HTTP permission, checked once before the console shows anything; the same request starts
  // the server session (the qdb_session cookie: /exp links work without the Bearer header)
  const probe = await authorizedFetch(withSession('select current_user()', true))
  const body = await probe.text()
  if (probe.status !== 200) {
    setAuthorizer(undefined)
    const kind = probe.status === 403 ? 'forbidden' : probe.status === 503 ? 'unavailable' : 'unauthorized'
    screenFor(kind, body, again)
    return never
  }
  localStorage.setItem(SSO_ACTIVE, 'true')
  let user = session.displayName()
  try { user ??= String((JSON.parse(body) as { dataset: unknown[][] }).dataset[0]![0]) } catch { user ??= '' }
  window.addEventListener('epochdb-auth', (e) => {
    const { kind, text } = (e as CustomEvent<{ kind: AuthEvent; text: string }>).detail
    if (kind === 'unavailable') showBanner('idp-unreachable', 'Identity provider unreachable: queries will work again once it answers.')
    else screenFor(kind, text, again)
  })
  const signOut = async (): Promise<void> => {
    await endServerSession(await session.authorization().catch(() => undefined))
    setAuthorizer(undefined)
    sessionStorage.setItem(SIGNED_OUT, '1')
    localStorage.removeItem(SSO_ACTIVE)
    session.signOut()
    if (oidc.endSessionEndpoint === undefined) location.reload()
  }
  return { config, badge: userBadge(user, () => { void signOut() }) }
}

function screenFor(kind: AuthEvent, text: string, again: () => void): void {
  if (kind === 'forbidden') {
    let why = text
    try { why = (JSON.parse(text) as { error?: string }).error ?? text } catch { /* plain text */ }
    showScreen('forbidden', 'Not authorized', `You are signed in, but not authorized to use the Web Console (${why}). Ask an administrator to grant HTTP to one of your groups.`, [{ label: 'Sign in as someone else', run: again }])
  } else if (kind === 'unavailable') {
    showScreen('idp-unreachable', 'Identity provider unreachable', 'The database cannot reach the identity provider to check your sign-in. Try again in a moment.', [{ label: 'Try again', run: () => location.reload() }])
  } else {
    showScreen('session-ended', 'Session ended', 'The database no longer accepts your sign-in (expired or revoked).', [{ label: 'Sign in again', run: again }])
  }
}
