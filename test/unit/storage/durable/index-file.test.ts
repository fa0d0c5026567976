/**
 * Index files: blocks of postings read back as the index of the rows `_meta` records, never
 * past them, and never trusted where a block is damaged.
 */
import t from 'tap'
import { appendFileSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { appendIndexBlock, encodeIndexBlock, encodeIndexBlockSteps, readIndexFile, writeIndexFile, writeIndexFileSteps } from '../../../../lib/storage/durable/index-file.js'
import { SymbolPostings } from '../../../../lib/storage/symbol-index.js'
import { tmpDir } from '../helpers.js'

const KEYS = Int32Array.from({ length: 500 }, (_, i) => (i % 11 === 0 ? -1 : (i * 7) % 13))

/** The rows of each key (null included) in the index, as the unindexed truth would list them. */
function rowsOf(p: SymbolPostings, upto: number): number[][] {
  return Array.from({ length: 14 }, (_, k) => [...p.rows(k - 1, 0, upto)])
}
function truth(upto: number): number[][] {
  const out: number[][] = Array.from({ length: 14 }, () => [])
  for (let r = 0; r < upto; r++) out[KEYS[r]! + 1]!.push(r)
  return out
}

t.test('blocks written and appended read back as the index of the recorded rows', async (t) => {
  const f = join(tmpDir(t), 's.i')
  writeIndexFile(f, encodeIndexBlock(KEYS.subarray(0, 200), 0, 200))
  t.ok(appendIndexBlock(f, 200, encodeIndexBlock(KEYS.subarray(200, 350), 200, 350)))
  t.ok(appendIndexBlock(f, 350, encodeIndexBlock(KEYS.subarray(350, 500), 350, 500)))
  const p = readIndexFile(f, 500)!
  t.equal(p.indexed, 500)
  t.same(rowsOf(p, 500), truth(500))
  // `_meta` records only 350 rows (the last append's _meta never landed): the last block is ignored
  const q = readIndexFile(f, 350)!
  t.equal(q.indexed, 350)
  t.same(rowsOf(q, 500), truth(350))
  // and appending after 350 rows cuts it first
  t.ok(appendIndexBlock(f, 350, encodeIndexBlock(KEYS.subarray(350, 400), 350, 400)))
  t.equal(readIndexFile(f, 500)!.indexed, 400)
})

t.test('a damaged block ends what is trusted; a file that covers too little is not appended to', async (t) => {
  const dir = tmpDir(t)
  const f = join(dir, 's.i')
  writeIndexFile(f, encodeIndexBlock(KEYS.subarray(0, 200), 0, 200))
  const first = statSync(f).size
  appendIndexBlock(f, 200, encodeIndexBlock(KEYS.subarray(200, 500), 200, 500))
  const bytes = readFileSync(f)
  bytes[first + 40] = bytes[first + 40]! ^ 0xff
  writeFileSync(f, bytes)
  t.equal(readIndexFile(f, 500)!.indexed, 200, 'the second block fails its checksum')
  truncateSync(f, first - 3)
  t.equal(readIndexFile(f, 500), undefined, 'a cut first block: nothing is trusted')
  t.notOk(appendIndexBlock(f, 200, encodeIndexBlock(KEYS.subarray(200, 300), 200, 300)), 'not appended to a file that does not cover the rows')
  writeFileSync(f, Buffer.alloc(100, 7))
  t.equal(readIndexFile(f, 500), undefined, 'garbage')
  t.equal(readIndexFile(join(dir, 'missing.i'), 5), undefined, 'missing')
  writeIndexFile(f, encodeIndexBlock(KEYS.subarray(0, 100), 0, 100))
  appendFileSync(f, Buffer.alloc(10, 1))
  t.equal(readIndexFile(f, 100)!.indexed, 100, 'a torn tail after the blocks is ignored')
})

t.test('read postings extend over rows the file does not cover', async (t) => {
  const f = join(tmpDir(t), 's.i')
  writeIndexFile(f, encodeIndexBlock(KEYS.subarray(0, 120), 0, 120))
  const p = readIndexFile(f, 500)!
  p.extend(KEYS, 500)
  t.same(rowsOf(p, 500), truth(500))
})

t.test('a large block is built and written in steps, and reads back as the index of its rows', async (t) => {
  const n = 1_500_000
  const keys = Int32Array.from({ length: n }, (_, i) => (i % 101 === 0 ? -1 : i % 37))
  let yields = 0
  const enc = encodeIndexBlockSteps(keys, 0, n)
  let r = enc.next()
  for (; r.done !== true; r = enc.next()) yields++
  // counted and placed half a million rows a step
  t.ok(yields >= 6, `the block was built over several steps (${yields})`)
  t.equal(Buffer.compare(r.value, encodeIndexBlock(keys, 0, n)), 0, 'the same bytes as built at once')
  const f = join(tmpDir(t), 'big.i')
  let writes = 0
  const w = writeIndexFileSteps(f, r.value)
  while (w.next().done !== true) writes++
  t.ok(writes >= 1, `the file was written over several steps (${writes + 1})`)
  const p = readIndexFile(f, n)!
  t.equal(p.indexed, n)
  let wrong = 0
  for (const k of [-1, 0, 5, 36]) {
    const got = p.rows(k, 0, n)
    let i = 0
    for (let row = 0; row < n; row++) if (keys[row] === k && got[i++] !== row) wrong++
    if (i !== got.length) wrong++
  }
  t.equal(wrong, 0, 'every posting is the row of its key, in order')
})
