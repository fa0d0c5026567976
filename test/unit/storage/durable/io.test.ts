/**
 * `writevAll`: the WAL's gathering write puts every piece, back to back and unjoined, at its
 * offset, whatever short writes the system makes; a write fault in `writeSync` hits it too.
 */
import t from 'tap'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { io, injectFault, writevAll } from '../../../../lib/storage/durable/io.js'
import { tmpDir } from '../helpers.js'

/** Pieces of assorted sizes (some empty), more of them than one writev takes. */
function pieces(): Uint8Array[] {
  const out: Uint8Array[] = []
  let k = 0
  for (let i = 0; i < 2500; i++) {
    const n = i % 7 === 0 ? 0 : (i * 37) % 300
    out.push(Uint8Array.from({ length: n }, () => k++ & 0xff))
  }
  return out
}

const joined = (ps: readonly Uint8Array[]): Buffer => Buffer.concat(ps)

t.test('writes every piece in order at the offset, across many writev calls', (t) => {
  const dir = tmpDir(t)
  const file = join(dir, 'f')
  const fd = openSync(file, 'w+')
  const ps = pieces()
  let calls = 0
  const writev = io.writevSync
  io.writevSync = (f, d, p) => { calls++; t.ok(d.length <= 1024, 'at most IOV_MAX buffers per call'); return writev(f, d, p) }
  try {
    writevAll(fd, [Uint8Array.of(9, 9, 9)], 0)
    writevAll(fd, ps, 3)
  } finally {
    io.writevSync = writev
    closeSync(fd)
  }
  t.ok(calls >= 3, `several gathering writes (${calls})`)
  t.same(readFileSync(file), Buffer.concat([Buffer.of(9, 9, 9), joined(ps)]))
  t.end()
})

t.test('short writes (a piece cut anywhere) are continued where they stopped', (t) => {
  const dir = tmpDir(t)
  const file = join(dir, 'f')
  const fd = openSync(file, 'w+')
  const ps = pieces()
  const { writevSync, writeSync } = io
  let n = 0
  // each call writes only part of what it is given: 1..997 bytes
  const short = (f: number, d: readonly Uint8Array[], p: number): number => writeSync(f, Buffer.concat(d).subarray(0, 1 + (n++ * 131) % 997), p)
  io.writevSync = short
  io.writeSync = (f, d, p) => short(f, [d], p)
  try {
    writevAll(fd, ps, 0)
  } finally {
    io.writevSync = writevSync
    io.writeSync = writeSync
    closeSync(fd)
  }
  t.same(readFileSync(file), joined(ps))
  t.end()
})

t.test('a write fault injected into writeSync fails a gathering write too', (t) => {
  const dir = tmpDir(t)
  const fd = openSync(join(dir, 'f'), 'w+')
  const restore = injectFault(['writeSync'], 'ENOSPC')
  try {
    t.throws(() => writevAll(fd, [Uint8Array.of(1), Uint8Array.of(2)], 0), { code: 'ENOSPC' })
  } finally {
    restore()
    closeSync(fd)
  }
  t.end()
})
