import './resolve-hook.js'
import t from 'tap'
import { snappyCompress, maxCompressedLength } from '../../../lib/parquet/snappy-compress.js'

const { snappyUncompress } = await import('hyparquet/src/snappy.js') as { snappyUncompress: (input: Uint8Array, output: Uint8Array) => void }

function roundTrip(input: Uint8Array): Uint8Array {
  const packed = snappyCompress(input)
  if (packed.length > maxCompressedLength(input.length)) throw new Error('over the bound')
  const out = new Uint8Array(input.length)
  snappyUncompress(packed, out)
  return out
}

t.test('round trips through hyparquet\'s decoder: empty, tiny, repetitive, random, doubles, across 64 KiB fragments', async (t) => {
  let seed = 42
  const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed >>> 16 }
  const cases: [string, Uint8Array][] = [
    ['empty', new Uint8Array(0)],
    ['one byte', Uint8Array.of(7)],
    ['14 bytes', Uint8Array.from({ length: 14 }, (_, i) => i)],
    ['zeros 300k', new Uint8Array(300_000)],
    ['random 200k', Uint8Array.from({ length: 200_000 }, rnd)],
    ['text', new TextEncoder().encode('the quick brown fox jumps over the lazy dog; '.repeat(5000))],
    ['ascending doubles', new Uint8Array(Float64Array.from({ length: 100_000 }, (_, i) => i * 0.5).buffer)],
    ['sin doubles', new Uint8Array(Float64Array.from({ length: 50_000 }, (_, i) => Math.sin(i)).buffer)],
    ['short runs', Uint8Array.from({ length: 150_001 }, (_, i) => (i >> 3) % 5 === 0 ? rnd() & 0xff : i % 13)],
    ['long literal then copy', (() => { const a = Uint8Array.from({ length: 70_000 }, rnd); a.copyWithin(40_000, 1000, 30_000); return a })()],
  ]
  for (const [name, input] of cases) t.same(Buffer.from(roundTrip(input)), Buffer.from(input), name)
  t.ok(snappyCompress(new Uint8Array(300_000)).length < 20_000, 'zeros compress')
})
