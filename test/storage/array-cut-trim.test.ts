/**
 * The bytes an out-of-order cut leaves in a part's files (cut-trim.ts) are reclaimed, array
 * columns included: 20 rounds of a late row (which cuts the partition) and an in-order row, a
 * checkpoint after each, keep the table's column files within a small multiple of its rows' size
 * while the process runs (a later checkpoint cuts a part once the partition as it was before the
 * cut has been collected), and at the next open every column, arrays too, is back to its rows'
 * size. The rows read the same throughout. Without the trimming the files grow with every cut.
 */
import t from 'tap'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Database } from '../../lib/index.js'
import { checkpointed, tmpDir } from '../unit/storage/helpers.js'

// a part is cut only once the partition as it was before (a retired partition) has been collected
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Bytes of the table's column files by column (`a.d`, `a.o`, `ts.d`, ...), over every partition directory. */
function columnBytes(dir: string): Record<string, number> {
  const td = join(dir, readdirSync(dir).find((e) => e.startsWith('t~'))!)
  const out: Record<string, number> = {}
  for (const p of readdirSync(td, { withFileTypes: true })) {
    if (!p.isDirectory()) continue
    for (const f of readdirSync(join(td, p.name))) {
      const m = /^(\w+)\.(d|o)$/.exec(f)
      if (m === null) continue
      out[f] = (out[f] ?? 0) + statSync(join(td, p.name, f)).size
      out[`${f} files`] = (out[`${f} files`] ?? 0) + 1
    }
  }
  return out
}

const row = (i: number, second: number): string =>
  `('2024-01-01T00:00:${String(second).padStart(2, '0')}.${String(i).padStart(6, '0')}Z', ${i}, ARRAY[${i}.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])`

t.test('repeated out-of-order cuts: the column files stay bounded, and shrink to the rows at the next open', async (t) => {
  const dir = tmpDir(t, 'epochdb-cut-trim-')
  let db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, v double, a double[]) timestamp(ts) partition by day')
  await db.query('insert into t values ' + Array.from({ length: 2000 }, (_, i) => row(i, 30)).join(','))
  await db.close()
  db = await Database.open({ path: dir, checkpointBytes: 1 })
  const start = columnBytes(dir)
  const sum = async (): Promise<unknown> => (await db.query('select count(), sum(v), sum(array_sum(a)) from t')).rows
  let largest = 0
  for (let k = 0; k < 20; k++) {
    await db.query('insert into t values ' + row(k, 10 + (k % 10)))
    await checkpointed(dir)
    await db.query('insert into t values ' + row(5000 + k, 59))
    await checkpointed(dir)
    gc()
    await new Promise((r) => setTimeout(r, 10))
    largest = Math.max(largest, columnBytes(dir)['a.d'] ?? 0)
  }
  const rows = 2040
  t.same(await sum(), [[BigInt(rows), (1999 * 2000) / 2 + 190 + 20 * 5000 + 190, (1999 * 2000) / 2 + 190 + 20 * 5000 + 190 + rows * 35]])
  // each cut copies the rows after it into a new part: without trimming the 20 cuts leave ~11 copies
  t.ok(largest < 4 * start['a.d']!, `array data at most ${largest} bytes while running (${start['a.d']} at the start)`)
  const running = columnBytes(dir)
  t.ok(running['ts.d']! < 4 * start['ts.d']!, `timestamps ${running['ts.d']} bytes (${start['ts.d']} at the start)`)
  const seen = await sum()
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const after = columnBytes(dir)
  // every file back to its rows' size (array data: each file's 8-byte marker, then an 8-byte record and 8 elements a row)
  t.equal(after['ts.d'], rows * 8)
  t.equal(after['v.d'], rows * 8)
  t.equal(after['a.o'], rows * 8)
  t.equal(after['a.d'], 8 * after['a.d files']! + rows * (8 + 64), `array data ${after['a.d']} bytes in ${after['a.d files']} files`)
  t.same(await sum(), seen, 'the same rows after the restart')
})
