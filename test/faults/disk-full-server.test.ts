/**
 * A really full disk, end to end: the standalone server on a 16 MB tmpfs. Rows acknowledged in
 * the WAL, the server killed, the disk filled to the last byte: the server starts anyway, serves
 * reads, answers writes with 507 / 53100, exits 0 on SIGTERM without a stack trace, and once
 * space is freed writes work again. Skipped where mounting a tmpfs is not permitted.
 */
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/** A write bigger than the slack left in the WAL's last page (a full disk still takes a few bytes there). */
const WRITE = 'insert into t select (x * 1000)::timestamp, x from long_sequence(1000)'
import { exec, startServer, type ServerProcess } from './server-process.js'

function mountTmpfs(): string | undefined {
  const mnt = mkdtempSync(join(tmpdir(), 'epochdb-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mnt], { stdio: 'ignore' })
    return mnt
  } catch {
    rmdirSync(mnt)
    return undefined
  }
}

/** Fills the file system of `dir` to the last byte with `dir/filler`. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w')
  try {
    for (let chunk = 1 << 20; chunk >= 512; chunk >>= 1) {
      const buf = Buffer.alloc(chunk, 1)
      try { for (;;) writeSync(fd, buf) } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e }
    }
  } finally { closeSync(fd) }
}

const mnt = mountTmpfs()

t.test('the server on a full disk: starts, reads, 507 on writes, clean SIGTERM, writes after space is freed', { skip: mnt === undefined && 'mounting a tmpfs is not permitted here', timeout: 120_000 }, async (t) => {
  t.teardown(() => {
    try { execFileSync('umount', ['-l', mnt!], { stdio: 'ignore' }) } catch { /* already */ }
    rmSync(mnt!, { recursive: true, force: true })
  })
  const dir = join(mnt!, 'db')
  mkdirSync(dir)
  const servers: ServerProcess[] = []
  t.teardown(() => { for (const s of servers) s.proc.kill('SIGKILL') })
  const start = async (): Promise<ServerProcess> => { const s = await startServer(dir); servers.push(s); return s }
  const stop = async (s: ServerProcess): Promise<void> => {
    s.proc.kill('SIGTERM')
    t.equal(await s.exited, 0, 'SIGTERM exits 0')
    t.notMatch(s.err(), /\n\s+at /, 'no stack trace')
  }

  let s = await start()
  t.equal((await exec(s.url, 'create table t (ts timestamp, v long) timestamp(ts) partition by day')).status, 200)
  // ~2 MB of acknowledged rows in the WAL, then a crash: the next start must replay them
  t.equal((await exec(s.url, 'insert into t select (x * 1000000)::timestamp, x from long_sequence(120000)')).status, 200)
  s.proc.kill('SIGKILL')
  await s.exited
  fill(mnt!)

  s = await start()
  t.pass('the server starts on a full disk')
  t.same((await exec(s.url, 'select count(), sum(v) from t')).body.dataset, [[120000, 7200060000]], 'reads see every acknowledged row')
  const w = await exec(s.url, WRITE)
  t.equal(w.status, 507, 'a write over REST: 507 Insufficient Storage')
  t.match(w.body, { error: /disk is full \[ENOSPC\]/ })
  const client = new pg.Client({ host: '127.0.0.1', port: s.pgPort, user: 'admin', password: 'quest', database: 'qdb' })
  client.on('error', () => {})
  await client.connect()
  t.match(await client.query(WRITE).catch((e: unknown) => e), { code: '53100' }, 'over pgwire: 53100')
  await client.end()
  await stop(s)

  s = await start()
  t.equal((await exec(s.url, WRITE)).status, 507, 'still full after a restart')
  rmSync(join(mnt!, 'filler'))
  t.equal((await exec(s.url, WRITE)).status, 200, 'space freed: writes work again')
  await stop(s)

  s = await start()
  t.same((await exec(s.url, 'select count() from t')).body.dataset, [[121000]], 'everything is there after a clean restart')
  await stop(s)
})
