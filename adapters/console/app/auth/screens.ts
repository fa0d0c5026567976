/// <reference lib="dom" />
/**
 * The sign-in screens: one full-page card at a time (signed out, refused, no HTTP permission,
 * provider unreachable), the user's name with a sign-out button for the top bar, and a banner
 * for a provider that stops answering mid-session.
 */
import './auth.css'
import { el } from '../dom.js'

/** A button of a screen. */
export interface ScreenAction {
  readonly label: string
  readonly run: () => void
}

/** Shows a full-page card (replacing any other); `testid` names it for tests. */
export function showScreen(testid: string, title: string, text: string, actions: readonly ScreenAction[] = []): void {
  document.querySelector('.auth-screen')?.remove()
  const buttons = actions.map((a) => {
    const b = el('button', { class: 'primary' }, a.label)
    b.onclick = a.run
    return b
  })
  document.body.append(el('div', { class: 'auth-screen', 'data-testid': testid },
    el('div', { class: 'auth-card' }, el('h1', {}, title), el('p', {}, text), el('div', { class: 'auth-actions' }, ...buttons))))
}

/** Shows (or replaces) a banner at the top of the page. */
export function showBanner(testid: string, text: string): void {
  document.querySelector('.auth-banner')?.remove()
  const close = el('button', { class: 'icon', title: 'Dismiss' }, '✕')
  const banner = el('div', { class: 'auth-banner', 'data-testid': testid }, el('span', {}, text), close)
  close.onclick = () => banner.remove()
  document.body.append(banner)
}

/** The top bar's "name · Sign out". */
export function userBadge(name: string, signOut: () => void): HTMLElement {
  const b = el('button', { 'data-testid': 'sign-out', title: 'Sign out' }, 'Sign out')
  b.onclick = signOut
  return el('span', { class: 'auth-user' }, el('span', { 'data-testid': 'user', title: 'Signed in as' }, name), b)
}
