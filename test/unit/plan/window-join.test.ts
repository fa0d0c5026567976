/**
 * WINDOW JOIN and HORIZON JOIN: error positions as QuestDB's tests give them, answers on random
 * data (duplicate timestamps, keys missing on either side) against a plain JavaScript oracle,
 * nanosecond timestamps, and the memory limit.
 */
import t from 'tap'
import { Database, SqlError } from '../../../lib/index.js'

async function errorOf(db: Database, sql: string): Promise<SqlError> {
  try { await db.query(sql) } catch (e) { if (e instanceof SqlError) return e; throw e }
  throw new Error(`no error: ${sql}`)
}

t.test('error positions are QuestDB\'s (WindowJoinTest, HorizonJoinTest)', async (t) => {
  const db = await Database.open()
  await db.query('create table trades (sym symbol, price double, ts timestamp) timestamp(ts) partition by day')
  await db.query('create table prices (sym symbol, price double, ts timestamp) timestamp(ts) partition by day')
  await db.query('create table other (ts timestamp, sym symbol) timestamp(ts)')
  const cases: [string, number, string][] = [
    ['select t.*, sum(p.price) as window_price from trades t window join prices p on (t.sym = p.sym)  range between 2 minute preceding and 4 minute preceding;', 133, 'WINDOW join hi value cannot be less than lo value'],
    ['select t.*, sum(p.price) as window_price from trades t window join prices p on t.sym = p.sym  range between unbounded preceding and 1 day following;', 118, 'unbounded preceding/following is not supported in WINDOW joins'],
    ['select t.*, sum(p.price) as window_price from trades t window join prices p on t.sym = p.sym  range between 1 second preceding and unbounded following;', 141, 'unbounded preceding/following is not supported in WINDOW joins'],
    ['select t.*, p.price from trades t window join prices p on (t.sym = p.sym)  range between 1 second preceding and 1 second following;', 12, 'WINDOW join cannot reference right table non-aggregate column: p.price'],
    ["select t.*, sum(p.price) as window_price from (trades limit 5) t window join (select * from prices where ts in '2023-01-01T09:03:00.000000Z') p on (t.sym = p.sym)  range between 1 minute preceding and 1 minute following order by t.ts, t.sym;", 65, 'right side of window join must be a table, not sub-query'],
    ['select t.ts, t.sym,  sum(p1.price + p.price) as window_price2 from trades t window join prices p on (t.sym = p.sym)  range between 1 minute preceding and 1 minute following window join prices p1 on (t.sym = p1.sym)  range between 2 minute preceding and 2 minute following order by t.ts, t.sym;', 21, 'WINDOW join aggregate function cannot reference columns from multiple models'],
    ['select t.ts, t.sym,  sum(p1.price), p.price as window_price2 from trades t window join prices p on (t.sym = p.sym)  range between 1 minute preceding and 1 minute following window join prices p1 on (t.sym = p1.sym)  range between 2 minute preceding and 2 minute following order by t.ts, t.sym;', 36, 'WINDOW join cannot reference right table non-aggregate column: p.price'],
    ['select t.*, sum(p.price) sum_price from trades t window join prices p on t.price-p.price  range between 1 second preceding and 1 second following;', 80, 'boolean expression expected'],
    ['SELECT h.offset, avg(p.price) FROM trades AS t JOIN other AS o ON (t.sym = o.sym) HORIZON JOIN prices AS p ON (t.sym = p.sym) RANGE FROM -10s TO 10s STEP 1s AS h', 82, 'horizon join cannot be combined with other joins'],
    ['SELECT h.offset, avg(p.price) FROM trades AS t HORIZON JOIN prices AS p ON (t.sym = p.sym) RANGE FROM -10s TO 10s STEP 1s AS h JOIN other AS o ON (t.sym = o.sym)', 127, 'horizon join cannot be combined with other joins'],
    ['SELECT h.offset, avg(p.price) FROM trades AS t HORIZON JOIN prices AS p ON (t.sym = p.sym) LIST () AS h', 97, 'at least one offset expression expected'],
    ['SELECT avg(p.price) FROM trades AS t HORIZON JOIN prices AS p ON (t.sym = p.sym) RANGE FROM 0s TO 0s STEP 1s AS h WHERE h.offset > 0', 129, 'HORIZON JOIN WHERE clause can only reference master table columns'],
    ['SELECT avg(p.price) FROM trades AS t HORIZON JOIN prices AS p ON (t.sym = p.sym) RANGE FROM 0s TO 0s STEP 1s AS h WHERE t.qty + p.price > 10', 136, 'HORIZON JOIN WHERE clause can only reference master table columns'],
    ['SELECT avg(p.price) FROM trades AS t HORIZON JOIN prices AS p ON (t.sym = p.sym) RANGE FROM 0s TO 0s STEP 1s AS h WHERE p.price > 10', 128, 'HORIZON JOIN WHERE clause can only reference master table columns'],
  ]
  for (const [sql, pos, message] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.message, message, sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  await db.close()
})

/** A small deterministic generator (tests must not depend on Math.random's sequence). */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32 }
}

