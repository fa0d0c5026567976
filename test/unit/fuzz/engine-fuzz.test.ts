/**
 * Fuzzes the engine with ~3000 deterministic random and mutated statements on a small schema.
 * Every statement must either succeed or throw a SqlError: any other exception, a hang or a crash
 * fails the test and names the statement. EPOCHDB_FUZZ_SEED / EPOCHDB_FUZZ_COUNT override the
 * defaults.
 */
import t from 'tap'
import { Database, SqlError } from '../../../lib/index.js'
import { CORPUS, SCHEMA, TOKEN_POOL } from './fuzz-corpus.js'
import { makeStatement, mulberry32 } from './mutate.js'

const SEED = Number(process.env['EPOCHDB_FUZZ_SEED'] ?? 20260101)
const COUNT = Number(process.env['EPOCHDB_FUZZ_COUNT'] ?? 3000)
const STATEMENT_TIMEOUT_MS = 5000
const MAX_REPORTED = 25

let current = ''
process.on('SIGTERM', () => {
  // tap kills a test file that times out; say which statement was running
  console.error(`# fuzz: killed while running: ${JSON.stringify(current)}`)
  process.exit(1)
})

function withTimeout<T>(p: Promise<T>, sql: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: no answer within ${STATEMENT_TIMEOUT_MS} ms: ${sql}`)), STATEMENT_TIMEOUT_MS)
  })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

t.test(`fuzz ${COUNT} statements (seed ${SEED})`, async t => {
  const db = await Database.open()
  for (const sql of SCHEMA) await db.query(sql)
  const rnd = mulberry32(SEED)
  const failures: string[] = []
  let ok = 0
  let sqlErrors = 0
  for (let n = 0; n < COUNT; n++) {
    const sql = makeStatement(rnd, CORPUS, TOKEN_POOL)
    current = sql
    try {
      await withTimeout(db.query(sql), sql)
      ok++
    } catch (e) {
      if (e instanceof SqlError) {
        sqlErrors++
        if (typeof e.code !== 'string' || e.code.length !== 5 || (e.code as string) === '00000') failures.push(`bad SQLSTATE ${String(e.code)}: ${JSON.stringify(sql)}`)
      } else {
        failures.push(`${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n    statement: ${JSON.stringify(sql)}`)
      }
    }
  }
  current = ''
  // the engine still answers after the storm
  const r = await db.query('SELECT count() FROM k')
  t.equal(r.rows.length, 1, 'engine still answers after fuzzing')
  await db.close()
  t.comment(`${ok} succeeded, ${sqlErrors} SqlError, ${failures.length} other failures`)
  for (const f of failures.slice(0, MAX_REPORTED)) t.fail(f)
  if (failures.length > MAX_REPORTED) t.fail(`... and ${failures.length - MAX_REPORTED} more`)
  t.ok(ok + sqlErrors + failures.length === COUNT, 'every statement was answered')
})
