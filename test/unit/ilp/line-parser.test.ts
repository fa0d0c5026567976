import t from 'tap'
import { LineParser, type LineSink } from '../../../lib/ilp/line-parser.js'
import { Database } from '../../../lib/index.js'

/** A sink writing down every name and value as text (the `same` hints aside). */
function recorder(): { sink: LineSink; events: string[] } {
  const events: string[] = []
  // an incomplete line's events are forgotten, as the sink's abortLine asks
  let lineAt = -1
  const str = (b: Uint8Array, s: number, e: number): string => Buffer.from(b.subarray(s, e)).toString('utf8')
  const sink: LineSink = {
    table: (b, s, e) => { lineAt = events.length; events.push(`table ${str(b, s, e)}`) },
    column: (b, s, e, tag) => events.push(`${tag ? 'tag' : 'field'} ${str(b, s, e)}`),
    symbol: (b, s, e) => events.push(`symbol ${str(b, s, e)}`),
    float: (v) => events.push(`float ${v}`),
    integer: (v) => events.push(`integer ${v}`),
    string: (v) => events.push(`string ${v}`),
    boolean: (v) => events.push(`boolean ${v}`),
    timestamp: (v) => events.push(`timestamp ${v}`),
    long256: (v) => events.push(`long256 ${v}`),
    array: () => events.push('array'),
    decimal: () => events.push('decimal'),
    nul: () => events.push('null'),
    endLine: (v) => { lineAt = -1; events.push(`end ${v}`) },
    abortLine: () => { if (lineAt >= 0) events.splice(lineAt); lineAt = -1 },
  }
  return { sink, events }
}

/** Names that differ by a prefix, an escape or a separator: a line matched against the last one must never take one for another. */
const TABLES = ['t', 'tt', 'a\\ b', 'a']
const NAMES = ['a', 'ab', 'b', 'a\\ b', 'a\\,b', 'a\\=b', 'é']

function randomLine(rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!
  let line = pick(TABLES)
  const tags = Math.floor(rnd() * 3)
  for (let i = 0; i < tags; i++) line += `,${pick(NAMES)}=v${Math.floor(rnd() * 3)}`
  const fields = tags > 0 && rnd() < 0.15 ? 0 : 1 + Math.floor(rnd() * 3)
  for (let i = 0; i < fields; i++) line += `${i === 0 ? ' ' : ','}${pick(NAMES)}=${Math.floor(rnd() * 100)}i`
  return `${line} ${1000 + Math.floor(rnd() * 1000)}t\n`
}

t.test('a line shaped like the one before gives the same names as the same line parsed alone (random lines, random chunk cuts)', async (t) => {
  let seed = 12345
  const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000 }
  for (let round = 0; round < 20; round++) {
    const lines = Array.from({ length: 200 }, () => randomLine(rnd))
    // each line alone: nothing remembered
    const alone: string[] = []
    for (const l of lines) { const r = recorder(); new LineParser(r.sink, 'u').parse(Buffer.from(l), 0, Buffer.byteLength(l)); alone.push(...r.events) }
    // one stream, cut into chunks at random places (an incomplete line is parsed again with the next chunk)
    const body = Buffer.from(lines.join(''))
    const r = recorder()
    const p = new LineParser(r.sink, 'u')
    let start = 0
    let end = 0
    while (start < body.length) {
      end = Math.min(body.length, end + 1 + Math.floor(rnd() * 120))
      start = p.parse(body, start, end)
    }
    t.same(r.events, alone, `round ${round}`)
  }
})

t.test('lines alternating tables and names that share positions land in the right columns', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const w = db.lineWriter({ precision: 'u' })
  w.write(Buffer.from([
    'm,a=x ab=1i,b=2i 1', 'm,a=x ab=3i,b=4i 2', 'm,a=x a=5i,b=6i 3', 'n,a=y ab=7i,b=8i 4', 'm ab=9i 5',
    'm,a=x ab=10i,b=11i 6', 'm,a\\ b=w ab=12i 7', 'm,a=x ab=13i,b=14i 8', 'm,a=x 9', 'm,a=x ab=15i 10', '',
  ].join('\n')))
  await w.end()
  t.same((await db.query('select a, ab, b, "a b", timestamp::long from m order by timestamp')).rows.map((r) => r.map((v) => typeof v === 'bigint' ? Number(v) : v)), [
    ['x', 1, 2, null, 1], ['x', 3, 4, null, 2], ['x', null, 6, null, 3], [null, 9, null, null, 5], ['x', 10, 11, null, 6],
    [null, 12, null, 'w', 7], ['x', 13, 14, null, 8], ['x', null, null, null, 9], ['x', 15, null, null, 10],
  ])
  t.same((await db.query('select a, ab, b from n')).rows.map((r) => r.map((v) => typeof v === 'bigint' ? Number(v) : v)), [['y', 7, 8]])
})
