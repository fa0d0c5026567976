// A Parquet partition written back after a late row keeps the exact DECIMAL min/max statistics of
// the row groups it copies (they used to be dropped: hyparquet reads them as doubles), so readers
// that skip row groups by those statistics (DuckDB over the data directory) still find every row,
// including values a double cannot hold (unscaled integers above 2^53, 16-byte DECIMALs).
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'

// 288,000 rows a day (one each 0.3 s): row groups of 100,000, 100,000 and 88,000 rows
const PER_DAY = 288_000
const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const fileOf = (root: string): string => {
  const d = readdirSync(tableDir(root)).find((e) => e.startsWith('2024-01-01') && existsSync(join(tableDir(root), e, 'data.parquet')))!
  return join(tableDir(root), d, 'data.parquet')
}

/** Per row group of `path` (DuckDB's parquet_metadata): [group, column, min, max] of the DECIMAL columns, as DuckDB prints them. */
async function decimalStats(path: string): Promise<string[][]> {
  const rows = await duckRows(`SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value FROM parquet_metadata('${path}')
    WHERE path_in_schema IN ('d', 'w') ORDER BY row_group_id, path_in_schema`)
  return rows.map((r) => r.map((x) => (x === null ? 'null' : String(x))))
}

t.test('copied row groups keep exact DECIMAL statistics; DuckDB prunes by them and still finds the extremes', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  t.teardown(() => db.close())
  // d: unscaled values about 10^18 (a double is 128 units apart there); w: DECIMAL(30,6) in 16 bytes, negative too
  await db.query(`CREATE TABLE t AS (SELECT x, cast(x AS DECIMAL(18,4)) + 99999999000000.0001m d,
      cast(cast(x - 150000 AS DECIMAL(30,6)) * 1000000000000000.000001m AS DECIMAL(30,6)) w, timestamp_sequence('2024-01-01', 300000) ts
    FROM long_sequence(${PER_DAY + 1})) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-01'`)
  const path = fileOf(dir)
  const before = await decimalStats(path)
  t.equal(before.length, 6, 'three row groups, two DECIMAL columns')
  // EpochDB's own min/max of each group's rows (groups of 100,000 rows in timestamp order)
  const expect: string[][] = []
  for (const [g, from, to] of [[0, 1, 100_000], [1, 100_001, 200_000], [2, 200_001, PER_DAY]] as const) {
    const r = (await db.query(`SELECT min(d), max(d), min(w), max(w) FROM t WHERE x BETWEEN ${from} AND ${to}`)).rows[0]!.map(String)
    expect.push([String(g), 'd', r[0]!, r[1]!], [String(g), 'w', r[2]!, r[3]!])
  }
  t.same(before, expect, 'the converted file has exact DECIMAL statistics')

  // a late row in the second group: the first and last groups are copied, the second re-encoded
  const old = readFileSync(path)
  await db.query(`INSERT INTO t VALUES (-1, 99999999000000.0002m, -60000000000000000000.000001m, '2024-01-01T12:00:00.000001Z')`)
  const until = Date.now() + 60_000
  const done = async (): Promise<boolean> => {
    try { if (readFileSync(path).equals(old)) return false } catch { return false }
    return (await db.query(`SELECT count() FROM table_partitions('t') WHERE isParquet`)).rows[0]![0] === 1n
  }
  while (!(await done()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
  t.ok(await done(), 'the day is Parquet again, rewritten')
  const after = await decimalStats(path)
  t.same(after.filter((r) => r[0] !== '1'), expect.filter((r) => r[0] !== '1'), 'the copied groups keep their exact DECIMAL statistics')
  t.same(after.filter((r) => r[0] === '1'), [['1', 'd', '99999999000000.0002', expect[2]![3]!], ['1', 'w', '-60000000000000000000.000001', expect[3]![3]!]],
    'the re-encoded group has statistics with the late row')

  // every group's extremes, found by DuckDB with filters its statistics decide (a rounded bound would skip the group)
  const extremes = expect.flatMap((r) => [[r[1]!, r[2]!], [r[1]!, r[3]!]]).filter(([c]) => c === 'd')
  for (const [c, v] of extremes) {
    const duck = await duckRows(`SELECT count(*) FROM read_parquet('${path}') WHERE ${c} = ${v}::DECIMAL(18,4)`)
    const ours = (await db.query(`SELECT count() FROM t WHERE ts < '2024-01-02' AND ${c} = ${v}m`)).rows
    t.same(duck.map((r) => r.map(Number)), ours.map((r) => r.map(Number)), `DuckDB finds ${c} = ${v}`)
  }
  for (const v of [expect[1]![3]!, expect[5]![2]!, '-60000000000000000000.000001']) {
    const wide = await duckRows(`SELECT count(*) FROM read_parquet('${path}') WHERE w = ${v}::DECIMAL(30,6)`)
    t.same(wide.map((r) => r.map(Number)), [[1]], `DuckDB finds w = ${v}`)
  }
})
