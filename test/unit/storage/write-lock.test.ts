import t from 'tap'
import { WriteLock } from '../../../lib/storage/write-lock.js'

const tick = (): Promise<void> => new Promise((r) => setImmediate(r))

t.test('writers share; an exclusive holder waits for them and goes before later writers', async (t) => {
  const lock = new WriteLock()
  const order: string[] = []
  const w1 = lock.tryShare()!
  const w2 = await lock.share()
  const ex = lock.exclusive().then((release) => { order.push('exclusive'); return release })
  t.equal(lock.tryShare(), undefined, 'a writer after a waiting exclusive holder waits')
  const w3 = lock.share().then((release) => { order.push('w3'); return release })
  await tick()
  t.same(order, [])
  w1(); w2()
  const release = await ex
  await tick()
  t.same(order, ['exclusive'])
  t.ok(lock.heldAlone)
  release()
  ;(await w3)()
  t.same(order, ['exclusive', 'w3'])
  t.ok(lock.idle)
})

t.test('exclusive holders queue in order; release twice is harmless', async (t) => {
  const lock = new WriteLock()
  const a = await lock.exclusive()
  let b = false
  const pb = lock.exclusive().then((r) => { b = true; return r })
  await tick()
  t.notOk(b)
  a(); a()
  ;(await pb)()
  t.ok(b)
  t.ok(lock.idle)
})
