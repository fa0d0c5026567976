/**
 * requiredPermissions, through `Database.statementInfo(stmt).permissions`: what each statement
 * kind needs, with QuestDB Enterprise's permission names, derived from the bound plan (the
 * columns actually read, through joins, subqueries, CTEs, set operations and time-series
 * clauses) and the coarse fallback for a statement that does not bind.
 */
import t from 'tap'
import { Database, type RequiredPermission } from '../../../../lib/index.js'

const db = await Database.open()
await db.query('create table t (ts timestamp, a int, b double, s symbol) timestamp(ts) partition by day')
await db.query('create table u (ts timestamp, k symbol, v double) timestamp(ts) partition by day')

const perms = (sql: string): readonly RequiredPermission[] => db.statementInfo(db.parse(sql)[0]!).permissions
const sel = (table: string, ...columns: string[]): RequiredPermission => ({ permission: 'SELECT', table, columns })
const T_ALL = ['ts', 'a', 'b', 's']

const CASES: readonly [string, readonly RequiredPermission[]][] = [
  // queries: the columns read, select * every column, count(*) none (SELECT on any column)
  ['select * from t', [sel('t', ...T_ALL)]],
  ['select a from t where b > 1', [sel('t', 'a', 'b')]],
  ['select count(*) from t', [sel('t')]],
  ['select s, sum(b) from t order by s', [sel('t', 'b', 's')]],
  ['select a from (select a, b from t)', [sel('t', 'a')]],
  ['with x as (select a, b from t) select a from x', [sel('t', 'a')]],
  ['with x as (select a from t) select 1', []],
  ['select t.a, u.v from t join u on t.s = u.k', [sel('t', 'a', 's'), sel('u', 'k', 'v')]],
  ['select t.a from t left join u on t.s = u.k and u.v > 0', [sel('t', 'a', 's'), sel('u', 'k', 'v')]],
  ['select a from t asof join u', [sel('t', 'ts', 'a'), sel('u', 'ts')]],
  ['select a from t asof join u on (s = k)', [sel('t', 'ts', 'a', 's'), sel('u', 'ts', 'k')]],
  ['select a from t union select 1', [sel('t', 'a')]],
  ['select b from t except select v from u', [sel('t', 'b'), sel('u', 'v')]],
  ['select distinct s from t', [sel('t', 's')]],
  ['select (select max(v) from u) from t', [sel('u', 'v'), sel('t')]],
  ['select a from t where a in (select v::int from u)', [sel('u', 'v'), sel('t', 'a')]],
  ['select a from t where exists (select 1 from u where k = \'x\')', [sel('u', 'k'), sel('t', 'a')]],
  ['select ts, avg(b) from t sample by 1h', [sel('t', 'ts', 'b')]],
  ['select s, b from t latest on ts partition by s', [sel('t', 'ts', 'b', 's')]],
  ['select a, row_number() over (partition by s order by b) from t', [sel('t', 'a', 'b', 's')]],
  ['select a from t limit 5', [sel('t', 'a')]],
  ['select 1', []],
  ['select x from long_sequence(3)', []],
  // metadata: no permission (visibility is catalog filtering's business)
  ['select * from tables()', []],
  ["select * from table_columns('t')", []],
  ['show tables', []],
  ['show columns from t', []],
  // EXPLAIN needs what the explained statement needs
  ['explain select b from t where a = 1', [sel('t', 'a', 'b')]],
  // writes
  ['insert into t (ts, a) values (now(), 1)', [{ permission: 'INSERT', table: 't' }]],
  ['insert into t values (now(), 1, 2, \'x\')', [{ permission: 'INSERT', table: 't' }]],
  ['insert into t (ts, a) values (now(), (select max(v)::int from u))', [{ permission: 'INSERT', table: 't' }, sel('u', 'v')]],
  ['insert into u select ts, s, b from t', [{ permission: 'INSERT', table: 'u' }, sel('t', 'ts', 'b', 's')]],
  ['with x as (select ts, s, b from t) insert into u select * from x', [{ permission: 'INSERT', table: 'u' }, sel('t', 'ts', 'b', 's')]],
  ['update t set a = 1', [{ permission: 'UPDATE', table: 't', columns: ['a'] }, sel('t')]],
  ["update t set a = b::int where s = 'x'", [{ permission: 'UPDATE', table: 't', columns: ['a'] }, sel('t', 'b', 's')]],
  ['update t set a = u.v::int from u where t.s = u.k', [{ permission: 'UPDATE', table: 't', columns: ['a'] }, sel('t', 's'), sel('u', 'k', 'v')]],
  // DDL
  ['create table z (ts timestamp, x int) timestamp(ts)', [{ permission: 'CREATE TABLE' }]],
  ['create table z as (select a from t)', [{ permission: 'CREATE TABLE' }, sel('t', 'a')]],
  ['create table z (like t)', [{ permission: 'CREATE TABLE' }, sel('t')]],
  ['drop table t, u', [{ permission: 'DROP TABLE', table: 't' }, { permission: 'DROP TABLE', table: 'u' }]],
  ['drop table if exists nope', [{ permission: 'DROP TABLE', table: 'nope' }]],
  ['drop all tables', [{ permission: 'DROP TABLE', table: 't' }, { permission: 'DROP TABLE', table: 'u' }]],
  ['truncate table T', [{ permission: 'TRUNCATE TABLE', table: 't' }]],
  ['rename table t to t2', [{ permission: 'RENAME TABLE', table: 't' }]],
  ['alter table t add column c int', [{ permission: 'ADD COLUMN', table: 't' }]],
  ['alter table t drop column b', [{ permission: 'DROP COLUMN', table: 't', columns: ['b'] }]],
  ['alter table t rename column a to aa', [{ permission: 'RENAME COLUMN', table: 't', columns: ['a'] }]],
  ['alter table t alter column a type long', [{ permission: 'ALTER COLUMN TYPE', table: 't', columns: ['a'] }]],
  ['alter table t alter column s add index', [{ permission: 'ADD INDEX', table: 't', columns: ['s'] }]],
  ['alter table t alter column s drop index', [{ permission: 'DROP INDEX', table: 't', columns: ['s'] }]],
  ['alter table t alter column s nocache', [{ permission: 'ALTER COLUMN CACHE', table: 't', columns: ['s'] }]],
  ["alter table t drop partition list '2024-01-01'", [{ permission: 'DROP PARTITION', table: 't' }]],
  ['alter table t dedup enable upsert keys(ts)', [{ permission: 'DEDUP ENABLE', table: 't' }]],
  ['alter table t dedup disable', [{ permission: 'DEDUP DISABLE', table: 't' }]],
  ['alter table t set ttl 2 days', [{ permission: 'SET TABLE PARAM', table: 't' }]],
  ['alter table t set param maxUncommittedRows = 10', [{ permission: 'SET TABLE PARAM', table: 't' }]],
  ['alter table t set type bypass wal', [{ permission: 'SET TABLE TYPE', table: 't' }]],
  // session statements need nothing
  ['begin', []],
  ['commit', []],
  ["set time zone 'UTC'", []],
  ['show server_version', []],
]