interface Row { ts: number; sym: string | null; v: number | null }

function rows(next: () => number, n: number, syms: readonly (string | null)[]): Row[] {
  const out: Row[] = []
  let ts = 1_700_000_000_000_000
  for (let i = 0; i < n; i++) {
    // duplicate timestamps on purpose (0 µs steps), and gaps of up to 3 s
    ts += Math.floor(next() * 4) * 1_000_000 * (next() < 0.3 ? 0 : 1)
    out.push({ ts, sym: syms[Math.floor(next() * syms.length)]!, v: next() < 0.1 ? null : Math.floor(next() * 100) })
  }
  return out
}

async function load(db: Database, name: string, data: readonly Row[]): Promise<void> {
  await db.query(`create table ${name} (ts timestamp, sym symbol, v long) timestamp(ts) partition by hour`)
  const lit = (r: Row) => `(${r.ts}::timestamp, ${r.sym === null ? 'null' : `'${r.sym}'`}, ${r.v === null ? 'null' : r.v})`
  for (let i = 0; i < data.length; i += 500) await db.query(`insert into ${name} values ${data.slice(i, i + 500).map(lit).join(',')}`)
}

t.test('WINDOW JOIN equals a brute-force oracle on random data', async (t) => {
  const next = rng(17)
  const left = rows(next, 400, ['a', 'b', 'c', null])
  const right = rows(next, 900, ['a', 'b', 'd', null])
  const db = await Database.open()
  await load(db, 'l', left)
  await load(db, 'r', right)
  const windows: [string, number, number][] = [
    ['2 seconds preceding and 2 seconds following', -2e6, 2e6],
    ['5 seconds preceding and 1 second preceding', -5e6, -1e6],
    ['0 seconds preceding and 0 seconds following', 0, 0],
    ['1 second following and 4 seconds following', 1e6, 4e6],
  ]
  for (const keyed of [true, false]) {
    for (const [range, lo, hi] of windows) {
      for (const prevailing of ['include', 'exclude'] as const) {
        const sql = `select l.ts, l.sym, l.v, count() c, count(r.v) cv, sum(r.v) s, min(r.v) mn, max(r.v) mx, first(r.v) f, last(r.v) la, sum(l.v) sl
          from l window join r ${keyed ? 'on (l.sym = r.sym)' : ''} range between ${range} ${prevailing} prevailing`
        const got = (await db.query(sql)).rows
        const expected = left.map((lr) => {
          const cand = right.filter((rr) => !keyed || (rr.sym === lr.sym && lr.sym !== null) || (keyed && rr.sym === null && lr.sym === null))
          const inWin = cand.filter((rr) => rr.ts >= lr.ts + lo && rr.ts <= lr.ts + hi)
          if (prevailing === 'include' && !inWin.some((rr) => rr.ts === lr.ts + lo)) {
            const before = cand.filter((rr) => rr.ts < lr.ts + lo)
            if (before.length > 0) inWin.unshift(before[before.length - 1]!)
          }
          const vs = inWin.map((rr) => rr.v).filter((v): v is number => v !== null)
          const big = (x: number | null | undefined) => (x === null || x === undefined ? null : BigInt(x))
          return [
            BigInt(lr.ts), lr.sym, big(lr.v), BigInt(inWin.length), BigInt(vs.length),
            vs.length === 0 ? null : big(vs.reduce((a, b) => a + b, 0)), vs.length === 0 ? null : big(Math.min(...vs)), vs.length === 0 ? null : big(Math.max(...vs)),
            big(inWin[0]?.v), big(inWin[inWin.length - 1]?.v),
            lr.v === null || inWin.length === 0 ? null : big(lr.v * inWin.length),
          ]
        })
        t.same(got, expected, `${keyed ? 'keyed' : 'no keys'}, ${range}, ${prevailing} prevailing`)
      }
    }
  }
  await db.close()
})

