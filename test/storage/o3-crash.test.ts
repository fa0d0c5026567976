/**
 * Crash test of out-of-order commits that cut the last partition (FilePart.cut: its first rows
 * stay in their files, the rest are merged in memory and written as the partition's next part by
 * the checkpoint). A writer appends two interleaved streams with frequent background checkpoints
 * and is killed with SIGKILL at random moments; on reopen every acknowledged batch must be there,
 * whole, no batch in part, the rows in timestamp order, and the symbol index must answer as the
 * rows do. Again with a DEDUP table whose writer sends some batches twice: each batch once.
 */
import t, { type Test } from 'tap'
import { runWriter } from './kill-writer.js'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { ROWS, batchRows } from './o3-crash-writer.js'
import { tmpDir } from '../unit/storage/helpers.js'
import { readFileSync, readdirSync } from 'node:fs'
import { unpack } from 'msgpackr'

/** True when table t's `_meta` in `dir` lists some partition in more than one part. */
function splitOnDisk(dir: string): boolean {
  const d = readdirSync(dir).find((e) => e.startsWith('t~'))
  if (d === undefined) return false
  const names = (unpack(readFileSync(join(dir, d, '_meta'))) as { partitions: { name: string }[] }).partitions.map((p) => p.name)
  return new Set(names).size < names.length
}

const WRITER = join(import.meta.dirname, 'o3-crash-writer.ts')


/** Kills the writer (`args`: its mode) `rounds` times; after each, checks every acknowledged batch is there whole, once. */
async function killRounds(t: Test, args: readonly string[], rounds: number): Promise<void> {
  const dir = tmpDir(t, 'epochdb-o3-crash-')
  const acked = new Set<number>()
  let next = 0
  let seed = 4242
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }
  let split = false
  for (let round = 0; round < rounds; round++) {
    for (const k of await runWriter(WRITER, dir, next, 200 + Math.floor(rnd() * 700), [], args)) acked.add(k)
    const db = await Database.open({ path: dir })
    try {
      const r = await db.query('select batch, count(), sum(id), sum(v), sum(length(s)), min(ts), max(ts) from t group by batch order by batch')
      const present = new Map(r.rows.map((row) => [Number(row[0]), row]))
      for (const k of acked) if (!present.has(k)) t.fail(`round ${round}: acknowledged batch ${k} is missing`)
      for (const [k, row] of present) {
        const b = batchRows(k)
        const ok = Number(row[1]) === ROWS && Number(row[2]) === b.id.reduce((a, x) => a + x, 0) && row[3] === b.v.reduce((a, x) => a + x, 0) &&
          Number(row[4]) === b.s.reduce((a, x) => a + x.length, 0) && Number(row[5]) === Math.min(...b.ts) && Number(row[6]) === Math.max(...b.ts)
        if (!ok) t.fail(`round ${round}: batch ${k} is not intact: ${JSON.stringify(row, (_, x) => (typeof x === 'bigint' ? String(x) : x))}`)
      }
      // a batch sent again (DEDUP) is not there twice: counted per batch above, and per row here
      const twice = await db.query('select count() from (select ts, id, count() n from t group by ts, id) where n > 1')
      if (Number(twice.rows[0]![0]) !== 0) t.fail(`round ${round}: ${String(twice.rows[0]![0])} rows twice`)
      const disorder = await db.query('select count() from (select ts, lag(ts) over () prev from t) where ts < prev')
      if (Number(disorder.rows[0]![0]) !== 0) t.fail(`round ${round}: rows out of timestamp order`)
      const viaIndex = new Map((await db.query("select batch, count() from t where y = 'y3' group by batch")).rows.map((row) => [Number(row[0]), Number(row[1])]))
      for (const k of present.keys()) {
        const want = batchRows(k).y.filter((x) => x === 'y3').length
        if ((viaIndex.get(k) ?? 0) !== want) t.fail(`round ${round}: batch ${k} has ${viaIndex.get(k) ?? 0} rows of y3 through the index, expected ${want}`)
      }
      const total = Number((await db.query('select count() from t')).rows[0]![0])
      t.equal(total, present.size * ROWS, `round ${round}: ${acked.size} acknowledged, ${present.size} batches present`)
      const shown = await db.query("select sum(numRows) from table_partitions('t')")
      t.equal(Number(shown.rows[0]![0]), total, `round ${round}: SHOW PARTITIONS counts every row once`)
      split ||= splitOnDisk(dir)
      next = Math.max(next, ...present.keys(), ...acked) + 1
      // an even id: the next round starts with stream 0 of a pair
      next += next & 1
    } finally {
      await db.close()
    }
  }
  t.ok(acked.size > rounds, `${acked.size} batches acknowledged over ${rounds} kills`)
  t.ok(split, 'some round found a partition in more than one part (the cut path ran)')
}

t.test('every acknowledged batch survives SIGKILL during out-of-order commits that cut the last partition', (t) => killRounds(t, [], 10))

t.test('DEDUP: every acknowledged batch survives SIGKILL, once, while batches sent again cut partitions at their timestamps', (t) => killRounds(t, ['dedup'], 6))