for (const [sql, expected] of CASES) {
  t.test(sql, async (t) => {
    t.strictSame(perms(sql), expected)
  })
}

t.test('a statement that does not bind needs SELECT on the whole of every table it names', async (t) => {
  t.strictSame(perms('select nosuch from t'), [{ permission: 'SELECT', table: 't' }])
  const byTable = (ps: readonly RequiredPermission[]) => [...ps].sort((x, y) => (x.table ?? '').localeCompare(y.table ?? ''))
  t.strictSame(byTable(perms('select a from t join u on t.nosuch = u.k')), [{ permission: 'SELECT', table: 't' }, { permission: 'SELECT', table: 'u' }])
  t.strictSame(perms('update t set a = nosuch'), [{ permission: 'UPDATE', table: 't' }, { permission: 'SELECT', table: 't' }])
  t.strictSame(perms('insert into t (nosuch) values (1)'), [{ permission: 'INSERT', table: 't' }])
  t.strictSame(perms('explain select nosuch from u'), [{ permission: 'SELECT', table: 'u' }])
  t.strictSame(perms('select * from nope'), [], 'an unknown table: its 42P01 comes when it runs')
})

t.test('two reads of one table are one SELECT with the columns merged', async (t) => {
  t.strictSame(perms('select a from t union all select b::int from t'), [sel('t', 'a', 'b')])
  t.strictSame(perms('select x.a, y.b from t x join t y on x.s = y.s'), [sel('t', 'a', 'b', 's')])
})
