/**
 * The child process of parquet-crash.test.ts: opens the data directory argv[2] (a table `t` whose
 * days 2024-01-01..07 are Parquet), appends a late row into 2024-01-04, waits until a checkpoint
 * has made that day column files (its `_meta` entry native), prints `checkpointed` and kills
 * itself with SIGKILL before the day is written back to Parquet (writing Parquet files, and the
 * `_parquet_keep` list, fail in this process: the kill lands in the gap after the checkpoint).
 */
import '../unit/parquet/resolve-hook.js'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Database } from '../../lib/index.js'
import { injectFault } from '../../lib/storage/durable/io.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'

async function main(): Promise<void> {
  const dir = process.argv[2]!
  injectFault(['openSync', 'renameSync'], 'EIO', (p) => String(p).includes('data.parquet') || String(p).includes('_parquet_keep'))
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query(`INSERT INTO t VALUES ('z', 9999, 0.5, '2024-01-04T12:15:00Z')`)
  const table = join(dir, readdirSync(dir).find((e) => e.startsWith('t~'))!)
  const native = (): boolean => {
    const m = packr.unpack(readFileSync(join(table, '_meta'))) as { partitions: { name: string; format?: string }[] }
    return m.partitions.some((p) => p.name === '2024-01-04' && p.format === undefined)
  }
  const until = Date.now() + 20_000
  while (!native() && Date.now() < until) await new Promise((r) => setTimeout(r, 5))
  process.stdout.write(native() ? 'checkpointed\n' : 'timeout\n')
  process.kill(process.pid, 'SIGKILL')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main()
