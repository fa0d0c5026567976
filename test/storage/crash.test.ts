/**
 * Crash test: a writer in a child process appends batches and reports each acknowledged one;
 * it is killed with SIGKILL at random moments (checkpoints and partition writes included, as
 * they happen every few batches); then the directory is reopened and every acknowledged batch
 * must be there, intact, and no batch may be there in part; the indexed symbol column's index
 * (files written by checkpoints and killed writes) must answer as the rows do.
 */
import t from 'tap'
import { runWriter } from './kill-writer.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { ROWS, batchRows } from './crash-writer.js'

const ROUNDS = 22
const WRITER = join(import.meta.dirname, 'crash-writer.ts')


t.test('every acknowledged batch survives SIGKILL, no batch is there in part', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-crash-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const acked = new Set<number>()
  const users: number[] = []
  let next = 0
  let seed = 12345
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of await runWriter(WRITER, dir, next, Math.floor(rnd() * 400), users)) acked.add(k)
    const db = await Database.open({ path: dir, acl: { enabled: true, passwordHashIterations: 1 } })
    try {
      const r = await db.query('select batch, count(), sum(id), sum(v), count(name), count_distinct(s), min(ts), max(ts), sum(array_sum(a)) from t group by batch order by batch')
      const present = new Map(r.rows.map((row) => [Number(row[0]), row]))
      for (const k of acked) if (!present.has(k)) t.fail(`round ${round}: acknowledged batch ${k} is missing`)
      for (const [k, row] of present) {
        const b = batchRows(k)
        const sumId = b.id.reduce((a, x) => a + x, 0)
        const sumV = b.v.reduce((a, x) => a + x, 0)
        const names = b.name.filter((x) => x !== null).length
        const sumA = b.a.reduce((x, y) => x + (y === null ? 0 : y.values.reduce((p, q) => p + q, 0)), 0)
        const ok = row[8] === sumA && Number(row[1]) === ROWS && Number(row[2]) === sumId && row[3] === sumV && Number(row[4]) === names &&
          Number(row[5]) === Math.min(7, ROWS) && Number(row[6]) === b.ts[0] && Number(row[7]) === b.ts[ROWS - 1]
        if (!ok) t.fail(`round ${round}: batch ${k} is not intact: ${JSON.stringify(row, (_, x) => (typeof x === 'bigint' ? String(x) : x))}`)
      }
      // the symbol index (its files written at checkpoints, appended to in place, cut short by kills) answers as the rows do
      const viaIndex = new Map((await db.query("select batch, count() from t where s = 's3' group by batch")).rows.map((row) => [Number(row[0]), Number(row[1])]))
      for (const k of present.keys()) {
        const want = batchRows(k).s.filter((x) => x === 's3').length
        if ((viaIndex.get(k) ?? 0) !== want) t.fail(`round ${round}: batch ${k} has ${viaIndex.get(k) ?? 0} rows of s3 through the index, expected ${want}`)
      }
      next = Math.max(next, ...present.keys(), ...acked) + 1
      const total = await db.query('select count() from t')
      t.equal(Number(total.rows[0]![0]), present.size * ROWS, `round ${round}: ${acked.size} acknowledged, ${present.size} batches present`)
      // every acknowledged user and grant of the access-control catalog is there, and can log in
      const names = new Set((await db.query('show users')).rows.map((row) => String(row[0])))
      for (const k of users) {
        if (!names.has(`u${k}`)) { t.fail(`round ${round}: acknowledged user u${k} is missing`); continue }
        const perms = await db.query(`show permissions u${k}`)
        if (!perms.rows.some((row) => row[0] === 'SELECT' && row[1] === 't')) t.fail(`round ${round}: the grant to u${k} is missing`)
      }
      if (users.length > 0) t.ok(await db.authenticate(`u${users.at(-1)!}`, `p${users.at(-1)!}`), `round ${round}: ${users.length} users acknowledged, the last one logs in`)
    } finally {
      await db.close()
    }
  }
  t.ok(acked.size > ROUNDS, `${acked.size} batches acknowledged over ${ROUNDS} kills`)
  t.ok(users.length > 0, `${users.length} users acknowledged`)
})
