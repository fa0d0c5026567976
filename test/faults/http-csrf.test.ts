/**
 * Cross-site requests (CSRF) and DNS rebinding against the REST endpoints: the exact headers
 * Chromium sends for an `<img>`, a form POST and a `fetch` from another page are refused with a
 * 403 JSON error before anything runs; the same page's own requests (the Web Console) and
 * clients that are not browsers pass. With Chromium installed, a real page on another port
 * attempts the attack.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { chromium } from 'playwright-core'
import { type Reply, type TestServer, get, startServer } from '../adapters/http/helpers.js'
import { findChromium } from '../e2e/console-browser.js'
import type { HttpServerOptions } from '../../adapters/http/index.js'

const UA = {
  'sec-ch-ua-platform': '"Linux"',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"',
  'sec-ch-ua-mobile': '?0',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
}

/** Headers Chromium 156 sent from a page on `http://<host>:3000/` (recorded), by kind of request. */
function chromiumHeaders(site: 'cross-site' | 'same-site', page: string): Record<string, Record<string, string>> {
  return {
    img: { ...UA, accept: 'image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image', referer: `${page}/` },
    fetch: { ...UA, accept: '*/*', origin: page, 'sec-fetch-site': site, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: `${page}/` },
    noCorsFetch: { ...UA, accept: '*/*', 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty', referer: `${page}/` },
    form: {
      ...UA, 'cache-control': 'max-age=0', 'upgrade-insecure-requests': '1', origin: page,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
      'sec-fetch-site': site, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe', referer: `${page}/`,
    },
  }
}

const BOUNDARY = '----WebKitFormBoundaryLAxENYdadfNGKY7R'
const FORM = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\na,b\r\n1,2\r\n--${BOUNDARY}--\r\n`

async function tables(s: TestServer): Promise<string[]> {
  return (await s.db.query('select table_name from tables() order by table_name')).rows.map((r) => String(r[0]))
}

async function withTable(t: Test, options: HttpServerOptions = {}): Promise<TestServer> {
  const s = await startServer(options)
  t.teardown(() => s.close())
  await s.db.query('create table t (x long)')
  return s
}

function refused(t: Test, r: Reply, what: string): void {
  t.equal(r.status, 403, `${what}: 403`)
  t.match(r.headers['content-type'], /application\/json/, `${what}: JSON`)
  t.match(JSON.parse(r.body), { query: '', error: /refused/, position: 0 }, `${what}: QuestDB-style error`)
}

t.test('Chromium cross-site and same-site requests are refused before they run', async (t) => {
  const s = await withTable(t)
  for (const [site, page] of [['cross-site', 'http://localhost:3000'], ['same-site', 'http://127.0.0.1:3000']] as const) {
    const h = chromiumHeaders(site, page)
    refused(t, await get(s.port, '/exec?query=drop+table+t', h.img!), `${site} <img>`)
    refused(t, await get(s.port, '/exec?query=drop+table+t', h.fetch!), `${site} fetch`)
    refused(t, await get(s.port, '/exec?query=drop+table+t', h.noCorsFetch!), `${site} no-cors fetch`)
    refused(t, await get(s.port, '/exp?query=select+*+from+t', h.img!), `${site} /exp`)
    refused(t, await get(s.port, '/api/v1/sql/validate?query=select+1', h.fetch!), `${site} /api/v1/sql/validate`)
    refused(t, await get(s.port, '/chk?j=t', h.fetch!), `${site} /chk`)
    const form = await get(s.port, '/imp?name=csrf', { ...h.form!, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(FORM.length) }, 'POST', FORM)
    refused(t, form, `${site} multipart form POST /imp`)
  }
  t.same(await tables(s), ['t'], 't still exists, no table was imported')
  t.equal((await get(s.port, '/ping', chromiumHeaders('cross-site', 'http://localhost:3000').img!)).status, 204, '/ping stays open')
})

t.test('same-origin requests (the Web Console), typed URLs and non-browser clients pass', async (t) => {
  const s = await withTable(t)
  const own = `http://127.0.0.1:${s.port}`
  const sameFetch = { ...UA, accept: '*/*', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: `${own}/` }
  t.equal((await get(s.port, '/exec?query=select+1', sameFetch)).status, 200, 'same-origin fetch')
  const xhr = { ...UA, accept: '*/*', origin: own, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: `${own}/`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }
  t.match(JSON.parse((await get(s.port, '/imp?name=up&fmt=json', xhr, 'POST', FORM)).body), { status: 'OK', rowsImported: 1 }, 'same-origin XHR upload')
  const typed = { ...UA, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-user': '?1', 'sec-fetch-dest': 'document' }
  t.equal((await get(s.port, '/exec?query=select+1', typed)).status, 200, 'a URL typed into the address bar')
  t.equal((await get(s.port, '/exec?query=drop+table+up')).body, '{"ddl":"OK"}', 'a client without browser headers (curl, QuestDB clients)')
  t.equal((await get(s.port, '/exec?query=select+1', { origin: own })).status, 200, 'an older browser: Origin equal to the request\'s own origin')
  t.equal((await get(s.port, '/exec?query=select+1', { origin: `http://localhost:${s.port}`, host: `localhost:${s.port}` })).status, 200, 'the same, by name')
})