t.test('HORIZON JOIN equals a brute-force ASOF oracle on random data', async (t) => {
  const next = rng(5)
  const left = rows(next, 300, ['a', 'b', 'c'])
  const right = rows(next, 700, ['a', 'b', 'd'])
  const db = await Database.open()
  await load(db, 'l', left)
  await load(db, 'r', right)
  const offsets = [-3e6, -1e6, 0, 2e6, 7e6]
  for (const keyed of [true, false]) {
    const sql = `select h.offset, l.sym, count() c, count(r.v) cv, sum(r.v) s from l horizon join r ${keyed ? 'on (sym)' : ''}
      list (-3s, -1s, 0, 2s, 7s) as h order by h.offset, l.sym`
    const got = (await db.query(sql)).rows
    const groups = new Map<string, { off: number; sym: string | null; c: number; vs: number[] }>()
    for (const off of offsets) {
      for (const lr of left) {
        const target = lr.ts + off
        let match: Row | undefined
        for (const rr of right) if (rr.ts <= target && (!keyed || rr.sym === lr.sym)) match = rr
        const k = `${off}|${lr.sym}`
        let g = groups.get(k)
        if (g === undefined) groups.set(k, g = { off, sym: lr.sym, c: 0, vs: [] })
        g.c++
        if (match !== undefined && match.v !== null) g.vs.push(match.v)
      }
    }
    const expected = [...groups.values()]
      .sort((a, b) => a.off - b.off || String(a.sym).localeCompare(String(b.sym)))
      .map((g) => [BigInt(g.off), g.sym, BigInt(g.c), BigInt(g.vs.length), g.vs.length === 0 ? null : BigInt(g.vs.reduce((a, b) => a + b, 0))])
    t.same(got, expected, keyed ? 'keyed' : 'no keys')
  }
  await db.close()
})

t.test('nanosecond timestamps: windows and offsets to the nanosecond', async (t) => {
  const db = await Database.open()
  await db.query('create table l (ts timestamp_ns, k int) timestamp(ts)')
  await db.query('create table r (ts timestamp_ns, v int) timestamp(ts)')
  await db.query("insert into l values ('2024-01-01T00:00:00.000001000Z', 1)")
  await db.query(`insert into r values ('2024-01-01T00:00:00.000000500Z', 1), ('2024-01-01T00:00:00.000000999Z', 2),
    ('2024-01-01T00:00:00.000001000Z', 4), ('2024-01-01T00:00:00.000001500Z', 8), ('2024-01-01T00:00:00.000001501Z', 16)`)
  const w = await db.query('select sum(r.v) s from l window join r range between 500 nanoseconds preceding and 500 nanoseconds following exclude prevailing')
  t.same(w.rows, [[15n]], '[500 ns, 1500 ns] holds 1 + 2 + 4 + 8')
  const p = await db.query('select sum(r.v) s from l window join r range between 1 nanosecond preceding and 0 nanoseconds following')
  t.same(p.rows, [[6n]], 'a row at the window start (999 ns): no other prevailing row')
  const h = await db.query('select h.offset, r.v from l horizon join r list (-1n, 0, 500n, 501n) as h order by 1')
  t.same(h.rows, [[-1n, 2], [0n, 4], [500n, 8], [501n, 16]], 'h.offset is in nanoseconds for a TIMESTAMP_NS left side')
  await db.close()
})

