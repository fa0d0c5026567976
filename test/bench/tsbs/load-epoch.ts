/** Loading the TSBS cpu-only rows into an EpochDB database (the benches' `--wire` server and in-process runs). */
import type { Database } from '../../../lib/index.js'
import { METRICS, TAGS, chunks, type Shape } from './generate.js'

/**
 * Creates table `cpu` (10 SYMBOL tags, 10 DOUBLE metrics, designated `ts`, daily partitions;
 * `hostname SYMBOL INDEX` with `index`) and appends the rows of `shape`.
 */
export async function loadEpoch(db: Database, shape: Shape, options: { readonly index?: boolean } = {}): Promise<void> {
  const cols = [...TAGS.map((t) => `${t} SYMBOL${options.index === true && t === 'hostname' ? ' INDEX' : ''}`), ...METRICS.map((m) => `${m} DOUBLE`), 'ts TIMESTAMP']
  await db.query(`CREATE TABLE cpu (${cols.join(', ')}) TIMESTAMP(ts) PARTITION BY DAY`)
  for (const c of chunks(shape, 360)) {
    const data: Record<string, ArrayLike<unknown>> = { ts: c.ts }
    TAGS.forEach((t, i) => { data[t] = c.tags[i]! })
    METRICS.forEach((m, i) => { data[m] = c.metrics[i]! })
    await db.append('cpu', data)
  }
}
