/**
 * Bench helper (not a test): waits until a tree's parallel workers take part in statements. A
 * worker started from TypeScript sources loads the engine through tsx, which takes seconds on a
 * loaded machine; until then every piece of a parallel aggregation falls to the statement's
 * thread (pieces.ts), so a bench that starts timing at once measures one thread for its first
 * queries and two for the later ones (the keyed `sum(v)` of decimal.ts read 1.4–2.3x DuckDB
 * while the next query, `avg(v)` over the same kernel, read 1.0x: the workers had taken no piece
 * of the 30 unkeyed statements before it and 27 of the keyed sum's 96).
 */
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

/**
 * Runs `warm` (a parallel aggregation) on the tree whose `lib/` is `lib` until a worker took a
 * piece of it, at most `limitMs`. Returns the milliseconds waited, 0 without workers
 * (`EPOCHDB_WORKERS=0`, one core), or -1 when the workers never took part in time.
 */
export async function warmWorkers(lib: string, warm: () => Promise<unknown>, limitMs = 60_000): Promise<number> {
  const pool = await import(pathToFileURL(resolve(lib, 'exec/parallel/pool.ts')).href) as typeof import('../../lib/exec/parallel/pool.js')
  const pieces = await import(pathToFileURL(resolve(lib, 'exec/parallel/pieces.ts')).href) as typeof import('../../lib/exec/parallel/pieces.js')
  if (pool.parallelWorkers() === 0) return 0
  const t0 = Date.now(), before = pieces.PIECE_STATS.workers
  while (pieces.PIECE_STATS.workers === before) {
    if (Date.now() - t0 > limitMs) return -1
    await warm()
    await new Promise((r) => setTimeout(r, 20))
  }
  return Date.now() - t0
}
