import t from 'tap'
import { Database } from '../../lib/index.js'
import { findChromium, startConsole } from './console-browser.js'

// The Web Console's user name / password sign-in with access control on: the form instead of a
// 401 loop, wrong credentials said so, the signed-in user shown, requests carrying the session's
// credentials, sign-out back to the form.
const chromiumPath = findChromium()
if (chromiumPath === undefined) {
  const why = 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH): SKIPPING the console sign-in tests'
  t.comment(why)
  t.test('console sign-in in Chromium', { skip: why }, async () => {})
} else {
  const db = await Database.open({ acl: { enabled: true, admin: { user: 'root', password: 'pw1' } } })
  await db.query('create table trades (ts timestamp, price double) timestamp(ts)')
  await db.query('create table secret (ts timestamp, v int) timestamp(ts)')
  for (const sql of ["create user alice with password 'a-pw'", 'grant http to alice', 'grant select on trades to alice', "create user carol with password 'c-pw'", 'grant pgwire to carol']) await db.query(sql)
  const rig = await startConsole(chromiumPath, db)
  t.teardown(() => rig.close())
  const { page } = rig
  const authHeaders: string[] = []
  page.on('request', (r) => { if (/\/exec\?/.test(r.url())) authHeaders.push(r.headers()['authorization'] ?? '') })

  t.test('the form comes up instead of a 401; wrong password is said so', async (t) => {
    await page.goto(rig.url)
    await page.waitForSelector('[data-testid=signin]:not(.hidden)')
    t.equal(authHeaders.length, 0, 'nothing was queried before signing in')
    await page.fill('[data-testid=signin-user]', 'root')
    await page.fill('[data-testid=signin-password]', 'wrong')
    await page.click('[data-testid=signin-submit]')
    await page.waitForSelector('[data-testid=signin-error]:not(.hidden)')
    t.equal(await page.textContent('[data-testid=signin-error]'), 'Invalid username or password')
    await page.fill('[data-testid=signin-user]', 'nobody')
    await page.fill('[data-testid=signin-password]', 'pw1')
    await page.click('[data-testid=signin-submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=signin-error]')?.textContent === 'Invalid username or password' && !document.querySelector('[data-testid=signin-submit]')?.hasAttribute('disabled'))
    await rig.shot('signin-01-wrong')
  })

  t.test('signing in shows the user, loads the schema, runs as that user', async (t) => {
    await page.fill('[data-testid=signin-user]', 'root')
    await page.fill('[data-testid=signin-password]', 'pw1')
    await page.click('[data-testid=signin-submit]')
    await page.waitForSelector('[data-testid=signin]', { state: 'hidden' })
    t.equal(await page.textContent('[data-testid=signed-in-user]'), 'root')
    await page.waitForSelector('.schema [data-table=trades]')
    await page.focus('.cm-content')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('select current_user() who')
    await page.keyboard.press('Control+Enter')
    await page.waitForFunction(() => /^Done/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''))
    t.match(await page.textContent('.grid'), 'root')
    const after = authHeaders.slice(-2)
    t.ok(after.every((h) => /^(Bearer qt1|Basic )/.test(h)), `later requests carry the session's credentials (${after.map((h) => h.slice(0, 10)).join(', ')})`)
    await rig.shot('signin-02-signed-in')
  })

  t.test('sign-out forgets the session: back to the form after the reload', async (t) => {
    await page.click('[data-testid=signout]')
    await page.waitForSelector('[data-testid=signin]:not(.hidden)')
    t.equal(await page.isHidden('[data-testid=signed-in-user]'), true)
  })

  /** Fills the form and submits it. */
  async function signIn(user: string, password: string): Promise<void> {
    await page.fill('[data-testid=signin-user]', user)
    await page.fill('[data-testid=signin-password]', password)
    await page.click('[data-testid=signin-submit]')
  }

  t.test('a user without HTTP: told "not authorized to use the Web Console", no loop', async (t) => {
    const before = authHeaders.length
    await signIn('carol', 'c-pw')
    await page.waitForFunction(() => /not authorized/.test(document.querySelector('[data-testid=signin-error]')?.textContent ?? ''))
    t.equal(await page.textContent('[data-testid=signin-error]'), 'You are not authorized to use the Web Console. Contact your account administrator.')
    await new Promise((r) => setTimeout(r, 500))
    t.ok(authHeaders.length - before <= 2, `no retry loop (${authHeaders.length - before} requests)`)
    await rig.shot('signin-03-not-authorized')
  })

  t.test('a user with HTTP: a REST token (Bearer qt1…), denials in the result panel, an ended session back to the form', async (t) => {
    await signIn('alice', 'a-pw')
    await page.waitForSelector('[data-testid=signin]', { state: 'hidden' })
    t.equal(await page.textContent('[data-testid=signed-in-user]'), 'alice')
    await page.waitForSelector('.schema [data-table=trades]')
    t.match(authHeaders.at(-1), /^Bearer qt1/, 'requests carry the REST token, not the password')
    await page.focus('.cm-content')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('select v from secret')
    await page.keyboard.press('Control+Enter')
    await page.waitForFunction(() => /^Error/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''))
    t.match(await page.textContent('[data-testid=message]'), 'Access denied for alice [SELECT on secret')
    // the token dropped on the server (as by an admin): the next request is a 401, the form comes back once
    await db.query('alter user alice drop token type rest')
    const before = authHeaders.length
    await page.keyboard.press('Control+Enter')
    await page.waitForSelector('[data-testid=signin]:not(.hidden)')
    t.equal(await page.textContent('[data-testid=signin-error]'), 'Your session has ended: sign in again.')
    await new Promise((r) => setTimeout(r, 500))
    t.ok(authHeaders.length - before <= 2, `no retry loop (${authHeaders.length - before} requests)`)
    await rig.shot('signin-04-session-ended')
  })
}
