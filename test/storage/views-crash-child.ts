/**
 * The child of views.test.ts: opens the data directory `argv[2]` and, from step `argv[3]` on,
 * replaces view `v<i % 3>` with `SELECT <i> AS n FROM t` (odd steps also drop and recreate view
 * `d`), printing `ack <i>` after each statement is answered, until the parent kills it.
 */
import { Database } from '../../lib/index.js'

const [dir, fromText] = process.argv.slice(2) as [string, string]
const db = await Database.open({ path: dir })
await db.query('create table if not exists t (x int)')
process.stdout.write('ready\n')
for (let i = Number(fromText); ; i++) {
  await db.query(`create or replace view v${i % 3} as (select ${i} as n from t)`)
  if (i % 2 === 1) {
    await db.query('drop view if exists d')
    await db.query(`create view d as (select ${i} as n from t)`)
  }
  process.stdout.write(`ack ${i}\n`)
}
