/**
 * Steps yielding `later` syncs (steps.ts): in the background their syncs overlap on the thread
 * pool while the next steps run, a drain waits for all of them (and throws a failed one into the
 * steps there), and finishing at once makes the pending ones durable, blocking. Run at once, each
 * is a blocking sync. The runner closes their descriptors.
 */
import t from 'tap'
import { openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { type Steps, background, runSteps } from '../../../../lib/storage/durable/steps.js'
import { io } from '../../../../lib/storage/durable/io.js'
import { tmpDir } from '../helpers.js'

/** Opens `n` files with a byte each; the steps yield each `later`, then a drain, and record what they see. */
function* writer(dir: string, n: number, log: string[]): Steps<void> {
  for (let i = 0; i < n; i++) {
    const fd = openSync(join(dir, `f${i}`), 'w')
    writeSync(fd, 'x')
    log.push(`wrote ${i}`)
    yield { fsync: fd, later: true }
  }
  try {
    yield { drain: true }
    log.push('drained')
  } catch (e) {
    log.push(`failed ${(e as Error).message}`)
  }
}

/** io.fsync made slow (each resolves after `ms`), counting the most in flight at once. */
function slowFsync(ms: number): { restore: () => void; maxInFlight: () => number; synced: number[]; fail: Set<number> } {
  const real = io.fsync
  let inFlight = 0
  let max = 0
  const synced: number[] = []
  const fail = new Set<number>()
  io.fsync = async (fd) => {
    inFlight++
    max = Math.max(max, inFlight)
    await new Promise((r) => setTimeout(r, ms))
    inFlight--
    if (fail.has(fd)) throw Object.assign(new Error(`EIO on ${fd}`), { code: 'EIO' })
    await real(fd)
    synced.push(fd)
  }
  return { restore: () => { io.fsync = real }, maxInFlight: () => max, synced, fail }
}

/** Closed descriptors, via io.closeLater and io.closeSync. */
function countCloses(): { restore: () => void; closed: number[] } {
  const { closeLater, closeSync } = io
  const closed: number[] = []
  io.closeLater = (fd) => { closed.push(fd); return closeLater(fd) }
  io.closeSync = (fd) => { closed.push(fd); closeSync(fd) }
  return { restore: () => { io.closeLater = closeLater; io.closeSync = closeSync }, closed }
}

t.test('in the background, later syncs overlap and a drain waits for all of them', async (t) => {
  const dir = tmpDir(t)
  const log: string[] = []
  const slow = slowFsync(50)
  const closes = countCloses()
  try {
    await new Promise<void>((resolve, reject) => background(writer(dir, 6, log), (run) => run(), (e) => (e === undefined ? resolve() : reject(e))))
    await new Promise((r) => setTimeout(r, 20))
  } finally {
    slow.restore()
    closes.restore()
  }
  t.same(log, ['wrote 0', 'wrote 1', 'wrote 2', 'wrote 3', 'wrote 4', 'wrote 5', 'drained'])
  t.ok(slow.maxInFlight() > 1, `syncs overlapped (${slow.maxInFlight()} at once)`)
  t.equal(slow.synced.length, 6, 'every file synced before the drain passed')
  t.equal(closes.closed.length, 6, 'the runner closed every descriptor')
})

t.test('a failed later sync is thrown into the steps at the drain', async (t) => {
  const dir = tmpDir(t)
  const log: string[] = []
  const slow = slowFsync(10)
  try {
    const steps = writer(dir, 3, log)
    // the second file's descriptor fails its sync
    const first = steps.next()
    const fd0 = (first.value as { fsync: number }).fsync
    slow.fail.add(fd0)
    await new Promise<void>((resolve, reject) => background((function* () { yield first.value; yield* steps })(), (run) => run(), (e) => (e === undefined ? resolve() : reject(e))))
  } finally {
    slow.restore()
  }
  t.match(log[log.length - 1], /^failed EIO on \d+$/)
})

t.test('finishing at once makes pending later syncs durable, blocking; runSteps syncs each at once', async (t) => {
  const dir = tmpDir(t)
  const log: string[] = []
  const slow = slowFsync(1_000)
  const fsyncSync = io.fsyncSync
  let blocking = 0
  io.fsyncSync = (fd) => { blocking++; fsyncSync(fd) }
  try {
    const job = background(writer(dir, 4, log), (run) => run(), () => undefined)
    // a turn: the first step ran and started its sync off the thread, then more steps
    await new Promise((r) => setImmediate(r))
    await new Promise((r) => setImmediate(r))
    const before = log.length
    job.finish()
    t.ok(before < 5, 'the drain had not passed before the finish')
    t.equal(log[log.length - 1], 'drained')
    t.ok(blocking >= 1, `the pending syncs were done blocking (${blocking})`)
    blocking = 0
    const log2: string[] = []
    runSteps(writer(dir, 3, log2))
    t.equal(blocking, 3)
    t.equal(log2[log2.length - 1], 'drained')
  } finally {
    slow.restore()
    io.fsyncSync = fsyncSync
  }
})
