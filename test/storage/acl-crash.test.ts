/**
 * ACL durability: a table change and its grant change (owner grants of CREATE TABLE ... OWNED
 * BY and of ALTER TABLE ... ADD COLUMN ... OWNED BY, grants following RENAME TABLE, DROP TABLE ... CASCADE PERMISSIONS) live in two files. A
 * child process is killed with SIGKILL at each point between them — after the grant intent is
 * saved and before the table changes, and after the table changed and before the intent is
 * settled — and after a reopen the tables and the grants must agree. REFRESH token extensions
 * reach the disk without any other catalog change.
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { decodeSnapshot } from '../../lib/security/acl/persistence.js'
import { nodeScript } from '../node-script.js'

const CHILD = join(import.meta.dirname, 'acl-crash-child.ts')
const ACL = { enabled: true, passwordHashIterations: 1 }

function runChild(dir: string, phase: string, sql: string): Promise<'killed' | 'done'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeScript(CHILD), dir, phase, sql], { stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('exit', (code, signal) => {
      clearTimeout(guard)
      if (signal === 'SIGKILL') resolve('killed')
      else if (code === 0) resolve('done')
      else reject(new Error(`child failed (${code}): ${err}`))
    })
  })
}

async function tables(db: Database): Promise<string[]> {
  return (await db.query('select table_name from tables() order by 1')).rows.map((r) => String(r[0]))
}
async function grantTables(db: Database, principal: string): Promise<string[]> {
  const rows = (await db.query(`show permissions ${principal}`)).rows
  return [...new Set(rows.filter((r) => r[0] === 'SELECT' && r[1] !== null).map((r) => String(r[1])))].sort()
}

const SCENARIOS = [
  {
    name: 'CREATE TABLE ... OWNED BY',
    setup: ['create group g'],
    sql: 'create table t (x int) owned by g',
    // the owner holds the table's grants exactly when the table exists
    expect: { recorded: { tables: [], grants: [] }, changed: { tables: ['t'], grants: ['t'] }, none: { tables: ['t'], grants: ['t'] } },
  },
  {
    name: 'RENAME TABLE',
    setup: ['create group g', 'create table a (x int)', 'grant select on a to g'],
    sql: 'rename table a to b',
    expect: { recorded: { tables: ['a'], grants: ['a'] }, changed: { tables: ['b'], grants: ['b'] }, none: { tables: ['b'], grants: ['b'] } },
  },
  {
    name: 'DROP TABLE ... CASCADE PERMISSIONS',
    setup: ['create group g', 'create table d (x int)', 'create table keep (x int)', 'grant select on d, keep to g'],
    sql: 'drop table d cascade permissions',
    expect: { recorded: { tables: ['d', 'keep'], grants: ['d', 'keep'] }, changed: { tables: ['keep'], grants: ['keep'] }, none: { tables: ['keep'], grants: ['keep'] } },
  },
  {
    name: 'ALTER TABLE ... ADD COLUMN ... OWNED BY',
    setup: ['create group g', 'create table c (x int)'],
    sql: 'alter table c add column y int owned by g',
    // the owner holds the column's grants exactly when the column exists
    column: { table: 'c', column: 'y' },
    expect: { recorded: { tables: ['c'], grants: [] }, changed: { tables: ['c'], grants: ['c'] }, none: { tables: ['c'], grants: ['c'] } },
  },
] as const

for (const s of SCENARIOS) {
  for (const phase of ['recorded', 'changed', 'none'] as const) {
    t.test(`${s.name}: ${phase === 'none' ? 'no crash' : `SIGKILL when ${phase}`}`, async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'epochdb-acl-crash-'))
      t.teardown(() => rmSync(dir, { recursive: true, force: true }))
      {
        const db = await Database.open({ path: dir, acl: ACL })
        for (const q of s.setup) await db.query(q)
        await db.close()
      }
      t.equal(await runChild(dir, phase, s.sql), phase === 'none' ? 'done' : 'killed')
      const db = await Database.open({ path: dir, acl: ACL })
      t.teardown(() => db.close())
      const want = s.expect[phase]
      t.same(await tables(db), want.tables, 'tables')
      t.same(await grantTables(db, 'g'), want.grants, 'grants agree with the tables')
      if ('column' in s) {
        const rows = (await db.query(`select "column" from table_columns('${s.column.table}') where "column" = '${s.column.column}'`)).rows
        t.equal(rows.length, want.grants.length, 'the column exists exactly when its grants do')
      }
      t.same(decodeSnapshot(readFileSync(join(dir, '_acl'))).intents ?? [], [], 'no intent left after the reopen')
    })
  }
}

t.test('a REFRESH token extension is saved on its own, within a second', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-acl-refresh-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let now = Date.UTC(2026, 0, 1) * 1000
  const db = await Database.open({ path: dir, acl: ACL, clock: () => now })
  t.teardown(() => db.close())
  await db.query('create user bob')
  const token = String((await db.query("alter user bob create token type rest with ttl '1h' refresh")).rows[0]![1])
  const savedExpiry = (): number => Number((decodeSnapshot(readFileSync(join(dir, '_acl'))).entities.find((e) => e.name === 'bob') as { tokens: { expires: number }[] }).tokens[0]!.expires)
  const first = savedExpiry()
  t.equal(first, now + 3600e6)
  now += 1800e6 // half an hour later the token is used
  t.equal((await db.authenticateToken(token))?.name, 'bob')
  const deadline = Date.now() + 10_000
  while (savedExpiry() === first && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  t.equal(savedExpiry(), now + 3600e6, 'the extended expiry is on disk, without another catalog change')
})
