// A process killed after the checkpoint that made a Parquet partition column files, before it was
// written back: the next open writes it back to Parquet (the intent is in that checkpoint's
// `_meta`, not in a file written after it), and DuckDB reads the late row from the data directory.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'
import { nodeScript } from '../node-script.js'

const CHILD = join(import.meta.dirname, 'parquet-crash-child.ts')
const DAYS = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-06', '2024-01-07']
const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)

/** Runs the child on `dir`; resolves to what it printed and the signal that ended it. */
function runChild(dir: string): Promise<{ out: string; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeScript(CHILD), dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => { out += d.toString() })
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('exit', (_code, signal) => {
      clearTimeout(guard)
      if (err.length > 0 && signal !== 'SIGKILL') reject(new Error(err))
      else resolve({ out, signal })
    })
  })
}

t.test('killed between the checkpoint and the write back: Parquet again after the next open', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c', null) s, x, rnd_double() d,
    timestamp_sequence('2024-01-01', 1800000000) ts FROM long_sequence(480, 1, 2)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-08'`)
  await db.close()
  const { out, signal } = await runChild(dir)
  t.equal(out, 'checkpointed\n', 'the child saw the checkpoint make the day column files')
  t.equal(signal, 'SIGKILL')
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const parquet = async (): Promise<string[]> => (await db.query(`SELECT name FROM table_partitions('t') WHERE isParquet ORDER BY name`)).rows.map((r) => String(r[0]))
  const until = Date.now() + 30_000
  while ((await parquet()).length < DAYS.length && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
  t.same(await parquet(), DAYS, 'every converted day is Parquet again')
  t.same((await db.query(`SELECT count(), max(x) FROM t WHERE ts IN '2024-01-04'`)).rows, [[49n, 9999n]], 'the late row is there')
  const duck = await duckRows(`SELECT count(*), max(x) FROM read_parquet('${tableDir(dir)}/*/data.parquet')`)
  t.same(duck.map((r) => r.map(Number)), [[337, 9999]], 'DuckDB reads the late row from the data directory')
})
