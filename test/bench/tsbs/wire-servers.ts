/**
 * The two servers of the wire benchmarks (`wire-compare.ts`, `wire-raw.ts`) holding the same
 * TSBS cpu-only rows: PostgreSQL 15 loaded by `COPY` with an index on `ts`, and EpochDB's pgwire
 * server in a child process (`server-child.ts`), so each has its own CPU to measure.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { PG15_BIN } from '../postgres15.js'
import { METRICS, TAGS, chunks, type Shape } from './generate.js'

const pgTs = (micros: number): string => new Date(micros / 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')

/** Creates table `cpu` in a running PostgreSQL and loads the rows of `shape` into it. */
export async function loadPostgres(shape: Shape, port: number, user: string, database: string): Promise<void> {
  const c = new pg.Client({ host: '127.0.0.1', port, user, database })
  await c.connect()
  const cols = [...TAGS.map((t) => `${t} TEXT`), ...METRICS.map((m) => `${m} DOUBLE PRECISION`), 'ts TIMESTAMP NOT NULL']
  await c.query(`CREATE TABLE cpu (${cols.join(', ')})`)
  const psql = spawn(join(PG15_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-q', '-v', 'ON_ERROR_STOP=1', '-c', 'COPY cpu FROM STDIN', database],
    { stdio: ['pipe', 'inherit', 'inherit'] })
  const done = new Promise<number | null>((resolve) => psql.once('exit', resolve))
  for (const ch of chunks(shape, 360)) {
    let text = ''
    for (let i = 0; i < ch.length; i++) {
      for (let t = 0; t < TAGS.length; t++) text += `${ch.tags[t]![i]!}\t`
      for (let m = 0; m < METRICS.length; m++) text += `${ch.metrics[m]![i]!}\t`
      text += `${pgTs(ch.ts[i]!)}\n`
    }
    if (!psql.stdin.write(text)) await new Promise((resolve) => psql.stdin.once('drain', resolve))
  }
  psql.stdin.end()
  if ((await done) !== 0) throw new Error('psql COPY failed')
  await c.query('CREATE INDEX ON cpu (ts DESC)')
  await c.query('VACUUM ANALYZE cpu')
  await c.end()
}

/** Starts EpochDB's servers in a child process with the rows of `shape` loaded; `pid` is the child's; `nodeArgs` go to its node (e.g. `--cpu-prof`); `root`: run the server of another checkout of the repository (a baseline). */
export async function startEpoch(shape: Shape, nodeArgs: readonly string[] = [], root?: string): Promise<{ port: number; pid: number; stop: () => Promise<void> }> {
  const script = root === undefined ? fileURLToPath(new URL('./server-child.ts', import.meta.url)) : join(root, 'test/bench/tsbs/server-child.ts')
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, '--tsbs', `${shape.hosts},${shape.days}`],
    { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    void exited.then(() => reject(new Error('the server exited before listening')))
  })
  return { port: (JSON.parse(line) as { pgwire: number }).pgwire, pid: child.pid!, stop: async () => { child.kill('SIGTERM'); await exited } }
}
