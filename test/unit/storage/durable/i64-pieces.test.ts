/**
 * 64-bit integer columns (held as safe integers) are converted into int64 words for their files a
 * piece of about 4 MB at a time, into one scratch array every piece reuses (table-files.ts
 * `fixedPieces`): each piece must be written before the next one is encoded, and only its own
 * words. Checked with two LONG columns and the designated timestamp over several pieces each
 * (700,000 rows), nulls and negative values included: every file holds exactly its rows' bytes,
 * and the rows read back the same, written whole and appended in place.
 */
import t from 'tap'
import { statSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
import { afterReopen, tmpDir } from '../helpers.js'

const N = 700_000
const T0 = Date.UTC(2024, 0, 1) * 1000

function rows(from: number, n: number): Record<string, unknown[]> {
  const ts = Array.from({ length: n }, (_, i) => T0 + (from + i) * 1000)
  return {
    ts,
    a: ts.map((_, i) => ((from + i) % 97 === 0 ? null : (from + i) * 1_000_003 - 2 ** 40)),
    b: ts.map((_, i) => (from + i) % 3 === 0 ? -(from + i) : 2 ** 52 - (from + i)),
  }
}

const Q = [
  'select count(), count(a), sum(a), min(a), max(a), sum(b), min(b), max(b), min(ts), max(ts) from t',
  'select ts, a, b from t where ts in (\'2024-01-01T00:00:00.000000Z\', \'2024-01-01T00:08:44.287000Z\', \'2024-01-01T00:11:39.999000Z\', \'2024-01-01T00:20:00.000000Z\') order by ts',
  'select count() from t where a is null',
]

/** Every `<column>.d` file of the table's partitions, with its size. */
function files(dir: string): Map<string, number> {
  const out = new Map<string, number>()
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (/^(a|b|ts)\.d$/.test(e.name)) out.set(p, statSync(p).size)
    }
  }
  walk(dir)
  return out
}

t.test('LONG and TIMESTAMP columns over several 4 MB pieces: exact files, the same rows back (written whole, then appended)', { timeout: 240_000 }, async (t) => {
  const dir = tmpDir(t)
  const mem = await Database.open()
  let db = await Database.open({ path: dir })
  for (const d of [db, mem]) await d.query('create table t (ts timestamp, a long, b long) timestamp(ts) partition by day wal')
  for (const d of [db, mem]) await d.append('t', rows(0, N))
  await db.close()
  let sizes = [...files(dir).values()]
  t.same(sizes, [N * 8, N * 8, N * 8], 'each file holds exactly its rows (8 bytes each)')
  const expected1: unknown[][][] = []
  for (const q of Q) expected1.push((await mem.query(q)).rows)
  t.same(await afterReopen(dir, ...Q), expected1, 'written whole: the same rows')
  db = await Database.open({ path: dir })
  for (const d of [db, mem]) await d.append('t', rows(N, N))
  await db.close()
  sizes = [...files(dir).values()]
  t.same(sizes, [2 * N * 8, 2 * N * 8, 2 * N * 8], 'appended in place: each file holds exactly its rows')
  const expected2: unknown[][][] = []
  for (const q of Q) expected2.push((await mem.query(q)).rows)
  t.same(await afterReopen(dir, ...Q), expected2, 'appended: the same rows')
  t.not(expected2[0], expected1[0])
  await mem.close()
})
