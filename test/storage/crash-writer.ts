/**
 * The writer process of the crash test: opens the data directory given as argv[2], appends
 * batches from batch id argv[3] on, and prints `ack <id>` after each append is acknowledged.
 * Every batch's rows are a function of its id (see `batchRows`), so the test can check them.
 */
import { pathToFileURL } from 'node:url'
import { Database } from '../../lib/index.js'
import { DoubleArray } from '../../lib/types/array.js'

/** Rows per batch. */
export const ROWS = 200
const HOUR = 3_600_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000

/** The rows of batch `k`: ids k*ROWS.., one row per second; every 5th batch lands 3 hours in the past (out of order). */
export function batchRows(k: number): { ts: Float64Array; id: Float64Array; batch: Int32Array; s: string[]; v: Float64Array; name: (string | null)[]; a: (DoubleArray | null)[] } {
  const ts = new Float64Array(ROWS)
  const id = new Float64Array(ROWS)
  const batch = new Int32Array(ROWS).fill(k)
  const s: string[] = []
  const v = new Float64Array(ROWS)
  const name: (string | null)[] = []
  // an array column: its files are appended to in place at checkpoints (array layout 2), so kills land in those appends too
  const a: (DoubleArray | null)[] = []
  for (let i = 0; i < ROWS; i++) {
    const n = k * ROWS + i
    ts[i] = BASE + n * 1_000_000 * 20 - (k % 5 === 4 ? 3 * HOUR : 0)
    id[i] = n
    s.push(`s${n % 7}`)
    v[i] = n * 0.25
    name.push(n % 11 === 0 ? null : `name-${n}`)
    a.push(n % 13 === 0 ? null : new DoubleArray([1 + (n % 3)], Float64Array.from({ length: 1 + (n % 3) }, (_, j) => n + j)))
  }
  return { ts, id, batch, s, v, name, a }
}

async function main(): Promise<void> {
  const dir = process.argv[2]!
  let k = Number(process.argv[3])
  const db = await Database.open({ path: dir, checkpointBytes: 200_000, acl: { enabled: true, passwordHashIterations: 1 } })
  await db.query('create table if not exists t (ts timestamp, id long, batch int, s symbol index, v double, name string, a double[]) timestamp(ts) partition by hour')
  process.stdout.write('ready\n')
  for (;;) {
    await db.append('t', batchRows(k))
    process.stdout.write(`ack ${k}\n`)
    // the access-control catalog is written between appends, so kills land in its writes too
    if (k % 3 === 0) {
      await db.query(`create user u${k} with password 'p${k}'`)
      await db.query(`grant select on t to u${k}`)
      process.stdout.write(`acl ${k}\n`)
    }
    k++
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main()
