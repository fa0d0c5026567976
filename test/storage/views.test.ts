/**
 * Views in a data directory: they survive a restart (with their ids, so `views()` names the same
 * directories), a view's name stays taken, and a SIGKILL at a random moment of CREATE OR REPLACE /
 * DROP VIEW leaves every acknowledged change there and the `_views` file readable (it is replaced
 * atomically).
 */
import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { Database, SqlError } from '../../lib/index.js'
import { nodeScript } from '../node-script.js'

const CHILD = join(import.meta.dirname, 'views-crash-child.ts')

function tmp(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-views-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('views survive a restart, with their ids and status', async (t) => {
  const dir = tmp(t)
  {
    const db = await Database.open({ path: dir })
    await db.query('create table t (x int, ts timestamp) timestamp(ts) partition by day wal')
    await db.query("insert into t values (1, '2024-01-01'), (2, '2024-01-02')")
    await db.query('create view big as (select x from t where x > 1)')
    await db.query('create view bigger as (select x * 10 as y from big)')
    await db.query('create view gone as (select 1 as one from t)')
    await db.query('drop view gone')
    await db.close()
  }
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query('select view_name, view_sql, view_table_dir_name, view_status from views() order by view_name')).rows, [
    ['big', 'select x from t where x > 1', 'big~2', 'valid'],
    ['bigger', 'select x * 10 as y from big', 'bigger~3', 'valid'],
  ])
  t.same((await db.query('select y from bigger')).rows, [[20]])
  // ids are not reused after a restart: a new table comes after the views
  await db.query('create table u (x int)')
  t.same((await db.query("select id from tables() where table_name = 'u'")).rows, [[5]])
  await t.rejects(db.query('create table big (x int)'), { code: '42P07' })
})

t.test('a 10,000-deep chain of views is refused with a clear error, not a stack overflow', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table t (x int)')
  await db.query('create view v0 as (select x from t)')
  let failedAt = -1
  let error: unknown
  for (let i = 1; i < 10_000; i++) {
    try { await db.query(`create view v${i} as (select x from v${i - 1})`) } catch (e) { failedAt = i; error = e; break }
  }
  t.ok(failedAt > 1 && failedAt < 10_000, `refused at depth ${failedAt}`)
  t.ok(error instanceof SqlError)
  t.equal((error as SqlError).code, '54001')
  t.match((error as SqlError).message, /views nested too deeply/)
  // the views below the limit still answer
  t.same((await db.query(`select count() from v${failedAt - 1}`)).rows, [[0]])
})

/** Runs the child from step `from`, kills it `delayMs` after its `afterAcks`-th ack; returns the last step acknowledged. */
function runChild(dir: string, from: number, afterAcks: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeScript(CHILD), dir, String(from)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let buf = ''
    let err = ''
    let acks = 0
    let last = from - 1
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString()
      let nl
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl)
        buf = buf.slice(nl + 1)
        if (line.startsWith('ack ')) {
          last = Number(line.slice(4))
          if (++acks === afterAcks) setTimeout(() => child.kill('SIGKILL'), delayMs)
        }
      }
    })
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('exit', (_code, signal) => {
      clearTimeout(guard)
      if (signal === 'SIGKILL') resolve(last)
      else reject(new Error(`child ended without being killed: ${err}`))
    })
  })
}

t.test('SIGKILL during CREATE OR REPLACE / DROP VIEW keeps every acknowledged change', { timeout: 600_000 }, async (t) => {
  const dir = tmp(t)
  let from = 0
  for (let round = 0; round < 3; round++) {
    const last = await runChild(dir, from, 3 + round * 2, Math.floor(Math.random() * 20))
    const db = await Database.open({ path: dir })
    try {
      const views = new Map((await db.query('select view_name, view_status from views()')).rows.map((r) => [String(r[0]), String(r[1])]))
      for (const [name, status] of views) t.equal(status, 'valid', `round ${round}: ${name} is valid`)
      // each of v0..v2 holds its last acknowledged step, or the one after (in flight at the kill)
      for (let k = 0; k < 3; k++) {
        const want = [...Array(last + 1).keys()].filter((i) => i % 3 === k).pop()
        if (want === undefined) continue
        const sql = String((await db.query(`select view_sql from views() where view_name = 'v${k}'`)).rows[0]?.[0])
        t.ok(sql === `select ${want} as n from t` || sql === `select ${want + 3} as n from t`, `round ${round}: v${k} is step ${want} (or the one in flight): ${sql}`)
      }
      // an odd step drops and recreates d in two statements: after an acknowledged odd step (the
      // one in flight then is even) it exists
      if (last % 2 === 1) t.ok(views.has('d'), `round ${round}: d exists after step ${last}`)
      from = last + 1
      // and the next statements work on what the kill left
      await db.query(`create or replace view v${from % 3} as (select ${from} as n from t)`)
      from++
    } finally {
      await db.close()
    }
  }
})
