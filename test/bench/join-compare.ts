/**
 * Join speed before and after a change, in one process: a baseline checkout's lib and this one's,
 * each with the same tables, queried alternately (so both see the same machine load): a hash join
 * of ROWS x ROWS on one LONG key (the typed table's build), a WINDOW JOIN and a HORIZON JOIN
 * (20k left rows, 400k right rows, 50 keys). Prints the CPU time of each side (median, best) and
 * their ratio, and whether the answers agree.
 *
 *   git archive <commit> lib | tar -x -C /tmp/before && ln -s $PWD/node_modules /tmp/before/node_modules
 *   node --import tsx test/bench/join-compare.ts /tmp/before [rows=2000000] [rounds=7]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { resolve } from 'node:path'
process.env.EPOCHDB_WORKERS = '0'
const base = await import(resolve(process.argv[2] ?? '', 'lib/index.ts'))
const branch = await import('../../lib/index.js')
const N = Number(process.argv[3] ?? 2_000_000)
const LEFT = 20000, RIGHT = 400000, KEYS = 50, T0 = Date.UTC(2024, 0, 1) * 1000, SPAN = LEFT * 1_000_000
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the baseline's module has no types here
async function setup(lib: any) {
  const db = await lib.Database.open()
  await db.query('create table a (k long, v double)')
  await db.query('create table b (k long, w double)')
  const ka = new Float64Array(N), va = new Float64Array(N)
  for (let i = 0; i < N; i++) { ka[i] = (i * 7919) % N; va[i] = i }
  await db.append('a', { k: ka, v: va })
  await db.append('b', { k: ka, w: va })
  await db.query('create table l (ts timestamp, k int, q double) timestamp(ts)')
  await db.query('create table r (ts timestamp, k int, v double) timestamp(ts)')
  const ts = new Float64Array(LEFT), k = new Int32Array(LEFT), q = new Float64Array(LEFT)
  for (let i = 0; i < LEFT; i++) { ts[i] = T0 + i * 1_000_000; k[i] = (i * 7) % KEYS; q[i] = i % 10 }
  await db.append('l', { ts, k, q })
  const rts = new Float64Array(RIGHT), rk = new Int32Array(RIGHT), v = new Float64Array(RIGHT)
  for (let i = 0; i < RIGHT; i++) { rts[i] = T0 + Math.floor(i * (SPAN / RIGHT)); rk[i] = (i * 13) % KEYS; v[i] = (i % 1000) / 8 }
  await db.append('r', { ts: rts, k: rk, v })
  return db
}
const dbs = { base: await setup(base), branch: await setup(branch) }
const queries = {
  hash: 'select count(), sum(b.w) from a join b on a.k = b.k',
  window: 'select sum(s) from (select l.ts, sum(r.v) s from l window join r on (l.k = r.k) range between 10 seconds preceding and 10 seconds following)',
  horizon: 'select h.offset, avg(r.v) from l horizon join r on (l.k = r.k) range from 0s to 10s step 1s as h',
}
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000 }
const ROUNDS = Number(process.argv[4] ?? 7)
for (const [name, sql] of Object.entries(queries)) {
  const t: Record<'base' | 'branch', number[]> = { base: [], branch: [] }
  const answers: Record<string, string> = {}
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of (r % 2 === 0 ? ['base', 'branch'] : ['branch', 'base']) as ('base' | 'branch')[]) {
      const c0 = cpu()
      const res = await dbs[side].query(sql)
      t[side].push(cpu() - c0)
      answers[side] = JSON.stringify(res.rows, (_k: string, v: unknown) => typeof v === 'bigint' ? Number(v) : v).slice(0, 80)
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
  console.log(`${name}: base median ${med(t.base).toFixed(0)} ms best ${Math.min(...t.base).toFixed(0)}; branch median ${med(t.branch).toFixed(0)} ms best ${Math.min(...t.branch).toFixed(0)}; branch/base ${(med(t.branch) / med(t.base)).toFixed(3)}; same answer ${answers.base === answers.branch}`)
}
for (const db of Object.values(dbs)) await db.close()
