/**
 * EpochDB's REST API as Koa 3 middleware: requests for /exec, /exp, ... are answered by
 * EpochDB, everything else continues down the Koa chain.
 *
 *   node --import tsx examples/koa.ts
 *   curl 'http://127.0.0.1:3001/exec?query=select+1'
 */
import Koa from 'koa'
import { Database } from '../lib/index.js'
import { koaHttpHandler } from '../adapters/http/index.js'

const db = await Database.open()
const app = new Koa()
app.use(koaHttpHandler(db))
app.use(async (ctx) => { ctx.body = 'my app' })

const port = Number(process.env.PORT ?? 3001)
app.listen(port, '127.0.0.1', () => console.log(`Koa app on http://127.0.0.1:${port}/`))
