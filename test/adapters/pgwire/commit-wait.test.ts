/**
 * pgwire over a data-directory database, while another writer's large commit is under way: a
 * reading connection is answered without waiting for that commit (its rows are not acknowledged,
 * so the answer has none of them), and a writing connection still reads its own pipelined writes
 * and is acknowledged only once they are durable (lib/storage/durable/commit-wait.ts).
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer, type TestServer } from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'epochdb-pgwire-commit-wait-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const T0 = Date.UTC(2024, 0, 1) * 1000

let srv: TestServer
t.before(async () => {
  // no checkpoint during the test: what is measured is the commit
  srv = await startServer({}, await Database.open({ path: dir, checkpointBytes: 1 << 30 }))
  await srv.db.query('create table big (ts timestamp, v double) timestamp(ts) partition by day')
  await srv.db.query('create table own (ts timestamp, v long) timestamp(ts)')
  await srv.db.append('big', { ts: [T0], v: [1] })
})

t.test('a reader is answered during another writer\'s large commit, without its rows; a writer reads its own pipelined writes', async (t) => {
  const reader = new pg.Client(pgConfig(srv.port))
  const writer = new pg.Client({ ...pgConfig(srv.port), pipeline: true } as pg.ClientConfig)
  await reader.connect()
  await writer.connect()
  await reader.query('select 1')
  const rows = 2_000_000
  const ts = new Float64Array(rows)
  const v = new Float64Array(rows).fill(1)
  for (let i = 0; i < rows; i++) ts[i] = T0 + (i + 1) * 1000
  const events: string[] = []
  const append = srv.db.append('big', { ts, v }).then(() => { events.push('append acknowledged') })
  // the append is staged (converted and logged), its commit under way
  while (!srv.db.hasUnsyncedWrites) await new Promise((r) => setImmediate(r))
  const seen = (await reader.query('select count(*) n from big')).rows
  events.push('reader answered')
  const ins = writer.query('insert into own values ($1, $2)', [new Date(Date.UTC(2024, 0, 1)), 7])
  const mine = writer.query('select count(*) n, sum(v) s from own')
  await append
  t.same(events, ['reader answered', 'append acknowledged'], 'the reader did not wait for the other writer\'s commit')
  t.same(seen, [{ n: '1' }], 'and saw none of its rows')
  await ins
  t.same((await mine).rows, [{ n: '1', s: '7' }], 'the writer read its own pipelined insert')
  t.same((await reader.query('select count(*) n from big')).rows, [{ n: String(rows + 1) }], 'acknowledged: every reader sees it')
  await reader.end()
  await writer.end()
})

t.teardown(async () => { await srv?.close(); await srv?.db.close() })
