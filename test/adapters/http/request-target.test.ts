import t from 'tap'
import { parseTarget } from '../../../adapters/http/request.js'
import { HttpError } from '../../../adapters/http/http-error.js'

// The decoding of query-string values has a native fast path for ASCII text: it must answer
// exactly what the byte-by-byte rule answers (QuestDB's: `+` a space, `%XX` a byte, the bytes
// UTF-8; invalid UTF-8 decoded lossily and flagged). The reference below is that rule, written
// independently of adapters/http/request.ts.
const strict = new TextDecoder('utf-8', { fatal: true })
const lossy = new TextDecoder('utf-8')

function reference(raw: string): { text: string; ok: boolean } | 'bad escape' {
  const bytes: number[] = []
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (c === '%') {
      const h = raw.slice(i + 1, i + 3)
      if (!/^[0-9a-fA-F]{2}$/.test(h)) return 'bad escape'
      bytes.push(parseInt(h, 16))
      i += 2
    } else if (c === '+') bytes.push(32)
    else bytes.push(...Buffer.from(c, 'utf8'))
  }
  const u8 = Uint8Array.from(bytes)
  try { return { text: strict.decode(u8), ok: true } } catch { return { text: lossy.decode(u8), ok: false } }
}

const FRAGMENTS = ['a', 'Z', ' ', '+', "'", ',', '(', '%20', '%2B', '%25', '%27', '%2C', '%C3%A9', '%E2%82%AC', '%F0%9F%98%80',
  '%EF%BB%BF', '%ED%A0%80', '%C0%80', '%FF', '%E2%82', '%80', '%00', '%', '%2', '%zz', 'é', '€', '%c3%a9', '%41']

t.test('query values decode as the byte-by-byte rule, fast path or not', async (t) => {
  let seed = 12345
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % n }
  let fast = 0
  for (let n = 0; n < 3000; n++) {
    let raw = ''
    const len = 1 + rnd(12)
    for (let i = 0; i < len; i++) raw += FRAGMENTS[rnd(FRAGMENTS.length)]!
    const want = reference(raw)
    let got: { text: string; ok: boolean } | 'bad escape'
    try {
      const target = parseTarget(`/exec?query=${raw}`)
      got = { text: target.params.get('query')!, ok: !target.badUtf8.has('query') }
    } catch (e) {
      t.ok(e instanceof HttpError, 'a bad escape is an HttpError')
      got = 'bad escape'
    }
    if (typeof want !== 'string' && want.ok && !/[^\x00-\x7f]/.test(raw)) fast++
    if (JSON.stringify(got) !== JSON.stringify(want)) t.fail(`${raw}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`)
  }
  t.ok(fast > 300, `many cases take the fast path (${fast})`)
})

t.test('a leading byte-order mark is dropped as the UTF-8 decoder drops it', async (t) => {
  t.equal(parseTarget('/exec?query=%EF%BB%BFselect+1').params.get('query'), 'select 1')
  t.equal(parseTarget('/exec?query=select%EF%BB%BF1').params.get('query'), 'select\ufeff1')
})

t.test('an INSERT of 188 KB encoded by encodeURIComponent comes back whole', async (t) => {
  const sql = `INSERT INTO cpu VALUES ${Array.from({ length: 2000 }, (_, i) => `('host_${i}', ${i}.5, 'a+b%c', '2016-01-01 00:00:${String(i % 60).padStart(2, '0')}')`).join(', ')}`
  t.equal(parseTarget(`/exec?query=${encodeURIComponent(sql)}&count=true`).params.get('query'), sql)
})
