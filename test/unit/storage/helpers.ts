/**
 * Helpers for storage tests: throwaway data directories, and reading a data directory back
 * through a freshly opened database (what a restart would see).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import type { JsValue } from '../../../lib/types/js-value.js'

/** A new empty directory, removed when the test `t` ends. */
export function tmpDir(t: { teardown(f: () => void): void }, prefix = 'epochdb-unit-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
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
