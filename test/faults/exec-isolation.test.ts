/**
 * No query monopolises the event loop: while one pgwire client runs an attack, another client's
 * `select 1` is answered within a generous bound, and pgwire CancelRequest (pg's
 * `client.cancel`) ends the attack with 57014 promptly.
 */
import t from 'tap'
import pg from 'pg'
import { ATTACKS, cancelRequest, failure, pgClient, sleep, startServers } from './exec-helpers.js'

const srv = await startServers()
t.teardown(() => srv.close())

/** pg's CancelRequest for the query running on `victim`. */
function cancel(victim: pg.Client): void {
  cancelRequest(srv.pgPort, victim)
}

for (const name of ['crossJoin', 'singleKeyJoin', 'window'] as const) {
  t.test(`${name}: another client is served while it runs; CancelRequest ends it with 57014`, { timeout: 60_000 }, async (t) => {
    const attacker = await pgClient(srv.pgPort)
    const other = await pgClient(srv.pgPort)
    t.teardown(async () => { await attacker.end().catch(() => {}); await other.end().catch(() => {}) })
    const running = failure(attacker.query(ATTACKS[name]))
    // the server runs in this process: a blocked event loop delays this timer too, so the
    // latency counts from when select 1 was due, not from when it was sent
    const due = Date.now() + 300
    await sleep(300)
    await other.query('select 1')
    const ms = Date.now() - due
    t.ok(ms < 2000, `select 1 answered ${ms} ms after it was due while ${name} runs`)
    const cancelledAt = Date.now()
    await cancel(attacker)
    const err = await running
    const after = Date.now() - cancelledAt
    t.equal(err?.code, '57014', `${name} ended by CancelRequest`)
    t.ok(after < 3000, `ended ${after} ms after the CancelRequest`)
    t.same((await attacker.query('select 2 x')).rows, [{ x: '2' }], 'the connection stays usable')
  })
}

t.test('regex bomb answers at once and freezes nobody', { timeout: 60_000 }, async (t) => {
  const attacker = await pgClient(srv.pgPort)
  const other = await pgClient(srv.pgPort)
  t.teardown(async () => { await attacker.end(); await other.end() })
  const running = attacker.query(ATTACKS.regexBomb)
  const due = Date.now() + 50
  await sleep(50)
  await other.query('select 1')
  const ms = Date.now() - due
  t.ok(ms < 2000, `select 1 answered ${ms} ms after it was due`)
  t.same(Object.values((await running).rows[0] as object), [false])
  const e = await failure(attacker.query("select 'aa' ~ '(a)\\1'"))
  t.equal(e?.code, '22023', 'a backreference is refused, not backtracked')
})
