import t from 'tap'
import { Database } from '../../../../lib/index.js'

// A right side of more than 16 scan batches (so retained batches are compacted mid-join) against
// a left side of several batches; expected matches are computed here in plain JS.
const NL = 150_000
const NR = 1_200_000
const SYMS = ['s0', 's1', 's2', 's3', 's4']

function symOf(i: number): string | null {
  return i % 11 === 0 ? null : SYMS[i % SYMS.length]!
}

/** Index of the last right row of key `k` with ts <= t (or < t when strict), by a plain scan. */
function reference(lts: Float64Array, lsym: (string | null)[], rts: Float64Array, rsym: (string | null)[], strict: boolean, keyed: boolean, tol: number): Int32Array {
  const out = new Int32Array(lts.length).fill(-1)
  const latest = new Map<string | null, number>()
  let j = 0
  for (let i = 0; i < lts.length; i++) {
    const ti = lts[i]!
    while (j < rts.length && (strict ? rts[j]! < ti : rts[j]! <= ti)) { latest.set(keyed ? rsym[j]! : 'all', j); j++ }
    const m = latest.get(keyed ? lsym[i]! : 'all')
    if (m !== undefined && ti - rts[m]! <= tol) out[i] = m
  }
  return out
}

t.test('ASOF / LT merge join equals a plain scan over a multi-batch right side', async (t) => {
  const db = await Database.open()
  await db.query('create table l (ts timestamp, sym symbol, i int) timestamp(ts)')
  await db.query('create table r (ts timestamp, sym symbol, v int) timestamp(ts)')
  const lts = Float64Array.from({ length: NL }, (_, i) => i * 8 + 3)
  const lsym = Array.from({ length: NL }, (_, i) => symOf(i * 7))
  const rts = Float64Array.from({ length: NR }, (_, i) => i - (i % 3)) // runs of equal timestamps
  const rsym = Array.from({ length: NR }, (_, i) => symOf(i))
  await db.append('l', { ts: lts, sym: lsym, i: Int32Array.from({ length: NL }, (_, i) => i) })
  await db.append('r', { ts: rts, sym: rsym, v: Int32Array.from({ length: NR }, (_, i) => i) })
  const cases: [string, boolean, boolean, number][] = [
    ['select l.i, r.v, r.sym from l asof join r on (sym)', false, true, Infinity],
    ['select l.i, r.v, r.sym from l lt join r on (sym)', true, true, Infinity],
    ['select l.i, r.v, r.sym from l asof join r', false, false, Infinity],
    ['select l.i, r.v, r.sym from l lt join r on l.sym = r.sym tolerance 20U', true, true, 20],
  ]
  for (const [sql, strict, keyed, tol] of cases) {
    const exp = reference(lts, lsym, rts, rsym, strict, keyed, tol)
    const rows = (await db.query(sql)).rows
    t.equal(rows.length, NL, `${sql}: one row per left row`)
    let bad = 0
    for (let i = 0; i < NL && bad < 5; i++) {
      const m = exp[i]!
      const want = m < 0 ? [i, null, null] : [i, m, rsym[m]]
      const got = rows[i]!
      if (got[0] !== want[0] || got[1] !== want[1] || got[2] !== want[2]) { bad++; t.fail(`${sql}: row ${i} is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`) }
    }
    if (bad === 0) t.pass(`${sql}: every row matches`)
  }
})
