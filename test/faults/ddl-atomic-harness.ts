/**
 * The harness of the DDL atomicity tests (ddl-atomic*.test.ts): for each DDL statement, a failure
 * (EIO, or ENOSPC) is injected into the n-th file-system call it makes, for every n: the statement
 * either succeeds or fails with a SqlError (58030, or 53100 for ENOSPC); later DDL and `tables()`
 * work; and close + reopen shows exactly the catalog (tables, columns, rows) the answers said.
 * The statements are split over two files so that each stays well inside the runner's time limit
 * on a loaded machine.
 */
import t from 'tap'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database, SqlError } from '../../lib/index.js'
import { io } from '../../lib/storage/durable/io.js'

type Io = typeof io
/** The calls that change the data directory (reads are not failed); `fsync` is the sync on the thread pool DDL statements use. */
const MUTATING = ['openSync', 'writeSync', 'fsyncSync', 'fsync', 'renameSync', 'mkdirSync', 'rmSync', 'ftruncateSync'] as const

/** Makes the `n`-th mutating call (1-based) from now on throw `code`; returns a function that restores io and tells how many calls were made. */
function inject(n: number, code: string): () => number {
  const saved: Partial<Io> = {}
  let calls = 0
  for (const k of MUTATING) {
    const orig = io[k] as (...a: unknown[]) => unknown
    saved[k] = io[k] as never
    ;(io as Record<string, unknown>)[k] = (...args: unknown[]) => {
      // opening for reading is not a change
      if (k === 'openSync' && args[1] === 'r') return orig(...args)
      if (++calls === n) {
        const e = Object.assign(new Error(`injected ${code}`), { code })
        if (k === 'fsync') return Promise.reject(e)
        throw e
      }
      return orig(...args)
    }
  }
  return () => {
    Object.assign(io, saved)
    return calls
  }
}

/** What a user sees of the catalog: every table's columns and rows. */
async function catalog(db: Database): Promise<unknown> {
  const names = (await db.query('select table_name from tables() order by table_name')).rows.map((r) => String(r[0]))
  const out: Record<string, unknown> = {}
  for (const n of names) {
    const cols = (await db.query(`select "column", type from table_columns('${n}')`)).rows
    const rows = (await db.query(`select * from "${n}"`)).rows
    out[n] = { cols, rows: rows.map((r) => r.map(String)).sort() }
  }
  return out
}

const SETUP = [
  'create table t (ts timestamp, s symbol, v double) timestamp(ts) partition by day',
  "insert into t values ('2024-01-01T00:00:00Z', 'a', 1), ('2024-01-02T00:00:00Z', 'b', 2)",
  'create table u (x long)',
  'insert into u values (1), (2)',
]

/** Runs the atomicity test of each statement in `cases` (see above). */
export function atomicCases(cases: readonly string[]): void {
  for (const sql of cases) {
    t.test(sql, async (t) => {
      let failures = 0
      for (let n = 1; n < 200; n++) {
        const dir = mkdtempSync(join(tmpdir(), 'epochdb-ddl-'))
        try {
          let db = await Database.open({ path: dir })
          for (const s of SETUP) await db.query(s)
          const before = await catalog(db)
          const code = n % 3 === 0 ? 'ENOSPC' : 'EIO'
          const restore = inject(n, code)
          let error: unknown
          try { await db.query(sql) } catch (e) { error = e } finally { restore() }
          const calls = restore()
          if (error === undefined && calls < n) break // every call of the statement has had its failure
          if (error !== undefined) {
            failures++
            t.ok(error instanceof SqlError, `n=${n}: a SqlError`)
            t.match(error, { code: code === 'ENOSPC' ? '53100' : '58030' }, `n=${n}: ${(error as Error).message}`)
            t.same(await catalog(db), before, `n=${n}: the catalog is as before`)
          }
          const answered = await catalog(db)
          // a crash right now (a copy of the directory as it is, without the lock) sees the same
          const crash = `${dir}-crash`
          cpSync(dir, crash, { recursive: true })
          for (const e of readdirSync(crash)) if (e.startsWith('_lock')) rmSync(join(crash, e), { force: true })
          try {
            const image = await Database.open({ path: crash })
            t.same(await catalog(image), answered, `n=${n}: a crash image shows what the answer said`)
            await image.close()
          } finally { rmSync(crash, { recursive: true, force: true }) }
          // later DDL works
          await db.query('create table later (z long)')
          await db.query('drop table later')
          await db.close()
          db = await Database.open({ path: dir })
          t.same(await catalog(db), answered, `n=${n}: a restart sees what the answer said`)
          await db.close()
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }
      t.ok(failures > 0, `${failures} injected failures`)
    })
  }
}
