import t from 'tap'
import type { Page } from 'playwright-core'
import { findChromium, startConsole } from './console-browser.js'

// The Web Console in a real browser: completion, running, the grid, error marks, charts, CSV
// import, and a 1M-row result that fetches only the visible pages.
const chromiumPath = findChromium()
if (chromiumPath === undefined) {
  const why = 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH): SKIPPING the Web Console browser tests'
  t.comment(why)
  t.test('Web Console in Chromium', { skip: why }, async () => {})
} else {
  const rig = await startConsole(chromiumPath)
  t.teardown(() => rig.close())
  const { page, db } = rig
  await db.query(`create table trades as (select timestamp_sequence('2024-01-01', 60000000) ts, rnd_symbol('btc','eth','sol') sym, rnd_double() * 100 price, x qty from long_sequence(500)) timestamp(ts) partition by day`)

  const started = Date.now()
  await page.goto(rig.url)
  await page.waitForSelector('.cm-content')
  await page.waitForSelector('.schema [data-table=trades]')
  const loadMs = Date.now() - started
  t.comment(`console interactive in ${loadMs} ms`)
  await rig.shot('01-loaded')

  /** Replaces the editor text with `text` by typing it. */
  async function typeSql(p: Page, text: string): Promise<void> {
    await p.keyboard.press('Escape')
    await p.focus('.cm-content')
    await p.keyboard.press('Control+A')
    await p.keyboard.press('Backspace')
    await p.keyboard.type(text, { delay: 5 })
  }
  /** Presses Ctrl+Enter and waits until the run ends; returns the status, summary and message. */
  async function runSql(p: Page): Promise<{ status: string; summary: string; message: string }> {
    await p.$eval('[data-testid=status]', (e) => { e.textContent = '' })
    await p.keyboard.press('Control+Enter')
    await p.waitForFunction(() => /^(Done|Error|Cancelled|Server|Nothing)/.test(document.querySelector('[data-testid=status]')?.textContent ?? ''), undefined, { timeout: 30_000 })
    const text = (sel: string): Promise<string> => p.$eval(sel, (e) => e.textContent ?? '')
    return { status: await text('[data-testid=status]'), summary: await text('[data-testid=summary]'), message: await text('[data-testid=message]') }
  }
  async function completions(p: Page): Promise<string[]> {
    await p.waitForSelector('.cm-tooltip-autocomplete li')
    return p.$$eval('.cm-tooltip-autocomplete li .cm-completionLabel', (els) => els.map((e) => e.textContent ?? ''))
  }

  await t.test('completion offers keywords, tables and columns', async (t) => {
    await typeSql(page, 'sel')
    t.ok((await completions(page)).includes('SELECT'), 'keyword SELECT')
    await typeSql(page, 'select * from tra')
    t.ok((await completions(page)).includes('trades'), 'table trades after FROM')
    await page.keyboard.press('Escape')
    await typeSql(page, 'select  from trades')
    await page.evaluate(() => { const v = (window as any).epochConsole.view(); v.dispatch({ selection: { anchor: 7 } }) })
    await page.keyboard.type('pri', { delay: 5 })
    const list = await completions(page)
    t.ok(list.includes('price'), `column price offered (${list.slice(0, 8).join(', ')})`)
    await rig.shot('02-completion')
    await page.keyboard.press('Escape')
  })

  await t.test('runs a query and reads the grid', async (t) => {
    await typeSql(page, 'select ts, sym, price, qty from trades where qty <= 3')
    const run = await runSql(page)
    t.ok(run.summary.includes('3 rows'), `ran: ${JSON.stringify(run)}`)
    await page.waitForSelector('.grid-head .col-name')
    const heads = await page.$$eval('.grid-head .col-name', (els) => els.map((e) => e.textContent))
    t.same(heads, ['ts', 'sym', 'price', 'qty'], `header: ${JSON.stringify(heads)}`)
    t.ok(await page.$('.grid-head .cell.designated'), 'designated timestamp marked')
    const first = await page.$$eval('.grid-body .row[data-row="0"] .cell', (els) => els.map((e) => e.textContent))
    t.equal(first[0], '2024-01-01T00:00:00.000000Z')
    t.equal(first[3], '1')
    t.match(await page.textContent('[data-testid=summary]'), /execute .* ms/, 'timings shown')
    t.match(await page.getAttribute('[data-testid=csv]', 'href') ?? '', /^exp\?query=/, 'CSV link through /exp')
    await rig.shot('03-grid')
  })

  await t.test('a bad query underlines the position and moves the cursor', async (t) => {
    const sql = 'select price from trades where nosuch > 1'
    await typeSql(page, sql)
    const run = await runSql(page)
    t.equal(run.status, 'Error', `ran: ${JSON.stringify(run)}`)
    await page.waitForSelector('.cm-sql-error')
    t.equal(await page.textContent('.cm-sql-error'), 'nosuch')
    t.match(await page.textContent('[data-testid=message]'), /nosuch/)
    const head = await page.evaluate(() => (window as any).epochConsole.view().state.selection.main.head as number)
    t.equal(head, sql.indexOf('nosuch'), 'cursor at the error')
    await rig.shot('04-error')
  })

  await t.test('a chart draws series', async (t) => {
    await typeSql(page, 'select ts, sym, price from trades')
    const run = await runSql(page)
    t.ok(run.summary.includes('500 rows'), `ran: ${JSON.stringify(run)}`)
    await page.click('[data-testid=view-chart]')
    await page.waitForSelector('.chart-plot canvas')
    await page.selectOption('[data-testid=chart-key]', { label: 'sym' })
    await page.waitForSelector('.u-legend')
    const legend = await page.$$eval('.u-legend .u-label', (els) => els.map((e) => e.textContent ?? ''))
    t.ok(legend.some((l) => l.startsWith('btc')) && legend.some((l) => l.startsWith('eth')), `one series per symbol (${legend.join(', ')})`)
    const painted = await page.$eval('.chart-plot canvas', (c) => {
      const canvas = c as HTMLCanvasElement
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
      let n = 0
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++
      return n
    })
    t.ok(painted > 2000, `canvas has drawn pixels (${painted})`)
    await rig.shot('05-chart')
    await page.click('[data-testid=view-grid]')
  })

  await t.test('drag and drop a CSV imports it', async (t) => {
    await page.evaluate(() => {
      const dt = new DataTransfer()
      dt.items.add(new File(['ts,city,temp\n2024-01-01T00:00:00Z,Oslo,1.5\n2024-01-01T01:00:00Z,Rome,12.25\n2024-01-01T02:00:00Z,Oslo,-3\n'], 'weather.csv', { type: 'text/csv' }))
      document.getElementById('app')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
    })
    await page.waitForFunction(() => document.querySelector('[data-testid=import]')?.textContent?.includes('Imported'))
    t.match(await page.textContent('[data-testid=import]'), /Imported 3 rows into weather, 0 rejected/)
    await page.waitForSelector('.schema [data-table=weather]')
    await typeSql(page, 'select city, temp from weather order by temp')
    const run = await runSql(page)
    t.ok(run.summary.startsWith('3 rows'), `ran: ${JSON.stringify(run)}`)
    const cities = await page.$$eval('.grid-body .row .cell[data-col="0"]', (els) => els.map((e) => e.textContent))
    t.same(cities, ['Oslo', 'Oslo', 'Rome'])
    await rig.shot('06-import')
  })

  await t.test('1M rows: scrolling fetches only the visible pages', async (t) => {
    await typeSql(page, 'select x, x * 2 y from long_sequence(1000000)')
    const run = await runSql(page)
    t.ok(run.summary.startsWith('1,000,000 rows'), `ran: ${JSON.stringify(run)}`)
    const before = await page.evaluate(() => (window as any).epochConsole.gridStats.pageFetches as number)
    // a fast sweep through the whole result, then a stop in the middle
    await page.$eval('.grid', async (g) => {
      for (let i = 1; i <= 20; i++) {
        g.scrollTop = g.scrollHeight * i / 20
        await new Promise((resolve) => requestAnimationFrame(resolve))
      }
      g.scrollTop = (g.scrollHeight - g.clientHeight) / 2
    })
    await page.waitForFunction(() => !document.querySelector('.grid-body .cell.loading'))
    const fetches = await page.evaluate(() => (window as any).epochConsole.gridStats.pageFetches as number) - before
    t.ok(fetches <= 2, `pages fetched: ${fetches}`)
    const x = Number(await page.textContent('.grid-body .row .cell[data-col="0"]'))
    t.ok(x > 490_000 && x < 510_000, `middle row shows x=${x}`)
    await rig.shot('07-million-rows')
  })

  await t.test('light theme', async (t) => {
    const before = await page.getAttribute('html', 'data-theme')
    await page.click('[data-testid=theme]')
    const after = await page.getAttribute('html', 'data-theme')
    t.not(after, before, `theme switched from ${before} to ${after}`)
    await rig.shot(`08-${after}`)
  })
}
