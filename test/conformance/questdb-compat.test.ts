/**
 * Measures QuestDB's cross-driver suite (../shared/conformance/questdb-compat/test_cases.yaml,
 * outside this repository) over the pgwire adapter with node `pg` and `postgres`, and Python
 * psycopg2, psycopg 3 and asyncpg (spawned; skipped with a message when not installed). Each
 * driver gets a fresh Database and server. Pass/fail per test and driver is printed and, with
 * EPOCHDB_COMPAT_REPORT=<path>, written as the "PostgreSQL drivers" section of that file.
 * Not a gate: the test asserts only that the suite was found and parsed.
 */
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Database } from '../../lib/index.js'
import { startServer } from '../adapters/pgwire/helpers.js'
import { type CompatTest, loadCompatCases } from './questdb-compat-cases.js'
import { type StepResult, type TestOutcome, judge } from './questdb-compat-compare.js'
import { NODE_DRIVERS, type NodeDriver, runNodeTest } from './questdb-compat-node.js'
import { PYTHON_DRIVERS, runPython } from './questdb-compat-python.js'
import { type DriverRun, compatMarkdown, writeCompatSection } from './questdb-compat-report.js'

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
// from a git worktree, EPOCHDB_CONFORMANCE_DIR names the folder holding questdb-compat/ (as for questdb-slt.test.ts)
const suite = join(process.env['EPOCHDB_CONFORMANCE_DIR'] ?? join(repoRoot, '..', 'shared', 'conformance'), 'questdb-compat', 'test_cases.yaml')
/** a Python driver's whole run is killed after this (the full run's 1M-row and 10,000-INSERT tests take minutes) */
const PYTHON_TIMEOUT_MS = 240_000
const PYTHON_FULL_TIMEOUT_MS = 900_000

function outcomes(driverName: string, tests: readonly CompatTest[], results: (test: CompatTest) => StepResult[] | undefined): TestOutcome[] {
  return tests.map((tc) => {
    if (tc.exclude.includes(driverName)) return { test: tc.name, status: 'excluded' }
    const r = results(tc)
    return r === undefined ? { test: tc.name, status: 'fail', message: 'no result (driver process ended early)' } : judge(tc, r)
  })
}

// the suite's "Parquet test" reads QuestDB's demo file trades.parquet from the import root
const importRoot = await tradesFixture()

async function withServer<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const db = await Database.open({ copyRoot: importRoot })
  const srv = await startServer({}, db)
  try {
    return await fn(srv.port)
  } finally {
    await srv.close()
    await db.close()
  }
}

/**
 * A directory holding trades.parquet shaped as QuestDB's demo file (symbol, side, price, amount,
 * timestamp), with the row the suite looks for among others. Removed at exit.
 */
async function tradesFixture(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-compat-import-'))
  // at exit, not at t.teardown: tap ends the root test once its two asserts are in, while the
  // drivers are still running, and the Parquet test then found its file gone
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const db = await Database.open()
  try {
    await db.query('CREATE TABLE trades (symbol SYMBOL, side SYMBOL, price DOUBLE, amount DOUBLE, timestamp TIMESTAMP) TIMESTAMP(timestamp) PARTITION BY DAY')
    await db.query(`INSERT INTO trades VALUES ('ETH-USD', 'sell', 3252.97, 0.0124, '2024-07-26T07:52:47.001000Z'),
      ('BTC-USD', 'buy', 66991.56, 0.00014933, '2024-07-26T07:52:48.243272Z'), ('BTC-USD', 'sell', 66990.01, 0.1, '2024-07-26T07:52:49.000001Z')`)
    await db.exportParquet('SELECT * FROM trades', join(dir, 'trades.parquet'))
  } finally {
    await db.close()
  }
  return dir
}

const report = process.env['EPOCHDB_COMPAT_REPORT']

if (!existsSync(suite)) {
  t.plan(0, `QuestDB compat suite not found at ${suite}; skipping`)
} else {
  // the report (npm run conformance:drivers) runs every iteration; `npm test` runs each test once
  const full = report !== undefined && report !== '' || process.env['EPOCHDB_COMPAT_FULL'] === '1'
  if (!full) t.comment('quick run: each test once (iterations capped at 1); EPOCHDB_COMPAT_FULL=1 runs them all')
  const tests = loadCompatCases(suite, full ? Infinity : 1)
  t.ok(tests.length > 0, `parsed ${tests.length} compat tests`)
  t.ok(tests.every((tc) => tc.steps.length > 0), 'every test has steps')
  // EPOCHDB_COMPAT_DRIVERS=pg,asyncpg limits the run (for development)
  const only = process.env['EPOCHDB_COMPAT_DRIVERS']?.split(',').map((d) => d.trim())
  const wanted = (d: string): boolean => only === undefined || only.includes(d)
  // quick runs: drivers side by side, each against its own Database and server; the full run
  // (the report) one driver after another, as their servers share this process's one thread
  // and five at once starved the Python drivers past their time limit
  let queue: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    if (!full) return fn()
    const next = queue.then(fn)
    queue = next.catch(() => undefined)
    return next
  }
  const nodeRuns = (Object.keys(NODE_DRIVERS) as NodeDriver[]).filter(wanted).map((driver) => inTurn(async (): Promise<DriverRun> => {
    const results = new Map<string, StepResult[]>()
    await withServer(async (port) => {
      for (const tc of tests) if (!tc.exclude.includes(NODE_DRIVERS[driver])) results.set(tc.name, await runNodeTest(driver, port, tc))
    })
    return { driver, outcomes: outcomes(NODE_DRIVERS[driver], tests, (tc) => results.get(tc.name)) }
  }))
  const pythonRuns = PYTHON_DRIVERS.filter(wanted).map((driver) => inTurn(async (): Promise<DriverRun> => {
    const run = await withServer((port) => runPython(driver, port, tests.filter((tc) => !tc.exclude.includes(driver)), full ? PYTHON_FULL_TIMEOUT_MS : PYTHON_TIMEOUT_MS))
    if ('missing' in run) {
      t.comment(`${driver}: not run (${run.missing})`)
      return { driver, skipped: run.missing }
    }
    return { driver, outcomes: outcomes(driver, tests, (tc) => run.results.get(tc.name)) }
  }))
  const runs = await Promise.all([...nodeRuns, ...pythonRuns])
  for (const r of runs) {
    if (r.outcomes === undefined) continue
    const pass = r.outcomes.filter((o) => o.status === 'pass').length
    t.comment(`${r.driver}: ${pass} / ${r.outcomes.filter((o) => o.status !== 'excluded').length} compat tests pass`)
    if (process.env['EPOCHDB_CONFORMANCE_VERBOSE'] === '1') for (const o of r.outcomes) if (o.status === 'fail') t.comment(`  ${o.test}: ${o.message ?? ''}`)
  }
  if (report !== undefined && report !== '') {
    const path = isAbsolute(report) ? report : join(repoRoot, report)
    writeCompatSection(path, compatMarkdown(runs, tests.map((tc) => tc.name), new Date().toISOString().slice(0, 10)))
    t.comment(`wrote ${path}`)
  }
}
