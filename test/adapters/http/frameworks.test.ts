import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import express from 'express'
import Koa from 'koa'
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { createHttpHandler, koaHttpHandler } from '../../../adapters/http/index.js'
import { get } from './helpers.js'

const db = await Database.open()
const listen = (s: Server): Promise<number> => new Promise((r) => s.once('listening', () => r((s.address() as AddressInfo).port)))
const close = (s: Server): Promise<void> => new Promise((r) => { s.closeAllConnections(); s.close(() => r()) })
const ONE = '{"query":"select 1 x","columns":[{"name":"x","type":"INT"}],"timestamp":-1,"dataset":[[1]],"count":1}'

t.test('Express 5 at the root and under a prefix; other routes go on', async (t) => {
  const app = express()
  app.use('/db', createHttpHandler(db))
  app.use(createHttpHandler(db))
  app.get('/hello', (_req, res) => { res.send('world') })
  const server = app.listen(0, '127.0.0.1')
  const port = await listen(server)
  t.teardown(() => close(server))
  t.equal((await get(port, '/exec?query=select+1+x')).body, ONE)
  t.equal((await get(port, '/db/exec?query=select+1+x')).body, ONE)
  t.equal((await get(port, '/db/exp?query=select+1+x')).body, '"x"\r\n1\r\n')
  t.equal((await get(port, '/hello')).body, 'world')
  t.equal((await get(port, '/db/nothing')).status, 404)
})

t.test('Koa 3 middleware; other routes go on', async (t) => {
  const app = new Koa()
  app.use(koaHttpHandler(db))
  app.use(async (ctx) => { ctx.body = 'koa:' + ctx.path })
  const server = app.listen(0, '127.0.0.1')
  const port = await listen(server)
  t.teardown(() => close(server))
  t.equal((await get(port, '/exec?query=select+1+x')).body, ONE)
  const err = await get(port, '/exec?query=select+*+from+nope')
  t.equal(err.status, 400)
  t.equal(err.body, '{"query":"select * from nope","error":"table does not exist [table=nope]","position":14}')
  t.equal((await get(port, '/other')).body, 'koa:/other')
})
