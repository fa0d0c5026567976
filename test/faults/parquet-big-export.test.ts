// A big export streams: the writer holds a few row groups, never the result. Checked
// deterministically — every row group reaches the sink before the source has produced more than
// GROUPS_IN_FLIGHT + 1 row groups (plus one batch) beyond it: the group being filled and those
// whose pages are compressing on other threads — and by the heap, whose growth is reported and bounded
// far below what holding 1M rows of (ts, sym, 3 doubles) as JavaScript values would take.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { Database, type Execution } from '../../lib/index.js'
import { writeParquet } from '../../lib/internal.js'
import { GROUPS_IN_FLIGHT } from '../../lib/parquet/writer.js'

const ROWS = 1_000_000
const GROUP = 50_000
const db = await Database.open()
t.teardown(() => db.close())

t.test(`exporting ${ROWS} rows streams row group by row group`, async (t) => {
  const sql = `SELECT timestamp_sequence('2024-01-01', 1000) ts, rnd_symbol('a','b','c','d') sym, rnd_double() a, rnd_double() b, rnd_double() c FROM long_sequence(${ROWS})`
  const ex = await db.execute(db.parse(sql)[0]!, [])
  let produced = 0
  let maxBatch = 0
  const counted: Execution = {
    ...ex,
    batches: (async function* () { for await (const b of ex.batches) { produced += b.length; maxBatch = Math.max(maxBatch, b.length); yield b } })(),
  }
  const base = process.memoryUsage().heapUsed
  let peak = base
  let writes = 0
  let bytes = 0
  let worstLag = 0
  const rows = await writeParquet(counted, {
    write: (b) => {
      writes++
      bytes += b.length
      peak = Math.max(peak, process.memoryUsage().heapUsed)
      // when row group k's bytes arrive, the source is at most GROUPS_IN_FLIGHT + 1 groups and one batch past it
      worstLag = Math.max(worstLag, produced - Math.min(ROWS, writes * GROUP))
    },
  }, { rowGroupSize: GROUP })
  t.equal(rows, ROWS)
  t.ok(writes >= ROWS / GROUP, `the file went out in ${writes} writes, one or more per row group`)
  const bound = (GROUPS_IN_FLIGHT + 1) * GROUP + maxBatch
  t.ok(worstLag <= bound, `the source ran at most ${worstLag} rows ahead of what was written (bound ${bound})`)
  const grew = (peak - base) / 1048576
  t.comment(`heap grew by ${grew.toFixed(0)} MB at most for ${(bytes / 1048576).toFixed(0)} MB of Parquet`)
  t.ok(grew < 200, 'no result-sized heap growth')
})
