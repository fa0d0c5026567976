/**
 * Access-control benchmark (not a test): `node --import tsx test/bench/acl.ts`.
 * Prints, for a user holding N grants (default 1,000: SELECT on N/2 tables, and SELECT on two
 * columns of N/4 tables, which also imply their designated timestamps): the time of a GRANT
 * (in memory, and in a data directory where every change rewrites `_acl` durably), of
 * `SHOW PERMISSIONS` (median of 50), and of one permission check (`authorize`, median over
 * 20,000 calls), plus `select 1` through `db.query` with acl off and on.
 * Environment: EPOCHDB_BENCH_GRANTS.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Database } from '../../lib/index.js'
import type { AccessControl } from '../../lib/security/acl/access-control.js'

const GRANTS = Number(process.env['EPOCHDB_BENCH_GRANTS'] ?? 1000)
const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ms = (x: number): string => `${x.toFixed(3)} ms`

async function setup(path?: string): Promise<{ db: Database; grantMs: number }> {
  const db = await Database.open({ ...(path === undefined ? {} : { path }), acl: { enabled: true, passwordHashIterations: 1 } })
  const tables = GRANTS / 4
  for (let i = 0; i < tables; i++) await db.query(`create table t${i} (ts timestamp, a double, b double, c double) timestamp(ts)`)
  await db.query('create user bob')
  const times: number[] = []
  for (let i = 0; i < GRANTS / 2; i++) {
    const t0 = performance.now()
    await db.query(`grant select on s${i} to bob`)
    times.push(performance.now() - t0)
  }
  for (let i = 0; i < tables; i++) {
    const t0 = performance.now()
    await db.query(`grant select on t${i}(a, b) to bob`)
    times.push(performance.now() - t0)
  }
  return { db, grantMs: median(times) }
}

async function main(): Promise<void> {
  const mem = await setup()
  const shows: number[] = []
  let rows = 0
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now()
    rows = (await mem.db.query('show permissions bob')).rowCount
    shows.push(performance.now() - t0)
  }
  const acl = (mem.db as unknown as { acl: AccessControl }).acl
  const bob = { name: 'bob', groups: [], admin: false, kind: 'user' as const }
  const checks: number[] = []
  for (let r = 0; r < 20; r++) {
    const t0 = performance.now()
    for (let i = 0; i < 1000; i++) acl.authorize(bob, [{ permission: 'SELECT', table: `t${(GRANTS / 4) - 1}`, columns: ['ts', 'a', 'b'] }])
    checks.push((performance.now() - t0) / 1000)
  }
  const off = await Database.open()
  const session = mem.db.session(bob)
  await mem.db.query('grant http to bob')
  const select1 = async (db: Database, opts: object): Promise<number> => {
    const xs: number[] = []
    for (let r = 0; r < 10; r++) {
      const t0 = performance.now()
      for (let i = 0; i < 2000; i++) await db.query('select 1', [], opts)
      xs.push((performance.now() - t0) / 2000)
    }
    return median(xs)
  }
  const offMs = await select1(off, {})
  const onMs = await select1(mem.db, { session })
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-bench-acl-'))
  let durableGrant = 0
  try {
    const d = await setup(dir)
    durableGrant = d.grantMs
    await d.db.close()
  } finally { rmSync(dir, { recursive: true, force: true }) }
  console.log(`grants held by bob: ${GRANTS} (+${rows - GRANTS} implied rows)`)
  console.log(`GRANT, median: in memory ${ms(mem.grantMs)}, data directory ${ms(durableGrant)}`)
  console.log(`SHOW PERMISSIONS bob (${rows} rows), median of 50: ${ms(median(shows))}`)
  console.log(`authorize (SELECT of 3 columns, ${GRANTS} grants), median per call: ${(median(checks) * 1000).toFixed(2)} µs`)
  console.log(`select 1 via db.query, median per statement: acl off ${(offMs * 1000).toFixed(1)} µs, acl on as bob ${(onMs * 1000).toFixed(1)} µs`)
  await mem.db.close()
  await off.close()
}

void main()
