import t from 'tap'
import { findChromium, startConsole } from './console-browser.js'

// The Web Console's grid with DOUBLE[] and DECIMAL columns: arrays print their elements as
// doubles (`[[1.0,2.5],[null,4.0]]`, as QuestDB writes them, not JSON.parse's `[[1,2.5],...]`),
// DECIMALs print their exact text (every digit of a 30-digit value) and align as numbers; the
// chart offers a DECIMAL column as a y series (its type is `DECIMAL(p,s)`, not `DECIMAL`) and
// plots its values, and leaves arrays out, as QuestDB's console does.
const chromiumPath = findChromium()
if (chromiumPath === undefined) {
  const why = 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH): SKIPPING the Web Console browser tests'
  t.comment(why)
  t.test('Web Console grid types in Chromium', { skip: why }, async () => {})
} else {
  const rig = await startConsole(chromiumPath)
  t.teardown(() => rig.close())
  const { page, db } = rig
  await db.query('create table book (ts timestamp, bids double[][], price decimal(30,4)) timestamp(ts)')
  await db.query("insert into book values ('2024-01-01', ARRAY[[1.0, 2.5], [NULL, 4.0]], 12345678901234567890123456.7800m)")
  await page.goto(rig.url)
  await page.waitForSelector('.cm-content')
  await page.waitForSelector('.schema [data-table=book]')

  await t.test('arrays and decimals in the grid', async (t) => {
    await page.focus('.cm-content')
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Backspace')
    await page.keyboard.type('select bids, price from book', { delay: 5 })
    await page.keyboard.press('Control+Enter')
    await page.waitForSelector('.grid-body .row[data-row="0"] .cell:not(.loading)', { timeout: 30_000 })
    const cells = await page.$$eval('.grid-body .row[data-row="0"] .cell', (els) => els.map((e) => [e.textContent, e.className]))
    t.equal(cells[0]![0], '[[1.0,2.5],[null,4.0]]', 'array elements as doubles')
    t.equal(cells[1]![0], '12345678901234567890123456.7800', 'decimal exact, with its scale')
    t.match(cells[1]![1], /\bnum\b/, 'decimal aligned as a number')
    await rig.shot('types-grid')
  })

  await t.test('a DECIMAL column is a chart series; arrays are not', async (t) => {
    await db.query("insert into book values ('2024-01-02', ARRAY[[3.0]], 12.5m), ('2024-01-03', null, -7.25m)")
    await page.focus('.cm-content')
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Backspace')
    await page.keyboard.type('select ts, bids, price from book where ts > \'2024-01-01\'', { delay: 5 })
    await page.keyboard.press('Control+Enter')
    await page.waitForSelector('.grid-body .row[data-row="1"] .cell:not(.loading)', { timeout: 30_000 })
    await page.click('[data-testid=view-chart]')
    await page.waitForSelector('.chart-plot canvas', { timeout: 30_000 })
    const ys = await page.$$eval('.chart-ys label', (els) => els.map((e) => [e.textContent, (e.querySelector('input') as HTMLInputElement).checked]))
    t.same(ys, [['price', true]], 'price offered and chosen as y; the array column is not')
    const legend = await page.$$eval('.u-legend .u-label', (els) => els.map((e) => e.textContent ?? ''))
    t.ok(legend.some((l) => l.startsWith('price')), `a price series (${legend.join(', ')})`)
    const painted = await page.$eval('.chart-plot canvas', (c) => {
      const canvas = c as HTMLCanvasElement
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
      let n = 0
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++
      return n
    })
    t.ok(painted > 500, `canvas has drawn pixels (${painted})`)
    await rig.shot('types-chart')
    await page.click('[data-testid=view-grid]')
  })
}
