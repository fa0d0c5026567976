import t from 'tap'
import { nanoClockOf, wallClockMicros, wallClockNanos } from '../../../lib/exec/wall-clock.js'
import { Database } from '../../../lib/index.js'

t.test('the default clock reads the wall time below the millisecond', async (t) => {
  const reads: bigint[] = []
  for (let i = 0; i < 20; i++) reads.push(wallClockNanos())
  const wall = BigInt(Date.now()) * 1_000_000n
  t.ok(reads.every((r) => r - wall < 1_000_000_000n && wall - r < 1_000_000_000n), 'within a second of Date.now()')
  for (let i = 1; i < reads.length; i++) t.ok(reads[i]! >= reads[i - 1]!, 'never goes back')
  t.ok(reads.some((r) => r % 1_000_000n !== 0n), 'not whole milliseconds')
  t.ok(reads.some((r) => r % 1000n !== 0n), 'not whole microseconds')
  const us = wallClockMicros()
  t.equal(us, Math.trunc(us), 'microseconds are whole')
})

t.test('an injected microsecond clock gives deterministic nanoseconds', async (t) => {
  t.equal(nanoClockOf(() => 1_700_000_000_000_000)(), 1_700_000_000_000_000_000n)
  t.equal(nanoClockOf(() => 1000.5)(), 1_000_500n)
})

t.test('now_ns() has sub-microsecond digits and agrees with now()', async (t) => {
  const db = await Database.open()
  try {
    const seen: bigint[] = []
    for (let i = 0; i < 10; i++) {
      const r = await db.query('SELECT now_ns() n, now() u, systimestamp_ns() s')
      const row = r.rows[0] as unknown[]
      const n = BigInt(row[0] as bigint), u = BigInt(row[1] as number | bigint), s = BigInt(row[2] as bigint)
      t.ok(n - u * 1000n >= 0n && n - u * 1000n < 1000n, 'now() is now_ns() floored to the microsecond')
      t.ok(s >= n, 'systimestamp_ns() is read after the start')
      seen.push(n)
    }
    t.ok(seen.some((n) => n % 1000n !== 0n), 'now_ns() is not whole microseconds')
  } finally {
    await db.close()
  }
})

t.test('an injected clock keeps now_ns() deterministic', async (t) => {
  const db = await Database.open({ clock: () => 1_704_067_200_000_001 })
  try {
    const r = await db.query("SELECT now_ns()::string s")
    t.same(r.rows, [['2024-01-01T00:00:00.000001000Z']])
  } finally {
    await db.close()
  }
})
