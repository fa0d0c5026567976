/**
 * The Web Console's OpenID Connect sign-in in headless Chromium against a real oidc-provider:
 * Authorization Code + PKCE, a query with the Bearer token, a refresh before expiry, the
 * user's name, the `qdb_session` cookie session the console starts after signing in (a plain /exp
 * request works without the Bearer header) and ends at sign-out, sign-out with RP-initiated
 * logout and the editor's text surviving the round trip, the 403 screen and the "identity
 * provider unreachable" banner.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { Database } from '../../lib/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { createConsoleHandler } from '../../adapters/console/index.js'
import { createOidcGuard } from '../../adapters/oidc/index.js'
import { startDevProvider } from '../../examples/oidc/provider.js'
import { defaultUsers } from '../adapters/oidc/helpers.js'
import { findChromium } from './console-browser.js'

const chromiumPath = findChromium()
if (chromiumPath === undefined) {
  t.fail('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)')
} else {
  // access control on: alice's provider group maps to a group with HTTP; carol has no groups
  const db = await Database.open({ acl: { enabled: true } })
  await db.query("CREATE GROUP analysts WITH EXTERNAL ALIAS 'analysts'")
  await db.query('GRANT HTTP TO analysts')
  const settings: Record<string, string | boolean | null> = {}
  let guard: Awaited<ReturnType<typeof createOidcGuard>> | undefined
  let accessTtl = 3600
  const { freePort } = await import('../faults/server-process.js')
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const idp = await startDevProvider({ users: defaultUsers(), clients: { 'epochdb-console': [url] }, accessTokenTtl: () => accessTtl })
  const server = createHttpServer(db, { authenticate: (req) => guard!.http(req), settings, fallback: createConsoleHandler(undefined, { connectOrigins: [idp.issuer] }) })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  guard = await createOidcGuard(db, { configurationUrl: idp.discoveryUrl, tlsEnabled: false, clientId: 'epochdb-console', groupsClaim: 'groups', scope: 'openid profile', stateRequired: true, cacheTtlMs: 500, httpTimeoutMs: 2000 })
  Object.assign(settings, guard.settings)
  const profile = mkdtempSync(join(tmpdir(), 'epochdb-oidc-console-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath, headless: true, viewport: { width: 1280, height: 720 }, timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  t.teardown(async () => {
    await context.close().catch(() => undefined)
    server.closeAllConnections()
    server.close()
    await idp.close().catch(() => undefined)
    rmSync(profile, { recursive: true, force: true })
  })
  const page = context.pages()[0] ?? await context.newPage()
  if (process.env.EPOCHDB_DEBUG === '1') page.on('console', (m) => console.error('browser:', m.text()))
  if (process.env.EPOCHDB_DEBUG === '1') page.on('framenavigated', (f) => console.error('nav:', f.url()))
  page.setDefaultTimeout(15_000)
  const outbound = new Set<string>()
  page.on('request', (r) => outbound.add(new URL(r.url()).origin))
  const authHeaders: (string | undefined)[] = []
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/exec') authHeaders.push(r.headers()['authorization']) })

  async function signIn(p: Page, user: string): Promise<void> {
    await p.waitForSelector(`button[value=${user}]`)
    await p.click(`button[value=${user}]`)
  }
  async function typeSql(p: Page, text: string): Promise<void> {
    await p.focus('.cm-content')
    await p.keyboard.press('Control+A')
    await p.keyboard.press('Backspace')
    await p.keyboard.type(text, { delay: 5 })
  }
  async function runSql(p: Page): Promise<string> {
    await p.$eval('[data-testid=status]', (e) => { e.textContent = '' })
    await p.keyboard.press('Control+Enter')
    await p.waitForFunction(() => /^(Done|Error|Cancelled|Server|Nothing)/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), undefined, { timeout: 30_000 })
    return p.$eval('[data-testid=status]', (e) => e.textContent ?? '')
  }

  t.test('sign in with PKCE, query, refresh, sign out and back with the editor text kept', async (t) => {
    accessTtl = 8
    await page.goto(url)
    await page.waitForURL(new RegExp(`^${idp.issuer}/interaction/`))
    t.pass('sent to the provider')
    await signIn(page, 'alice')
    await page.waitForSelector('[data-testid=user]')
    t.equal(await page.$eval('[data-testid=user]', (e) => e.textContent), 'Alice Analyst', 'the user\'s name is shown')
    t.equal(new URL(page.url()).search, '', 'code and state are gone from the address')
    await page.waitForSelector('.cm-content')
    await typeSql(page, 'select current_user() from long_sequence(1)')
    t.match(await runSql(page), /^Done/)
    t.equal(await page.$eval('.grid', (e) => /alice/.test(e.textContent ?? '')), true, 'the query ran as alice')
    t.ok(authHeaders.length > 0 && authHeaders.every((h) => h?.startsWith('Bearer ')), 'every /exec carried a Bearer token')
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))
    t.notMatch(stored, /eyJ|access_token/, 'no token in web storage')
    // the server session QuestDB's console starts (exec?...&session=true): an HttpOnly cookie
    const cookie = (await context.cookies(url)).find((c) => c.name === 'qdb_session')
    t.match(cookie, { value: /^qs1/, httpOnly: true, sameSite: 'Strict', path: '/' }, 'the qdb_session cookie is set')
    t.equal(await page.evaluate(() => document.cookie.includes('qdb_session')), false, 'out of the page script\'s reach')
    // a download without the Bearer header: the cookie stands for alice
    const plain = await page.evaluate(async () => {
      const r = await fetch(`exp?${new URLSearchParams({ query: 'select current_user() u from long_sequence(1)' }).toString()}`)
      return { status: r.status, text: await r.text() }
    })
    t.same(plain, { status: 200, text: '"u"\r\n"alice"\r\n' }, '/exp answers as alice with the cookie alone')
    const withoutCookie = await fetch(`${url}exp?query=select%201`)
    t.equal(withoutCookie.status, 401, 'and not without it')
    // the token lives 8 s: a refresh happens before it expires, and queries keep working
    await page.waitForFunction(() => ((window as unknown as { epochConsoleAuth: { refreshes: number } }).epochConsoleAuth.refreshes) >= 1, undefined, { timeout: 15_000 })
    await page.waitForTimeout(4000)
    t.match(await runSql(page), /^Done/, 'a query after the first token\'s expiry')
    // sign out at the provider (RP-initiated logout), then back in: the editor text is kept
    await typeSql(page, 'select 42 keep_me')
    await page.click('[data-testid=sign-out]')
    await page.waitForURL(new RegExp(`^${idp.issuer}/session/end`))
    // sign-out ended the server session (session=false): the cookie is cleared, its id refused
    t.equal((await context.cookies(url)).some((c) => c.name === 'qdb_session'), false, 'the cookie is cleared')
    const replay = await fetch(`${url}exp?query=select%201`, { headers: { cookie: `qdb_session=${cookie!.value}` } })
    t.equal(replay.status, 401, 'the old session id no longer works')
    await page.click('button[value=yes]')
    await page.waitForSelector('[data-testid=signed-out]')
    await page.click('[data-testid=signed-out] button')
    await signIn(page, 'alice') // the provider's session ended: it asks again
    await page.waitForSelector('[data-testid=user]')
    await page.waitForSelector('.cm-content')
    t.match(await page.$eval('.cm-content', (e) => e.textContent), /select 42 keep_me/, 'the editor text survived')
    const origins = [...outbound].filter((o) => o !== new URL(url).origin && o !== idp.issuer)
    t.same(origins, [], `no request to anywhere but the server and the provider: ${origins.join(', ')}`)
  })

  t.test('a reload signs in silently with prompt=none; without a provider session, once interactively', async (t) => {
    const prompts: (string | null)[] = []
    const onRequest = (r: { url(): string }): void => { const u = new URL(r.url()); if (u.origin === idp.issuer && u.pathname === '/auth') prompts.push(u.searchParams.get('prompt')) }
    page.on('request', onRequest)
    t.teardown(() => { page.off('request', onRequest) })
    await page.waitForSelector('[data-testid=user]')
    await page.reload()
    await page.waitForSelector('[data-testid=user]')
    t.same(prompts, ['none'], 'the reload asked the provider with prompt=none')
    t.equal(await page.$eval('[data-testid=user]', (e) => e.textContent), 'Alice Analyst', 'signed in again without the sign-in page')
    t.match(await runSql(page), /^Done/)
    // the provider's session is gone: prompt=none is refused, the console asks once, interactively
    prompts.length = 0
    await context.clearCookies()
    await page.reload()
    await signIn(page, 'alice')
    await page.waitForSelector('[data-testid=user]')
    t.same(prompts, ['none', null], 'a silent attempt, then one interactive sign-in')
  })

  t.test('no HTTP permission: a screen of its own, not a redirect loop', async (t) => {
    await page.evaluate(() => sessionStorage.clear())
    await context.clearCookies()
    await page.goto(url)
    await signIn(page, 'carol')
    await page.waitForSelector('[data-testid=forbidden]')
    t.match(await page.$eval('[data-testid=forbidden]', (e) => e.textContent), /not authorized to use the Web Console.*Access denied for carol \[HTTP\]/)
    await page.waitForTimeout(500)
    t.match(page.url(), new RegExp(`^${url}`), 'still on the console')
  })

  t.test('provider down mid-session: "identity provider unreachable"', async (t) => {
    await context.clearCookies()
    await page.goto(url)
    await signIn(page, 'alice')
    await page.waitForSelector('.cm-content')
    await idp.close()
    await page.waitForTimeout(600) // the cached identity goes stale
    await typeSql(page, 'select 1')
    await runSql(page)
    await page.waitForSelector('[data-testid=idp-unreachable]')
    t.match(await page.$eval('[data-testid=idp-unreachable]', (e) => e.textContent), /Identity provider unreachable/)
  })
}
