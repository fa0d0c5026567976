/**
 * Restart right after `kill -9` of the standalone server, ten times, while the killed server is
 * still an unreaped zombie (its parent, like a supervisor that has not called wait() yet, never
 * reaps it): every restart opens the data directory at once and finds every acknowledged row.
 */
import t from 'tap'
import { exec, killGroup, startServer, type ServerProcess } from './server-process.js'
import { procStat } from '../../lib/storage/durable/lock.js'
import { tmpDir } from '../unit/storage/helpers.js'

const CYCLES = 10

t.test('restart right after SIGKILL succeeds every time', { timeout: 240_000 }, async (t) => {
  const dir = tmpDir(t, 'epochdb-restart-')
  const all: ServerProcess[] = []
  const start = async (): Promise<ServerProcess> => { const s = await startServer(dir, {}, { unreaped: true }); all.push(s); return s }
  t.teardown(() => { for (const s of all) killGroup(s, 'SIGKILL') })
  let server = await start()
  t.equal((await exec(server.url, 'create table r (ts timestamp, n long) timestamp(ts) partition by day')).status, 200)
  let ok = 0
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    t.equal((await exec(server.url, `insert into r values (${cycle}::timestamp, ${cycle})`)).status, 200)
    const pid = server.pid()
    process.kill(pid, 'SIGKILL')
    for (let i = 0; i < 100 && procStat(pid)?.state !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10))
    if (procStat('self') !== undefined) t.equal(procStat(pid)?.state, 'Z', `cycle ${cycle}: the killed server is an unreaped zombie`)
    const t0 = Date.now()
    try {
      server = await start()
    } catch (e) {
      t.fail(`cycle ${cycle}: restart failed: ${(e as Error).message}`)
      break
    }
    const r = await exec(server.url, 'select count(), sum(n) from r')
    t.same(r.body.dataset, [[cycle, (cycle * (cycle + 1)) / 2]], `cycle ${cycle}: restarted in ${Date.now() - t0} ms with every acknowledged row`)
    ok++
  }
  t.equal(ok, CYCLES, `${ok}/${CYCLES} restarts succeeded`)
  process.kill(server.pid(), 'SIGTERM')
  for (let i = 0; i < 200 && procStat(server.pid())?.state !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20))
  t.equal(procStat(server.pid())?.state, 'Z', 'SIGTERM ends the last one')
})
