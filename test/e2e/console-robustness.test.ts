import t from 'tap'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { Database } from '../../lib/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { createConsoleHandler } from '../../adapters/console/index.js'
import { ARTIFACTS, findChromium } from './console-browser.js'

// The Web Console's "bad input" cases in a real browser: a server that goes down and comes
// back, a long query cancelled from the page, 2,000 columns, a 1M-character string, BINARY
// values, and a malformed CSV.
const chromiumPath = findChromium()
if (chromiumPath === undefined) {
  const why = 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH): SKIPPING the Web Console robustness tests'
  t.comment(why)
  t.test('Web Console robustness in Chromium', { skip: why }, async () => {})
} else {
  const db = await Database.open()
  let server: Server = createHttpServer(db, { fallback: createConsoleHandler() })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/`
  const stop = async (): Promise<void> => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  const profile = mkdtempSync(join(tmpdir(), 'epochdb-console-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath, headless: true, viewport: { width: 1280, height: 720 }, timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  }).catch(async (e: unknown) => { await stop(); rmSync(profile, { recursive: true, force: true }); throw e })
  t.teardown(async () => {
    await context.close().catch(() => undefined)
    if (server.listening) await stop()
    rmSync(profile, { recursive: true, force: true })
  })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.slice(0, -1) })
  const page = context.pages()[0] ?? await context.newPage()
  page.setDefaultTimeout(10_000)
  const pageErrors: string[] = []
  page.on('pageerror', (e) => pageErrors.push(e.message))
  mkdirSync(ARTIFACTS, { recursive: true })
  const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(ARTIFACTS, `robust-${name}.png`) })
  await page.goto(url)
  await page.waitForSelector('.cm-content')

  /** Replaces the editor text (set directly: a 2,000-column statement is long to type). */
  async function setSql(p: Page, text: string): Promise<void> {
    await p.evaluate((sql) => {
      const v = (window as any).epochConsole.view()
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: sql }, selection: { anchor: 0 } })
      v.focus()
    }, text)
  }
  const text = (sel: string): Promise<string> => page.$eval(sel, (e) => e.textContent ?? '')
  /** Starts a run with Ctrl+Enter. */
  async function start(p: Page): Promise<void> {
    await p.$eval('[data-testid=status]', (e) => { e.textContent = '' })
    await p.focus('.cm-content')
    await p.keyboard.press('Control+Enter')
  }
  /** Waits until the run ends; returns the status, summary and message. */
  async function finished(p: Page): Promise<{ status: string; summary: string; message: string }> {
    await p.waitForFunction(() => /^(Done|Error|Cancelled|Server|Nothing)/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), undefined, { timeout: 30_000 })
    return { status: await text('[data-testid=status]'), summary: await text('[data-testid=summary]'), message: await text('[data-testid=message]') }
  }
  async function runSql(p: Page, sql: string): Promise<{ status: string; summary: string; message: string }> {
    await setSql(p, sql)
    await start(p)
    return finished(p)
  }

  await t.test('a server that is down, then back', async (t) => {
    await stop()
    const down = await runSql(page, 'select 1 one')
    t.equal(down.status, 'Server unreachable', `status: ${JSON.stringify(down)}`)
    t.match(down.message, /server/i, 'the message says the server cannot be reached')
    t.notOk(await page.$('[data-testid=run][disabled]'), 'Run is enabled again')
    await shot('01-server-down')
    await setSql(page, 'select 2 two')
    await page.keyboard.type(' ', { delay: 5 })
    t.equal(await page.evaluate(() => (window as any).epochConsole.view().state.doc.toString()), ' select 2 two', 'the editor still takes input')
    server = createHttpServer(db, { fallback: createConsoleHandler() })
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve) })
    const back = await runSql(page, 'select 2 two')
    t.ok(back.status.startsWith('Done') && back.summary.startsWith('1 row'), `runs again once the server is back: ${JSON.stringify(back)}`)
    t.equal(await text('.grid-body .row[data-row="0"] .cell[data-col="0"]'), '2')
  })

  await t.test('a long query shows elapsed time and Cancel really cancels', async (t) => {
    await setSql(page, 'select count() from long_sequence(20000000000)')
    await start(page)
    await page.waitForFunction(() => /Running… [1-9]/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), undefined, { timeout: 5_000 })
    t.match(await text('[data-testid=status]'), /Running… \d+\.\d s/, 'elapsed time shown')
    t.notOk(await page.$('[data-testid=cancel][disabled]'), 'Cancel is enabled while running')
    await shot('02-running')
    const clicked = Date.now()
    await page.click('[data-testid=cancel]')
    const r = await finished(page)
    t.equal(r.status, 'Cancelled', `status: ${JSON.stringify(r)}`)
    t.match(r.message, /cancelled/i)
    t.comment(`cancel answered in ${Date.now() - clicked} ms`)
    await shot('03-cancelled')
    // The server stopped working on it: this process (the server) is nearly idle afterwards.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const cpu0 = process.cpuUsage()
    const wall0 = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const cpu = process.cpuUsage(cpu0)
    const busy = (cpu.user + cpu.system) / 1000 / (Date.now() - wall0)
    t.ok(busy < 0.5, `server CPU after the cancel: ${(busy * 100).toFixed(0)}% of one core`)
    const next = await runSql(page, 'select 3 three')
    t.ok(next.status.startsWith('Done'), `the next query answers: ${JSON.stringify(next)}`)
  })

  await t.test('a result with 2,000 columns', async (t) => {
    const sql = 'select ' + Array.from({ length: 2000 }, (_, i) => `x * ${i} c${i}`).join(', ') + ' from long_sequence(50)'
    const r = await runSql(page, sql)
    t.ok(r.summary.startsWith('50 rows · 2000 columns'), `ran: ${r.summary}`)
    const heads = await page.$$eval('.grid-head .col-name', (els) => els.map((e) => e.textContent ?? ''))
    t.equal(heads[0], 'c0', 'first column shown')
    t.ok(heads.length > 3 && heads.length < 100, `only the visible columns are in the DOM (${heads.length})`)
    await page.$eval('.grid', (g) => { g.scrollLeft = (g.scrollWidth - g.clientWidth) / 2 })
    await page.waitForFunction(() => !document.querySelector('.grid-head .col-name')?.textContent?.match(/^c[0-9]$/))
    const mid = Number((await text('.grid-head .col-name')).slice(1))
    t.ok(mid > 800 && mid < 1200, `horizontal scroll to the middle shows c${mid}`)
    await page.$eval('.grid', (g) => { g.scrollLeft = g.scrollWidth })
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.grid-head .col-name')).some((e) => e.textContent === 'c1999'))
    t.pass('last column reached')
    await shot('04-2000-columns')
    let t0 = Date.now()
    await page.click('.grid-body .row[data-row="1"] .cell:last-child')
    await page.waitForSelector('.grid-body .row[data-row="1"] .cell.selected')
    const clickMs = Date.now() - t0
    t0 = Date.now()
    await page.keyboard.press('ArrowDown')
    await page.waitForSelector('.grid-body .row[data-row="2"] .cell.selected')
    const keyMs = Date.now() - t0
    t.comment(`click handled in ${clickMs} ms, arrow key in ${keyMs} ms`)
    t.ok(clickMs < 1000 && keyMs < 1000, 'the page stays responsive')
  })

  await t.test('a 1,000,000-character string is cut in the cell and copied whole', async (t) => {
    const r = await runSql(page, `select 'k' k, rpad('x', 1000000, 'y') s`)
    t.ok(r.summary.startsWith('1 row'), `ran: ${r.summary}`)
    const cell = await text('.grid-body .row[data-row="0"] .cell[data-col="1"]')
    t.ok(cell.length > 10 && cell.length <= 1001 && cell.endsWith('…'), `cell shows ${cell.length} characters, cut`)
    await page.evaluate(() => navigator.clipboard.writeText(''))
    await page.click('.grid-body .row[data-row="0"] .cell[data-col="1"]')
    await page.keyboard.press('Control+C')
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0)
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    t.equal(copied.length, 1_000_000, 'copy gives the full value')
    t.ok(copied.startsWith('xyyy'))
    await shot('05-huge-string')
  })

  await t.test('BINARY values render as hex', async (t) => {
    await db.query(`create table blobs as (select x id, rnd_bin(10, 20, 0) b from long_sequence(5))`)
    const r = await runSql(page, 'select id, b from blobs')
    t.ok(r.summary.startsWith('5 rows'), `ran: ${r.summary}`)
    await page.waitForFunction(() => /^[0-9a-f]{2}( [0-9a-f]{2}){9}/.test(document.querySelector('.grid-body .row[data-row="0"] .cell[data-col="1"]')?.textContent ?? ''))
    const hex = await page.$$eval('.grid-body .row .cell[data-col="1"]', (els) => els.map((e) => e.textContent ?? ''))
    const expected = (await db.query(`select base64(b, 100) h from blobs order by id`)).rows.map((row) => Buffer.from(String(row[0]), 'base64').toString('hex').replace(/(..)(?!$)/g, '$1 '))
    t.same(hex, expected, `hex of the stored bytes (${hex[0]})`)
    const inline = await runSql(page, 'select rnd_bin(10, 20, 0) b from long_sequence(5)')
    t.ok(inline.status.startsWith('Done'), `rnd_bin runs: ${inline.summary}`)
    await page.waitForFunction(() => /^[0-9a-f]{2} /.test(document.querySelector('.grid-body .row[data-row="4"] .cell[data-col="0"]')?.textContent ?? ''))
    t.pass('rnd_bin values shown as hex')
    await shot('06-binary')
  })

  await t.test('a malformed CSV shows the /imp summary', async (t) => {
    const drop = (name: string, parts: (string | number[])[]): Promise<void> => page.evaluate(({ name, parts }) => {
      const dt = new DataTransfer()
      dt.items.add(new File(parts.map((p) => typeof p === 'string' ? p : new Uint8Array(p)), name, { type: 'text/csv' }))
      document.getElementById('app')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
    }, { name, parts })
    const settled = (): Promise<unknown> => page.waitForFunction(() => /^(Imported|Import failed)/.test(document.querySelector('[data-testid=import] span')?.textContent ?? ''))
    await drop('ragged.csv', ['a,b,c\n1,2,3\n4,5\n"unterminated,7,8\n', [0, 255, 254, 10, 1, 2, 44, 3, 10], '9,10,11,12,13\n6,7,8\n'])
    await settled()
    const summary = await text('[data-testid=import] span')
    t.match(summary, /Imported \d+ rows into ragged, [1-9]\d* rejected/, `summary: ${summary}`)
    await shot('07-bad-csv')
    await drop('junk.csv', [Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)])
    await settled()
    t.match(await text('[data-testid=import] span'), /^(Imported|Import failed)/, `junk: ${await text('[data-testid=import] span')}`)
    await drop('empty.csv', [''])
    await settled()
    t.match(await text('[data-testid=import] span'), /^(Imported|Import failed)/, `empty: ${await text('[data-testid=import] span')}`)
    await shot('08-junk-csv')
    const r = await runSql(page, 'select count() n from ragged')
    t.ok(r.status.startsWith('Done'), `the console still runs queries: ${JSON.stringify(r)}`)
  })

  t.test('no uncaught errors in the page', async (t) => {
    t.same(pageErrors, [], pageErrors.join('\n'))
  })
}
