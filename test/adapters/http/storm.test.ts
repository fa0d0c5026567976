import http from 'node:http'
import t from 'tap'
import { exec, get, raw, startServer } from './helpers.js'

t.test('a storm of malformed requests leaves the server answering and the data intact', async (t) => {
  const srv = await startServer({ maxQueryLength: 4096 })
  t.teardown(() => srv.close())
  await srv.db.query('create table t (ts timestamp, sym symbol, v double) timestamp(ts) partition by day')
  await srv.db.query("insert into t select cast(x * 1000000 as timestamp), 's' || (x % 5), x * 1.5 from long_sequence(1000)")
  const before = (await exec(srv.port, 'select count(), sum(v) from t')).body

  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 })
  t.teardown(() => agent.destroy())
  const send = (path: string, method = 'GET', headers: Record<string, string> = {}, body?: string): Promise<number> =>
    new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: srv.port, path, method, headers, agent }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', () => resolve(-1))
      req.end(body)
    })
  const bad: (() => Promise<number>)[] = [
    () => send('/exec?query=selec+*+from+t'),
    () => send('/exec?query=select%ZZ'),
    () => send('/exec?query=select%C3%28'),
    () => send('/exec?query=insert+into+t+values(%27x%27,1,2)'),
    () => send('/exec?query=drop+table+nope'),
    () => send('/exec?query=select+1&bogus=1'),
    () => send('/exec'),
    () => send('/exec?query=' + 'x'.repeat(5000)),
    () => send('/exec?query=select+1', 'POST'),
    () => send('/exec?query=select+1', 'GET', { 'Content-Length': '3' }, 'abc'),
    () => send('/exp?query=update+t+set+v=0'),
    () => send('/exp?query=t&limit=a,b&delimiter=ab'),
    () => send('/exec?query=t&cols=nope'),
    () => send('/imp?name=t', 'POST', { 'Content-Type': 'multipart/form-data; boundary=zz' }, '--zz\r\nbroken'),
    () => send('/imp?name=t', 'POST', { 'Content-Type': 'text/plain' }, 'a,b\n1,2'),
    () => send('/exec?query=select+*+from+t+where+v+%3D+%27abc%27'),
    () => send('/exec?query=select+1;+drop+table+t'),
    () => send('/api/v1/sql/validate?query=drop'),
    () => send('/chk?j=%FF%FE'),
  ]
  const statuses = new Map<number, number>()
  const N = 3000
  for (let i = 0; i < N; i += 64) {
    const batch = []
    for (let k = i; k < Math.min(N, i + 64); k++) batch.push(bad[k % bad.length]!())
    for (const s of await Promise.all(batch)) statuses.set(s, (statuses.get(s) ?? 0) + 1)
  }
  for (let i = 0; i < 40; i++) await raw(srv.port, i % 2 === 0 ? 'GARBAGE\r\n\r\n' : 'GET /exec?query=select+1 HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n', 500)
  t.notOk(statuses.has(-1), 'every request got an answer')
  t.notOk(statuses.has(500), 'no internal errors')
  t.notOk(statuses.has(200) && statuses.get(200)! > Math.ceil(N / bad.length) * 2, 'malformed requests were refused')
  t.equal((await exec(srv.port, 'select count(), sum(v) from t')).body, before, 'data intact')
  t.equal((await get(srv.port, '/chk?j=t')).body, 'Exists\r\n')
})
