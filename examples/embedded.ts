/**
 * EpochDB as a library: no server, just a database in the process.
 *
 *   node --import tsx examples/embedded.ts
 */
import { Database } from '../lib/index.js'

const db = await Database.open()
await db.query('create table trades (ts timestamp, sym symbol, price double, qty long) timestamp(ts) partition by day')

// the fast bulk path: column arrays
const n = 100_000
const ts = new Float64Array(n)
const price = new Float64Array(n)
const sym: string[] = []
for (let i = 0; i < n; i++) {
  ts[i] = Date.UTC(2024, 0, 1) * 1000 + i * 1_000_000
  price[i] = 100 + Math.sin(i / 1000) * 5
  sym.push(i % 2 === 0 ? 'BTC-USD' : 'ETH-USD')
}
await db.append('trades', { ts, sym, price })

const r = await db.query('select sym, count(), round(avg(price), 2) avg_price from trades order by sym')
console.table(r.rows)

// one prepared statement for lists of any length: an array is the whole list of an IN
const bySym = db.prepare('select sym, count() from trades where sym in ($1) order by sym')
console.table((await bySym.query([['BTC-USD', 'SOL-USD']])).rows)

// streaming: batches of column vectors, nothing materialized
let rows = 0
for await (const batch of db.stream("select * from trades where sym = 'BTC-USD'")) rows += batch.length
console.log('streamed', rows, 'rows')
await db.close()
