/**
 * EpochDB's REST API inside an Express 5 app, under a prefix, next to the app's own routes.
 *
 *   node --import tsx examples/express.ts
 *   curl 'http://127.0.0.1:3000/questdb/exec?query=select+1'
 */
import express from 'express'
import { Database } from '../lib/index.js'
import { createHttpHandler } from '../adapters/http/index.js'

const db = await Database.open()
await db.query('create table if not exists readings (ts timestamp, sensor symbol, value double) timestamp(ts) partition by day')

const app = express()
app.get('/', (_req, res) => { res.send('my app; the database is under /questdb') })
app.use('/questdb', createHttpHandler(db, { onRequest: (e) => console.log(JSON.stringify(e)) }))

const port = Number(process.env.PORT ?? 3000)
app.listen(port, '127.0.0.1', () => console.log(`Express app on http://127.0.0.1:${port}/ (REST under /questdb)`))
