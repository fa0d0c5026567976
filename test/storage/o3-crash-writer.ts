/**
 * The writer process of the out-of-order crash test: opens the data directory argv[2] and appends
 * batches from batch id argv[3] on, printing `ack <id>` after each is acknowledged. Batches come
 * in pairs from two streams writing "now": the odd batch's rows fall between the even batch's
 * (and the rows before it), so after each checkpoint an out-of-order commit cuts the last
 * partition (FilePart.cut) — killed at random moments, also inside those checkpoints.
 *
 * With argv[4] `dedup` the table has DEDUP UPSERT KEYS(ts, id), and after every third batch the
 * batch before it is sent again, unchanged (a client retrying a commit whose answer it lost): its
 * rows are at timestamps already in the table, often in a checkpointed partition, so the cut must
 * take the rows at the oldest of them into the merge, or they would be there twice.
 */
import { pathToFileURL } from 'node:url'
import { Database } from '../../lib/index.js'

/** Rows per batch. */
export const ROWS = 300
const BASE = Date.UTC(2024, 0, 1) * 1000
const HOUR = 3_600_000_000

/** The rows of batch `k`: two streams (even and odd ids) 1 s apart; every 7th batch of stream 1 reaches an hour back. */
export function batchRows(k: number): { ts: Float64Array; id: Float64Array; batch: Int32Array; s: string[]; y: string[]; v: Float64Array } {
  const pair = k >> 1
  const stream = k & 1
  const ts = new Float64Array(ROWS)
  const id = new Float64Array(ROWS)
  const batch = new Int32Array(ROWS).fill(k)
  const s: string[] = []
  const y: string[] = []
  const v = new Float64Array(ROWS)
  for (let i = 0; i < ROWS; i++) {
    const n = pair * ROWS + i
    ts[i] = BASE + n * 2_000_000 * 20 + stream * 1_000_000 * 20 - (stream === 1 && pair % 7 === 3 ? HOUR : 0)
    id[i] = k * ROWS + i
    s.push(`text-${k}-${i}${'z'.repeat(i % 9)}`)
    y.push(`y${(k + i) % 5}`)
    v[i] = (k * ROWS + i) * 0.5
  }
  return { ts, id, batch, s, y, v }
}

async function main(): Promise<void> {
  const dir = process.argv[2]!
  let k = Number(process.argv[3])
  const dedup = process.argv[4] === 'dedup'
  const db = await Database.open({ path: dir, checkpointBytes: 60_000 })
  await db.query(`create table if not exists t (ts timestamp, id long, batch int, s string, y symbol index, v double) timestamp(ts) partition by day${dedup ? ' wal dedup upsert keys(ts, id)' : ''}`)
  process.stdout.write('ready\n')
  for (;;) {
    await db.append('t', batchRows(k))
    process.stdout.write(`ack ${k}\n`)
    if (dedup && k % 3 === 2) await db.append('t', batchRows(k - 1))
    k++
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main()
