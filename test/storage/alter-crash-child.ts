/**
 * The writer process of the ALTER crash test: opens the data directory argv[2] and, from round
 * argv[3] on, per round k: appends ROWS rows of batch k, adds column `c<k>` (ADD COLUMN, no
 * partition rewritten), appends ROWS rows with `c<k>` = k, renames `c<k>` to `r<k>` — printing
 * `ack <k> <step>` after each acknowledged step (1: first rows, 2: added, 3: second rows, 4: `c<k>`
 * incremented by an UPDATE, which writes only that column of the partitions it changes — in odd
 * rounds an UPDATE ... FROM a table `u` holding (k, 1), which writes so too — 5: renamed); in odd
 * rounds it then drops `r<k>` (DROP COLUMN, no partition rewritten: 6: dropped).
 */
import { pathToFileURL } from 'node:url'
import { Database } from '../../lib/index.js'

/** Rows per append. */
export const ROWS = 300
const BASE = Date.UTC(2024, 0, 1) * 1000
/** µs between rows: a round's 600 rows span about three HOUR partitions. */
export const STEP = 18_000_000

/** The VALUES of the `ROWS` rows of append `n` (0, 1, 2, ...), with column `col` = `k` when given. */
export function rowsOf(n: number, k: number, withCol: boolean): string {
  const out: string[] = []
  for (let i = 0; i < ROWS; i++) {
    const id = n * ROWS + i
    out.push(`(${k}, ${id}, 's${id % 5}', ${BASE + id * STEP}${withCol ? `, ${k}` : ''})`)
  }
  return out.join(', ')
}

async function main(): Promise<void> {
  const dir = process.argv[2]!
  const from = Number(process.argv[3])
  const db = await Database.open({ path: dir, checkpointBytes: 50_000 })
  await db.query('create table if not exists t (batch int, id long, s symbol, ts timestamp) timestamp(ts) partition by hour')
  await db.query('create table if not exists u (b int, d int)')
  process.stdout.write('ready\n')
  for (let k = from; ; k++) {
    await db.query(`insert into t (batch, id, s, ts) values ${rowsOf(2 * k, k, false)}`)
    process.stdout.write(`ack ${k} 1\n`)
    await db.query(`alter table t add column c${k} int`)
    process.stdout.write(`ack ${k} 2\n`)
    await db.query(`insert into t (batch, id, s, ts, c${k}) values ${rowsOf(2 * k + 1, k, true)}`)
    process.stdout.write(`ack ${k} 3\n`)
    if (k % 2 === 1) {
      await db.query(`insert into u values (${k}, 1)`)
      await db.query(`update t set c${k} = c${k} + u.d from u where t.batch = u.b`)
    } else {
      await db.query(`update t set c${k} = c${k} + 1 where batch = ${k}`)
    }
    process.stdout.write(`ack ${k} 4\n`)
    await db.query(`alter table t rename column c${k} to r${k}`)
    process.stdout.write(`ack ${k} 5\n`)
    if (k % 2 === 1) {
      await db.query(`alter table t drop column r${k}`)
      process.stdout.write(`ack ${k} 6\n`)
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
