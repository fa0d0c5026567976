/**
 * isWriteStatement: every statement that changes data or the catalog is a write, and nothing
 * that only reads (or only sets session state) is — the read-only modes of REST and pgwire
 * refuse by it.
 */
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { isWriteStatement } from '../../../lib/internal.js'

const db = await Database.open()
await db.query('create table t (ts timestamp, x int) timestamp(ts)')
const writes = (sql: string): boolean => isWriteStatement(db.parse(sql)[0]!)

t.test('writes', async (t) => {
  for (const sql of [
    'insert into t values (now(), 1)', 'insert into t select * from t', "update t set x = 2 where x = 1",
    'create table u (x int)', 'create table u as (select * from t)', 'create table u (like t)', 'drop table t',
    'truncate table t', 'rename table t to u', 'alter table t add column y int', 'alter table t drop column x',
    'delete from t', 'copy t from stdin', 'create index i on t (x)', 'create view v as (select 1)', 'alter view v as (select 1)', 'drop view v',
  ]) t.ok(writes(sql), sql)
})

t.test('reads', async (t) => {
  for (const sql of [
    'select 1', 'with a as (select 1) select * from a', 'select 1 union select 2', 'show tables', 'show server_version',
'set datestyle = iso', 'begin', 'commit', 'rollback',
    'declare c cursor for select 1', 'fetch 10 from c', 'close c',
  ]) t.notOk(writes(sql), sql)
})