t.test('older browsers without Sec-Fetch-Site: a foreign Origin or Referer is refused', async (t) => {
  const s = await withTable(t)
  refused(t, await get(s.port, '/exec?query=drop+table+t', { origin: 'http://evil.example' }), 'foreign Origin')
  refused(t, await get(s.port, '/exec?query=drop+table+t', { origin: `http://127.0.0.1:${s.port + 1}` }), 'another port')
  refused(t, await get(s.port, '/exec?query=drop+table+t', { origin: 'null' }), 'opaque origin (sandboxed iframe)')
  refused(t, await get(s.port, '/exec?query=drop+table+t', { referer: 'http://evil.example/page' }), 'foreign Referer')
  t.equal((await get(s.port, '/exec?query=select+1', { referer: `http://127.0.0.1:${s.port}/` })).status, 200, 'own Referer')
  t.same(await tables(s), ['t'])
})

t.test('allowed origins: listed pages pass, others and origin-less requests are still refused', async (t) => {
  const s = await withTable(t, { allowedOrigins: ['http://LOCALHOST:3000/', 'https://app.example.com:443'] })
  const h = chromiumHeaders('cross-site', 'http://localhost:3000')
  t.equal((await get(s.port, '/exec?query=select+1', h.fetch!)).status, 200, 'listed origin (normalised)')
  t.equal((await get(s.port, '/exec?query=select+1', { ...h.fetch!, origin: 'https://app.example.com' })).status, 200, 'default port')
  refused(t, await get(s.port, '/exec?query=drop+table+t', h.img!), 'an <img> carries no Origin')
  refused(t, await get(s.port, '/exec?query=drop+table+t', { ...h.fetch!, origin: 'http://localhost:3001' }), 'unlisted')
  const open = await withTable(t, { allowedOrigins: ['*'] })
  t.equal((await get(open.port, '/exec?query=select+1', h.img!)).status, 200, "'*' turns the check off")
  await t.rejects(startServer({ allowedOrigins: ['localhost:3000'] }), /not an origin/)
})

t.test('DNS rebinding: a foreign Host on a loopback connection is refused', async (t) => {
  const s = await withTable(t)
  const rebound = { host: `evil.example:${s.port}`, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }
  refused(t, await get(s.port, '/exec?query=drop+table+t', rebound), 'same-origin after rebinding')
  refused(t, await get(s.port, '/exp?query=select+*+from+t', { host: `evil.example:${s.port}` }), 'reads too')
  for (const host of [`localhost:${s.port}`, `app.localhost:${s.port}`, `127.0.0.1:${s.port}`, `[::1]:${s.port}`, 'localhost']) {
    t.equal((await get(s.port, '/exec?query=select+1', { host })).status, 200, `Host ${host}`)
  }
  t.same(await tables(s), ['t'])
  const named = await withTable(t, { allowedHosts: ['db.example.com'] })
  t.equal((await get(named.port, '/exec?query=select+1', { host: `DB.example.com:${named.port}` })).status, 200, 'an allowed host name')
  refused(t, await get(named.port, '/exec?query=select+1', { host: 'evil.example' }), 'others are refused')
  const any = await withTable(t, { allowedHosts: ['*'] })
  t.equal((await get(any.port, '/exec?query=select+1', { host: 'evil.example' })).status, 200, "'*' turns the check off")
})

const exe = findChromium()
t.test('a real page on another port attacks with <img>, form and fetch (Chromium)', { timeout: 60_000, skip: exe === undefined ? 'Chromium is not installed' : false }, async (t) => {
  if (exe === undefined) return
  const statuses: number[] = []
  const s = await withTable(t, { onRequest: (e) => { if (e.path !== '/ping') statuses.push(e.status) } })
  const target = `http://127.0.0.1:${s.port}`
  const page = `<!doctype html><body><img src="${target}/exec?query=drop+table+t">
<form id=f method=POST enctype="multipart/form-data" action="${target}/imp?name=csrf" target=fr><input type=hidden name=data value="a,b"></form><iframe name=fr></iframe>
<script>fetch("${target}/exec?query=drop+table+t").catch(() => {}); fetch("${target}/exec?query=drop+table+t", { mode: 'no-cors' }).catch(() => {}); document.getElementById('f').submit()</script>`
  const attacker = http.createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end(page) })
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => attacker.close(() => r())))
  const ap = (attacker.address() as AddressInfo).port
  const browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox', '--headless', '--disable-gpu', `--host-resolver-rules=MAP rebind.test 127.0.0.1`] })
  t.teardown(() => browser.close())
  const tab = await browser.newPage()
  for (const host of ['localhost', '127.0.0.1']) { // cross-site, then same-site (another port of the same host)
    await tab.goto(`http://${host}:${ap}/`)
    const deadline = Date.now() + 10_000
    while (statuses.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    t.same(statuses.splice(0).sort(), [403, 403, 403, 403], `page on ${host}: all four attacks reached the server and were refused`)
  }
  const rebound = await tab.goto(`http://rebind.test:${s.port}/exec?query=drop+table+t`)
  t.equal(rebound?.status(), 403, 'DNS rebinding (rebind.test resolved to 127.0.0.1)')
  t.same(await tables(s), ['t'], 'the table survived')
  const own = await tab.goto(`${target}/exec?query=select+1`)
  t.equal(own?.status(), 200, 'the same URL typed by the user works')
})
