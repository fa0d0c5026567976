// The reader's Snappy decoder (WebAssembly, lib/parquet/snappy-decode.wat): every stream two
// independent compressors make decodes to its input, each tag form decodes as the format says, a
// malformed stream is an Error (never a wrong answer or a crash), and the committed module is the
// one snappy-decode.wat assembles to.
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { snappyCompress as hysnappyCompress, snappyUncompressor } from 'hysnappy'
import { snappyDecode, snappyDecodeView } from '../../../lib/parquet/snappy-decode.js'
import { snappyCompress } from '../../../lib/parquet/snappy-compress.js'

/** hysnappy's decoder, one instance (each snappyUncompress call builds a WebAssembly instance) */
const snappyUncompress = snappyUncompressor()
let seed = 12345
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }

function sample(kind: number, n: number): Uint8Array {
  const b = new Uint8Array(n)
  const f = new Float64Array(b.buffer, 0, n >> 3)
  for (let i = 0; i < n; i++) {
    if (kind === 0) b[i] = rnd() * 256 // incompressible: long literals
    else if (kind === 1) b[i] = i % 5 // short period: copies with offsets below 8
    else if (kind === 2) b[i] = rnd() < 0.05 ? rnd() * 256 : b[Math.max(0, i - 1 - Math.floor(rnd() * 40))]!
    else b[i] = (i >> 12) & 0xff // long runs: long copies
  }
  if (kind === 4) for (let i = 0; i < f.length; i++) f[i] = (i + 1e6) * 0.5 // doubles as a Parquet page holds them
  if (kind === 5) for (let i = 0; i < f.length; i++) f[i] = 1.7e15 + i * 1000 // timestamps
  return b
}

t.test('streams from hysnappy and from EpochDB\'s compressor decode to their input', async (t) => {
  let checked = 0
  for (let k = 0; k < 120; k++) {
    const kind = k % 6
    const n = [0, 1, 7, 8, 60, 61, 300, 65_536, 70_000, 200_000][k % 10]!
    const raw = sample(kind, n)
    for (const c of [hysnappyCompress(raw), snappyCompress(raw)]) {
      const a = snappyDecode(c, n)
      if (Buffer.compare(Buffer.from(a), Buffer.from(raw)) !== 0) t.fail(`kind ${kind}, ${n} bytes`)
      t.equal(a.buffer.byteLength, n, 'a copy of its own') // not the decoder's memory
      checked++
    }
  }
  t.equal(checked, 240)
  const raw = sample(4, 80_000)
  t.same(Buffer.from(snappyDecodeView(snappyCompress(raw), raw.length)), Buffer.from(raw), 'the view holds the same bytes')
})

/** A stream: the varint length, then `body` bytes. */
function stream(length: number, ...body: number[]): Uint8Array {
  const pre: number[] = []
  let n = length
  while (n >= 0x80) { pre.push((n & 0x7f) | 0x80); n = Math.floor(n / 128) }
  pre.push(n)
  return Uint8Array.from([...pre, ...body])
}

t.test('each tag form, hand-made', async (t) => {
  // literal of 3, then copy-1 (length 4, offset 3), copy-2 (length 5, offset 7), copy-4 (length 2, offset 1)
  const s = stream(14, 0b000010_00, 65, 66, 67, 0b000_000_01, 3, 0b000100_10, 7, 0, 0b000001_11, 1, 0, 0, 0)
  t.equal(Buffer.from(snappyDecode(s, 14)).toString('latin1'), 'ABC' + 'ABCA' + 'ABCAB' + 'BB')
  t.same(snappyUncompress(s, 14), snappyDecode(s, 14), 'as hysnappy reads it')
  // literals whose length takes 1, 2, 3 and 4 more bytes
  for (const [tag, extra] of [[60 << 2, [99]], [61 << 2, [99, 0]], [62 << 2, [99, 0, 0]], [63 << 2, [99, 0, 0, 0]]] as const) {
    const body = Array.from({ length: 100 }, (_, i) => i)
    t.same([...snappyDecode(stream(100, tag, ...extra, ...body), 100)], body)
  }
})

t.test('malformed streams are Errors', async (t) => {
  const bad: [string, Uint8Array, number, RegExp][] = [
    ['length disagrees', stream(5, 0b000100_00, 1, 2, 3, 4, 5), 6, /length 5 is not the page's 6/],
    ['literal past the input', stream(5, 0b000100_00, 1, 2), 5, /premature end of input/],
    ['copy before the start', stream(8, 0b000000_00, 1, 0b000000_01, 9), 8, /copy offset out of range/],
    ['copy offset 0', stream(8, 0b000000_00, 1, 0b000000_01, 0), 8, /copy offset out of range/],
    ['copy past the output', stream(3, 0b000000_00, 1, 0b000111_01, 1), 3, /output overrun/],
    ['output short', stream(9, 0b000000_00, 1), 9, /output shorter/],
    ['cut tag', stream(9, 0b000000_00, 1, 0b000001_10, 1), 9, /premature end of input/],
    ['endless varint', Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 1, /invalid snappy length header/],
    ['literal length overflowing', stream(9, 63 << 2, 0xff, 0xff, 0xff, 0xff), 9, /output overrun/],
  ]
  for (const [what, s, n, re] of bad) t.throws(() => snappyDecode(s, n), re, what)
  // random bytes after a valid length: an Error or, when they happen to be a valid stream, hysnappy's answer
  let errors = 0
  let traps = 0
  let valid = 0
  for (let k = 0; k < 3000; k++) {
    // a literal, then random bytes read as tags; the length is the one hysnappy accepts, if any
    const body = [0b000011_00, 1, 2, 3, 4, ...Array.from({ length: Math.floor(rnd() * 12) }, () => Math.floor(rnd() * 256))]
    let n = 4 + Math.floor(rnd() * 100)
    let accepted = false
    for (let m = 4; m < 120 && !accepted; m++) { try { snappyUncompress(stream(m, ...body), m); n = m; accepted = true } catch { /* not this length */ } }
    const s = stream(n, ...body)
    let ours: Uint8Array | Error
    try { ours = snappyDecode(s, n) } catch (e) { ours = e as Error }
    if (ours instanceof Error) {
      if (ours instanceof WebAssembly.RuntimeError) traps++
      if (accepted) t.fail(`random stream ${k}: hysnappy reads it, we refuse it: ${ours.message}`)
      errors++
      continue
    }
    valid++
    if (Buffer.compare(Buffer.from(ours), Buffer.from(snappyUncompress(s, n))) !== 0) t.fail(`random stream ${k} read differently from hysnappy`)
  }
  t.equal(traps, 0, 'no WebAssembly trap')
  t.ok(errors > 0 && valid > 0, `${errors} refused, ${valid} valid and read as hysnappy reads them`)
})

let wat2wasm = true
try { execFileSync('wat2wasm', ['--version'], { stdio: 'ignore' }) } catch { wat2wasm = false }

t.test('the committed module is snappy-decode.wat assembled', { skip: wat2wasm ? false : 'wat2wasm (Debian: wabt) is not installed here' }, async (t) => {
  const { generate } = await import('../../../lib/parquet/snappy-decode-build.mjs' as string) as { generate: () => string }
  t.equal(generate(), readFileSync(new URL('../../../lib/parquet/snappy-decode-wasm.ts', import.meta.url), 'utf8'), 'run node lib/parquet/snappy-decode-build.mjs')
})
