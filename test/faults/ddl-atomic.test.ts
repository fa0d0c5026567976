/**
 * DDL is atomic against storage failures (ddl-atomic-harness.ts): catalog statements (CREATE, DROP,
 * RENAME TABLE), and a CREATE TABLE whose directory cannot be made. ALTER TABLE, TRUNCATE and
 * UPDATE are in ddl-atomic-rewrites.test.ts.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { io } from '../../lib/storage/durable/io.js'
import { atomicCases } from './ddl-atomic-harness.js'

atomicCases([
  'create table n (x long, y string)',
  'create table if not exists n (x long)',
  'create table n as (select x, x * 2 y from long_sequence(3))',
  'drop table u',
  'drop table t, u',
  'rename table u to w',
])

t.test('a CREATE TABLE whose directory cannot be made (ENAMETOOLONG) leaves nothing behind', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-ddl-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let db = await Database.open({ path: dir })
  const mkdir = io.mkdirSync
  io.mkdirSync = () => { throw Object.assign(new Error('name too long'), { code: 'ENAMETOOLONG' }) }
  await t.rejects(db.query('create table x (a long)'), { code: '58030' })
  io.mkdirSync = mkdir
  t.same((await db.query('select table_name from tables()')).rows, [])
  await db.query('create table y (a long)')
  await db.query('alter table y add column b long')
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query('select table_name from tables()')).rows, [['y']])
  await db.close()
})
