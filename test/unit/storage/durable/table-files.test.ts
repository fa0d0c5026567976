/**
 * Partition files written in steps: a large column file about 4 MiB a step, and an indexed SYMBOL
 * column's index file built and written in steps of its own (not in its column's step), so a
 * background checkpoint of a large partition does not hold the event loop for a whole file; what
 * is written reads back as the rows and their index.
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeFixed } from '../../../../lib/storage/durable/column-codec.js'
import { ColumnBuffer } from '../../../../lib/storage/column-buffer.js'
import type { TableMeta } from '../../../../lib/storage/table.js'
import { appendPartitionSteps, writePartitionSteps } from '../../../../lib/storage/durable/table-files.js'
import { indexFileOf, readIndexFile } from '../../../../lib/storage/durable/index-file.js'
import type { Steps } from '../../../../lib/storage/durable/steps.js'
import { SymbolTable, vectorOf } from '../../../../lib/types/vector.js'
import { io } from '../../../../lib/storage/durable/io.js'
import { tmpDir } from '../helpers.js'

const ROWS = 1_500_000

function meta(indexed: boolean): TableMeta {
  const col = (name: string, type: 'TIMESTAMP' | 'SYMBOL', ix = false) => ({ name, type, indexed: ix, symbolCapacity: 256, symbolCached: true })
  return { id: 1, name: 't', columns: [col('ts', 'TIMESTAMP'), col('s', 'SYMBOL', indexed)], timestampIndex: 0, partitionBy: 'NONE', wal: false, dedupKeys: [], ttl: undefined, maxUncommittedRows: 500_000, o3MaxLag: 0 }
}

function data(): { columns: ColumnBuffer[]; rowCount: number } {
  const dict = new SymbolTable()
  for (let k = 0; k < 20; k++) dict.intern(`s${k}`)
  const ts = new Float64Array(ROWS).map((_, i) => i)
  const keys = Int32Array.from({ length: ROWS }, (_, i) => i % 20)
  const a = new ColumnBuffer('TIMESTAMP', ROWS)
  a.append(vectorOf('TIMESTAMP', ts, ROWS))
  const b = new ColumnBuffer('SYMBOL', ROWS, dict)
  b.append(vectorOf('SYMBOL', keys, ROWS, dict))
  return { columns: [a, b], rowCount: ROWS }
}

/** Runs `steps` (syncing what they yield), counting the plain steps (not syncs). */
function plainSteps<T>(steps: Steps<T>): { steps: number; value: T } {
  let n = 0
  for (;;) {
    const r = steps.next()
    if (r.done === true) return { steps: n, value: r.value }
    const w = r.value
    if (w === undefined) { n++; continue }
    if (w.fsync !== undefined) { io.fsyncSync(w.fsync); if (w.later === true) io.closeSync(w.fsync) }
  }
}

t.test('an indexed column adds steps of its own for its index file, which reads back whole', async (t) => {
  const dir = tmpDir(t, 'epochdb-table-files-')
  const d = data()
  const plain = plainSteps(writePartitionSteps(dir, 'p.1', meta(false), d, 0, ROWS))
  const indexed = plainSteps(writePartitionSteps(dir, 'p.2', meta(true), d, 0, ROWS))
  t.equal(indexed.value, plain.value, 'the same column bytes')
  // 12 MB of timestamps and 6 MB of keys, about 4 MiB a step
  t.ok(plain.steps >= 4, `large column files were written over several steps (${plain.steps})`)
  for (const [c, name] of [[0, 'ts'], [1, 's']] as const) {
    t.equal(Buffer.compare(readFileSync(join(dir, 'p.1', `${name}.d`)), encodeFixed(d.columns[c]!.view(0, ROWS))), 0, `${name}.d holds every row, as encoded at once`)
  }
  // 1.5M rows: counted and placed half a million a step, written 4 MiB a step
  t.ok(indexed.steps >= plain.steps + 6, `the index was built over steps of its own (${indexed.steps} steps, ${plain.steps} without it)`)
  const p = readIndexFile(indexFileOf(join(dir, 'p.2'), 's'), ROWS)!
  t.equal(p.indexed, ROWS)
  t.same([p.rows(7, 0, ROWS).length, p.rows(7, 0, ROWS)[0], p.rows(7, 0, ROWS).at(-1)], [ROWS / 20, 7, ROWS - 13])

  // rows appended in place add a block, also in steps
  const more = data()
  const entry = { name: 'p', dir: 'p.2', lo: -Infinity, hi: Infinity, rows: ROWS, minTs: 0, maxTs: ROWS - 1, bytes: indexed.value }
  const appended = plainSteps(appendPartitionSteps(dir, entry, meta(true), more, 0, ROWS))
  t.ok(appended.steps >= 4, `the appended block was built over steps (${appended.steps})`)
  const q = readIndexFile(indexFileOf(join(dir, 'p.2'), 's'), 2 * ROWS)!
  t.equal(q.indexed, 2 * ROWS)
  t.equal(q.rows(3, 0, 2 * ROWS).length, 2 * ROWS / 20)
  t.equal(q.rows(3, ROWS, 2 * ROWS)[0], ROWS + 3)
})