t.test('a right side past the query memory limit is a clear 53200, and the database keeps answering', async (t) => {
  const db = await Database.open({ queryMemoryLimit: 4 * 1024 * 1024 })
  await db.query('create table l as (select timestamp_sequence(0, 1000000) ts, x from long_sequence(10)) timestamp(ts)')
  await db.query('create table r (ts timestamp, s string, x long) timestamp(ts)')
  // in small inserts: one statement holding them all would pass the limit itself
  for (let i = 0; i < 20; i++) await db.query(`insert into r select timestamp_sequence(${i * 5000}, 1), rnd_str(100, 100, 0), x from long_sequence(5000)`)
  const e = await errorOf(db, 'select l.x, count(r.s) from l window join r range between 1 second preceding and 1 second following')
  t.equal(e.code, '53200')
  t.match(e.message, /WINDOW JOIN/)
  const e2 = await errorOf(db, 'select h.offset, count(r.s) from l horizon join r list (0) as h')
  t.equal(e2.code, '53200')
  t.match(e2.message, /HORIZON JOIN/)
  t.same((await db.query('select count() from l')).rows, [[10n]])
  await db.close()
})

t.test('the right side is read for the columns the join uses only', async (t) => {
  const db = await Database.open()
  await db.query('create table l (ts timestamp, k symbol, a double) timestamp(ts)')
  await db.query('create table r (ts timestamp, k symbol, v double, w string, z long) timestamp(ts)')
  const plan = async (sql: string) => (await db.query(`explain ${sql}`)).rows.map((r) => String(r[0])).join('\n')
  t.match(await plan('select l.k, sum(r.v) from l window join r on (k) range between 1 second preceding and 1 second following'), /Frame forward scan on: r\n\s+columns: ts,k,v/)
  t.match(await plan('select count() from l window join r range between 1 second preceding and 1 second following'), /Frame forward scan on: r\n\s+columns: ts\b/)
  t.match(await plan('select h.offset, avg(r.v) from l horizon join r on (k) list (0, 1s) as h'), /Frame forward scan on: r\n\s+columns: ts,k,v/)
  t.match(await plan('select h.offset, max(r.z) from l horizon join r list (0) as h'), /Frame forward scan on: r\n\s+columns: ts,z/)
  await db.close()
})

t.test('a left interval narrows the right scan (rule window-join-intervals) without changing answers', async (t) => {
  const next = rng(99)
  const left = rows(next, 300, ['a', 'b'])
  const right = rows(next, 900, ['a', 'b'])
  const db = await Database.open()
  await load(db, 'l', left)
  await load(db, 'r', right)
  const from = left[100]!.ts
  const to = left[200]!.ts
  const where = `where l.ts between ${from}::timestamp and ${to}::timestamp`
  const picked = left.filter((lr) => lr.ts >= from && lr.ts <= to)
  for (const prevailing of ['include', 'exclude'] as const) {
    const sql = `select l.ts, count() c, sum(r.v) s from l window join r on (sym) range between 3 seconds preceding and 2 seconds following ${prevailing} prevailing ${where}`
    const plan = (await db.query(`explain ${sql}`)).rows.map((r) => String(r[0])).join('\n')
    t.match(plan, /Frame forward scan on: r\n\s+intervals: \[\("(MIN|[0-9T:.Z-]+)","[0-9T:.Z-]+"\)\]/, `${prevailing}: the right scan has an interval`)
    t.equal(plan.includes('"MIN"'), prevailing === 'include', `${prevailing}: open start only with the prevailing row`)
    const expected = picked.map((lr) => {
      const cand = right.filter((rr) => rr.sym === lr.sym)
      const inWin = cand.filter((rr) => rr.ts >= lr.ts - 3e6 && rr.ts <= lr.ts + 2e6)
      if (prevailing === 'include' && !inWin.some((rr) => rr.ts === lr.ts - 3e6)) {
        const before = cand.filter((rr) => rr.ts < lr.ts - 3e6)
        if (before.length > 0) inWin.unshift(before[before.length - 1]!)
      }
      const vs = inWin.map((rr) => rr.v).filter((v): v is number => v !== null)
      return [BigInt(lr.ts), BigInt(inWin.length), vs.length === 0 ? null : BigInt(vs.reduce((a, b) => a + b, 0))]
    })
    t.same((await db.query(sql.replace('on (k)', 'on (sym)'))).rows, expected, `${prevailing} prevailing`)
  }
  await db.close()
})
