/**
 * Helpers for storage tests: throwaway data directories, and reading a data directory back
 * through a freshly opened database (what a restart would see).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { unpack } from 'msgpackr'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import type { JsValue } from '../../../lib/types/js-value.js'
import type { ColumnType } from '../../../lib/types/column-type.js'
import { ARR_FILE_MAGIC, decodeArrFile, encodeArr, isArrFile2 } from '../../../lib/storage/durable/array-codec.js'

/** A new empty directory, removed when the test `t` ends. */
export function tmpDir(t: { teardown(f: () => void): void }, prefix = 'epochdb-unit-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A copy of an open data directory, as a crash would leave it (no lock), removed when the test `t` ends. */
export function crashCopy(t: { teardown(f: () => void): void }, dir: string): string {
  const copy = tmpDir(t, 'epochdb-walcopy-')
  rmSync(copy, { recursive: true, force: true })
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true })
  for (const e of readdirSync(copy)) if (e.startsWith('_lock')) rmSync(join(copy, e))
  return copy
}

/** Opens the data directory `dir`, runs each query, closes it; returns each query's rows. */
export async function afterReopen(dir: string, ...queries: string[]): Promise<JsValue[][][]> {
  const db = await Database.open({ path: dir })
  try {
    const out: JsValue[][][] = []
    for (const q of queries) out.push((await db.query(q)).rows)
    return out
  } finally {
    await db.close()
  }
}

/**
 * Waits (at most 60 s) until the background checkpoint a commit started has ended: it empties the
 * WAL of `dir` at its end (with `checkpointBytes: 1`, every commit starts one).
 */
export async function checkpointed(dir: string): Promise<void> {
  const until = Date.now() + 60_000
  while (statSync(join(dir, 'wal.log')).size > 0) {
    if (Date.now() > until) throw new Error('the checkpoint did not end within 60 s')
    await new Promise((r) => setTimeout(r, 5))
  }
}

/**
 * Rewrites, in closed data directory `dir`, every partition file of array column `column` (`type`) of
 * table `table` (files under the column's name) in array layout 1, as data directories written
 * before layout 2 hold them (array-codec.ts); the rows stay the same. Returns the files rewritten.
 */
export function toArrayLayout1(dir: string, table: string, column: string, type: ColumnType = 'DOUBLE[]'): number {
  const td = readdirSync(dir).find((e) => e.startsWith(`${table}~`))!
  const meta = unpack(readFileSync(join(dir, td, '_meta'))) as { partitions: { dir: string; rows: number; tops?: Record<string, number> }[] }
  let n = 0
  for (const p of meta.partitions) {
    const base = join(dir, td, p.dir, column)
    if (!existsSync(`${base}.d`)) continue
    const rows = p.rows - (p.tops?.[column] ?? 0)
    const d = readFileSync(`${base}.d`)
    if (!isArrFile2(d)) continue
    const [d1, o1] = encodeArr(decodeArrFile(type, d.subarray(ARR_FILE_MAGIC.length), rows).vector)
    writeFileSync(`${base}.d`, d1)
    writeFileSync(`${base}.o`, o1)
    n++
  }
  return n
}
