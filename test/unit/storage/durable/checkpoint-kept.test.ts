/**
 * Which partitions a checkpoint keeps loaded (checkpoint.ts `keptViews`): a new partition whose
 * rows sit in one in-memory segment is kept (its columns copied out of the table's buffers), one
 * whose rows span several segments — ILP batches adopted as they came — is not (keeping it would
 * join the segments: one more copy of every row) and loads from its files when next read. Either
 * way the rows read back the same, before and after a reopen.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import type { Table } from '../../../../lib/storage/table.js'
import type { FilePart } from '../../../../lib/storage/durable/file-part.js'
import { afterReopen, tmpDir } from '../helpers.js'

const BATCH = 10_000
const T0 = 1_700_000_000_000_000

/** ILP lines for rows `from .. from + count - 1`, 1 ms apart (one DAY partition). */
function lines(table: string, from: number, count: number): Buffer {
  const out: string[] = []
  for (let i = from; i < from + count; i++) out.push(`${table},s=k${i % 7} v=${i % 1000}.5,n=${i}i ${T0 + i * 1000}t`)
  return Buffer.from(out.join('\n') + '\n')
}

async function ilp(db: Database, body: Buffer): Promise<void> {
  const w = db.lineWriter()
  w.write(body)
  await w.end()
}

interface Inside { catalog: { get(n: string): Table }; store: { checkpoint(): void } }

/** Per cold partition of `name`: how many of its columns are loaded (a look inside). */
function loaded(db: Database, name: string): number[] {
  const table = (db as unknown as Inside).catalog.get(name)
  return table.coldParts().map((p) => table.meta.columns.filter((_, c) => (p as FilePart).loaded(c) !== undefined).length)
}

const Q = (name: string): string[] => [
  `select count(), sum(n), sum(v), count_distinct(s), min(timestamp), max(timestamp) from ${name}`,
  `select timestamp, s, v, n from ${name} where n in (0, 9999, 10000, 19999, 20000, 29999) order by n`,
]

t.test('a partition spanning adopted ILP batches is not kept by its first checkpoint; one in a single segment is', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  const mem = await Database.open()
  for (let b = 0; b < 3; b++) for (const d of [db, mem]) await ilp(d, lines('many', b * BATCH, BATCH))
  for (const d of [db, mem]) await ilp(d, lines('one', 0, BATCH))
  const inMemory = (n: string): number[] => (db as unknown as Inside).catalog.get(n).inMemory().map((d) => d.rowCount).filter((r) => r > 0)
  t.same(inMemory('many'), [BATCH, BATCH, BATCH], 'three adopted batches, three segments')
  t.same(inMemory('one'), [BATCH], 'one adopted batch')
  ;(db as unknown as Inside).store.checkpoint()
  t.same(loaded(db, 'many'), [0], 'the partition spanning three segments is not kept: no join of them')
  t.same(loaded(db, 'one'), [4], 'the partition in one segment is kept, every column')
  for (const name of ['many', 'one']) for (const q of Q(name)) t.same((await db.query(q)).rows, (await mem.query(q)).rows, q)
  const expected: unknown[][][] = []
  for (const q of Q('many')) expected.push((await mem.query(q)).rows)
  await db.close()
  await mem.close()
  t.same(await afterReopen(dir, ...Q('many')), expected, 'after a reopen')
})
