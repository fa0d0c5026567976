/**
 * The typed join table's build gives the event loop turns (lib/exec/keys/join-table.ts `fill`):
 * a build side of millions of rows is hashed a chunk at a time with a yield check between chunks,
 * so another statement is served meanwhile. Turns are counted (a ticker on setImmediate), never
 * timed: the yield point here yields at every check. The table built in chunks answers as one
 * built in one go (rows of a key in build order, nulls left out or kept).
 */
import t from 'tap'
import { FILL_CHUNK_ROWS, type YieldPoint, buildTypedJoinTable } from '../../../../lib/exec/keys/join-table.js'
import { INT_NULL, LONG_NULL } from '../../../../lib/types/column-type.js'
import type { Vector } from '../../../../lib/types/vector.js'
import { Database } from '../../../../lib/index.js'

const turn = (): Promise<void> => new Promise((r) => setImmediate(r))
/** a yield point that yields at every check, counting the checks */
function everyCheck(): YieldPoint & { checks: number } {
  const p = { checks: 0, yieldIfDue: () => { p.checks++; return turn() } }
  return p
}

const rows = FILL_CHUNK_ROWS * 6 + 17
const keys64 = Float64Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? LONG_NULL : i % 1000))
const keys32 = Int32Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? INT_NULL : i % 1000))
const long: Vector = { kind: 'i64', type: 'LONG', length: rows, data: keys64 } as Vector
const int: Vector = { kind: 'i32', type: 'INT', length: rows, data: keys32 } as Vector

/** The build rows of probe key `k` (the table's chain), for a probe vector holding just `k`. */
function rowsOf(table: NonNullable<ReturnType<typeof buildTypedJoinTable>>, probe: Vector): number[] {
  table.probe(probe)
  const out: number[] = []
  for (let j = table.first(0); j >= 0; j = table.next[j]!) out.push(j)
  return out
}

t.test('the build yields between chunks, and other callbacks run meanwhile', async (t) => {
  for (const [name, keys] of [['LONG', long], ['INT', int]] as const) {
    const table = buildTypedJoinTable(keys, false)!
    const point = everyCheck()
    let turns = 0
    let on = true
    const tick = (): void => { if (on) { turns++; setImmediate(tick) } }
    setImmediate(tick)
    await table.fill(point).finally(() => { on = false })
    const chunks = Math.ceil(rows / FILL_CHUNK_ROWS)
    t.equal(point.checks, chunks, `${name}: one yield check per ${FILL_CHUNK_ROWS} rows`)
    t.ok(turns >= chunks - 1, `${name}: the event loop turned ${turns} times during the build (${chunks} chunks)`)
    // the chunked table equals one built in one go
    const whole = buildTypedJoinTable(keys, false)!
    whole.insert(0, rows)
    for (const k of [0, 1, 500, 999, 1000]) {
      const probe = name === 'LONG' ? ({ kind: 'i64', type: 'LONG', length: 1, data: Float64Array.of(k) } as Vector) : ({ kind: 'i32', type: 'INT', length: 1, data: Int32Array.of(k) } as Vector)
      const a = rowsOf(table, probe), b = rowsOf(whole, probe)
      const want = k >= 1000 ? 0 : Math.floor((rows - 1 - k) / 1000) + 1 - countNullRows(k)
      t.same(a, b, `${name} key ${k}: same rows as the one-go build`)
      t.equal(a.length, want, `${name} key ${k}: ${want} rows`)
      t.ok(a.every((j, i) => i === 0 || a[i - 1]! < j), `${name} key ${k}: rows in build order`)
    }
  }
})

/** rows i ≡ k (mod 1000) that are null (i % 7 === 0) */
function countNullRows(k: number): number {
  let n = 0
  for (let i = k; i < rows; i += 1000) if (i % 7 === 0) n++
  return n
}

t.test('nulls kept when NULL = NULL, left out otherwise', async (t) => {
  const probe = { kind: 'i32', type: 'INT', length: 1, data: Int32Array.of(INT_NULL) } as Vector
  const kept = buildTypedJoinTable(int, true)!
  await kept.fill(everyCheck())
  t.equal(rowsOf(kept, probe).length, Math.ceil(rows / 7), 'every null row')
  const skipped = buildTypedJoinTable(int, false)!
  await skipped.fill(everyCheck())
  t.equal(rowsOf(skipped, probe).length, 0, 'no null row')
})

t.test('a statement is served while another builds a big join table', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const n = FILL_CHUNK_ROWS * 4
  // the small query is answered before the join, which yields in its build among other places
  const order: string[] = []
  const join = db.query(`select count() from long_sequence(${n}) a join long_sequence(${n}) b on a.x = b.x`).then((r) => { order.push('join'); return r })
  const small = db.query('select 42').then((r) => { order.push('small'); return r })
  const [j, s] = await Promise.all([join, small])
  t.same(j.rows.map((r) => Number(r[0])), [n], 'every row finds its twin')
  t.same(s.rows.map((r) => Number(r[0])), [42])
  t.same(order, ['small', 'join'], 'the small statement did not wait for the join')
})
