/**
 * A checkpoint writes the in-memory segments an out-of-order merge left (table.ts) as they are held
 * (held-rows.ts), a partition spanning segments encoded a piece at a time, instead of first joining
 * every segment into one version (one more copy of every in-memory row). Checked: no join runs,
 * and what is written — new partitions and rows appended in place to the last one, text (offsets
 * rebased per piece), symbols with an index — reads back as the same rows in order would.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { Table } from '../../../../lib/storage/table.js'
import { afterReopen, tmpDir } from '../helpers.js'

const HOUR = 3_600_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const PER = 800

/** Batch `b` of stream `k`: timestamps 2i + k steps apart, spread so that batches cross HOUR partitions. */
function rows(b: number, k: number): Record<string, unknown[]> {
  const step = Math.floor(HOUR / 3000)
  const ts = Array.from({ length: PER }, (_, i) => T0 + (2 * (b * PER + i) + k) * step)
  return {
    ts,
    v: ts.map((_, i) => b * PER + i + k / 2),
    s: ts.map((_, i) => (i % 13 === 0 ? null : `row-${b}-${i}-${k}${'x'.repeat(i % 5)}`)),
    y: ts.map((_, i) => `k${(i + k) % 5}`),
  }
}

const DDL = (name: string): string => `create table ${name} (ts timestamp, v double, s string, y symbol index) timestamp(ts) partition by hour`
const Q = (name: string): string[] => [
  `select count(), sum(v), count(s), sum(length(s)), count_distinct(y), min(ts), max(ts) from ${name}`,
  `select count() from (select ts, lag(ts) over () prev from ${name}) where ts < prev`,
  `select y, count() from ${name} where y = 'k3' group by y`,
  `select ts, v, s, y from ${name} order by ts limit ${PER * 3 - 1}, ${PER * 3 + 2}`,
]

t.test('interleaved streams checkpointed twice (new partitions, then an append in place): no join, the rows read back in order', async (t) => {
  const dir = tmpDir(t, 'epochdb-ckpt-seg-')
  let joins = 0
  const join = Object.getOwnPropertyDescriptor(Table.prototype, 'joinSteps')!.value as Table['joinSteps']
  Table.prototype.joinSteps = function (this: Table) { joins++; return join.call(this) }
  t.teardown(() => { Table.prototype.joinSteps = join })

  let db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  await db.query(DDL('o'))
  await db.query(DDL('i'))
  for (const round of [0, 1]) {
    for (let b = round * 6; b < round * 6 + 6; b++) {
      await db.append('o', rows(b, 0))
      await db.append('o', rows(b, 1))
      // the same rows in order, for comparison
      const a = rows(b, 0), c = rows(b, 1)
      const both = Object.fromEntries(Object.keys(a).map((k) => [k, a[k]!.flatMap((x, i) => [x, c[k]![i]])]))
      await db.append('i', both)
    }
    t.ok((await db.query('select count() from o')).rows[0]![0] === BigInt(2 * PER * 6 * (round + 1)))
    joins = 0
    // the checkpoint (at close) writes the segments
    await db.close()
    t.equal(joins, 0, `round ${round}: the checkpoint joined no segments`)
    db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  }
  await db.close()
  const [o, i] = [await afterReopen(dir, ...Q('o')), await afterReopen(dir, ...Q('i'))]
  t.same(o, i, 'the interleaved table reads as the one written in order')
  t.same(o[1], [[0n]], 'in timestamp order')
})
