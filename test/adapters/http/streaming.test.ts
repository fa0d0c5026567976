import http from 'node:http'
import net from 'node:net'
import t from 'tap'
import type { RequestLog } from '../../../adapters/http/index.js'
import { exec, startServer } from './helpers.js'

const logs: RequestLog[] = []
const srv = await startServer({ onRequest: (e) => logs.push(e) })
t.teardown(() => srv.close())

/** Waits (bounded) until a log entry for `path` arrives after `from`. */
async function logFor(path: string, from: number): Promise<RequestLog | undefined> {
  for (let i = 0; i < 200; i++) {
    const e = logs.slice(from).find((l) => l.path === path)
    if (e !== undefined) return e
    await new Promise((r) => setTimeout(r, 50))
  }
  return undefined
}

t.test('a large /exp streams every row to a slow reader', async (t) => {
  const rows = 300_000
  let lines = 0
  let bytes = 0
  let paused = 0
  await new Promise<void>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: srv.port, path: `/exp?query=${encodeURIComponent(`select x, x * 1.5 d, 'sym' || (x % 10) s from long_sequence(${rows})`)}` }, (res) => {
      let tail = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        bytes += c.length
        const text = tail + c
        const parts = text.split('\r\n')
        tail = parts.pop()!
        lines += parts.length
        if (paused < 5) { paused++; res.pause(); setTimeout(() => res.resume(), 30) }
      })
      res.on('end', () => resolve())
      res.on('error', reject)
    }).on('error', reject)
  })
  t.equal(lines, rows + 1, 'header plus every row')
  t.ok(bytes > 5_000_000)
})

t.test('a large /exec result is valid JSON with every row', async (t) => {
  const r = await exec(srv.port, 'select x, rnd_double() d from long_sequence(200000)')
  const body = JSON.parse(r.body) as { dataset: unknown[]; count: number }
  t.equal(body.dataset.length, 200000)
  t.equal(body.count, 200000)
})

t.test('a client that disconnects mid-stream cancels the export', async (t) => {
  const from = logs.length
  await new Promise<void>((resolve) => {
    const s = net.connect(srv.port, '127.0.0.1', () => {
      s.write(`GET /exp?query=${encodeURIComponent('select x from long_sequence(10000000000)')} HTTP/1.1\r\nHost: a\r\n\r\n`)
    })
    s.once('data', () => { s.destroy(); resolve() })
  })
  const e = await logFor('/exp', from)
  t.ok(e, 'the request finished')
  t.ok(e!.rows < 10_000_000_000, `stopped after ${e!.rows} rows`)
})

t.test('a client that disconnects before the first byte cancels the query', async (t) => {
  const from = logs.length
  const s = net.connect(srv.port, '127.0.0.1', () => {
    s.write(`GET /exec?query=${encodeURIComponent('select count() from long_sequence(10000000000)')} HTTP/1.1\r\nHost: a\r\n\r\n`)
    setTimeout(() => s.destroy(), 200)
  })
  s.on('error', () => {})
  const e = await logFor('/exec', from)
  t.ok(e, 'the request finished soon after the disconnect')
  t.equal((await exec(srv.port, 'select 1')).status, 200, 'the server still answers')
})
