// A damaged or hostile `parquetFrom` in a table's `_meta` (the record of a partition on its way
// back to Parquet): a directory outside the table (`../`), not a string, missing, or naming a file
// that is not Parquet. The database opens and answers the same rows, nothing is written outside
// the table directory, and the partition is written back from its column files.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'
import { tmpDir } from '../unit/parquet/helpers.js'

const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)

// each value, and whether the day is then written back (a value that is no record is ignored)
const VALUES: [unknown, boolean][] = [
  [{ dir: '../../escape' }, true], [{ dir: '..' }, true], [{ dir: 'missing.7' }, true], [{ dir: 'notparquet' }, true],
  [{ dir: '../../escape', whole: true }, true], [{ dir: 'x', dirty: 'not a list' }, true], [{ dir: 'x', dirty: [5, 'a', null] }, true],
  [{ dir: 5 }, false], [null, false], ['text', false], [[1, 2], false],
]

for (const [from, back] of VALUES) {
  t.test(`parquetFrom ${JSON.stringify(from)} is harmless`, async (t) => {
    const root = tmpDir(t)
    let db = await Database.open({ path: join(root, 'db') })
    await db.query(`CREATE TABLE t AS (SELECT x, timestamp_sequence('2024-01-01', 3600000000) ts FROM long_sequence(72)) TIMESTAMP(ts) PARTITION BY DAY`)
    const expect = (await db.query('SELECT count(), sum(x) FROM t')).rows
    await db.close()
    const dir = tableDir(join(root, 'db'))
    mkdirSync(join(dir, 'notparquet'))
    writeFileSync(join(dir, 'notparquet', 'data.parquet'), 'PAR1 this is not a parquet file PAR1')
    const meta = packr.unpack(readFileSync(join(dir, '_meta'))) as { partitions: Record<string, unknown>[] }
    // the first day (column files) recorded as on its way back from `from`
    meta.partitions[0]!.parquetFrom = from
    writeFileSync(join(dir, '_meta'), packr.pack(meta))
    db = await Database.open({ path: join(root, 'db') })
    t.same((await db.query('SELECT count(), sum(x) FROM t')).rows, expect, 'answers unchanged')
    await db.close()
    t.notOk(existsSync(join(root, 'escape')) || existsSync(join(dir, '..', 'escape')), 'nothing written outside the table directory')
    db = await Database.open({ path: join(root, 'db') })
    t.teardown(() => db.close())
    t.same((await db.query('SELECT count(), sum(x) FROM t')).rows, expect, 'the same rows after the write back')
    t.same((await db.query(`SELECT isParquet FROM table_partitions('t') WHERE name = '2024-01-01'`)).rows, [[back]], back ? 'the day was written back to Parquet' : 'the day stays column files')
  })
}
