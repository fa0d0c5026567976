import t from 'tap'
import { parseScript, parseStatement, parseStatements } from '../../../lib/sql/parse.js'

t.test('CREATE TABLE', async (t) => {
  t.match(parseStatement("create atomic table if not exists 't1' (ts timestamp, s symbol capacity 256 nocache index capacity 1024, g geohash(8c), d decimal(18, 3), a double[], k int), index(k capacity 64) timestamp(ts) partition by day ttl 2 days wal dedup upsert keys(ts, s) with maxUncommittedRows=10000, o3MaxLag=10s"), {
    kind: 'create_table', name: 't1', namePos: 34, ifNotExists: true,
    columns: [
      { name: 'ts', type: 'timestamp' },
      { name: 's', type: 'symbol', symbolCapacity: 256, symbolCache: false, indexed: true, indexCapacity: 1024 },
      { name: 'g', type: 'geohash(8c)' }, { name: 'd', type: 'decimal(18,3)' }, { name: 'a', type: 'double[]' },
      { name: 'k', type: 'int', indexed: true, indexCapacity: 64 },
    ],
    options: {
      timestamp: { name: 'ts' }, partitionBy: 'DAY', ttl: { count: 2, unit: 'DAY' }, wal: true,
      dedupKeys: [{ name: 'ts' }, { name: 's' }], params: [{ name: 'maxUncommittedRows', value: '10000' }, { name: 'o3MaxLag', value: '10s' }],
    },
  })
  t.match(parseStatement('create table t (a int) timestamp(a) partition by month ttl 3M bypass wal'), { options: { partitionBy: 'MONTH', ttl: { count: 3, unit: 'MONTH' }, wal: false } })
  t.match(parseStatement('create table t (a int)'), { kind: 'create_table', ifNotExists: false, options: {} })
  t.match(parseStatement('create table x as (select * from t), cast(a as symbol) timestamp(ts) partition by hour'), {
    kind: 'create_table_as', name: 'x', query: { kind: 'select' }, casts: [{ column: 'a', type: 'symbol' }], options: { partitionBy: 'HOUR' },
  })
  t.match(parseStatement('create table x (like y)'), { kind: 'create_table_like', name: 'x', like: 'y', likePos: 21 })
})

t.test('DROP / TRUNCATE / RENAME', async (t) => {
  t.match(parseStatement('drop table if exists a, "b"'), { kind: 'drop_table', ifExists: true, all: false, names: [{ name: 'a', pos: 21 }, { name: 'b' }] })
  t.match(parseStatement('drop all tables'), { kind: 'drop_table', all: true, names: [] })
  t.match(parseStatement('truncate table t'), { kind: 'truncate_table', names: [{ name: 't' }], ifExists: false })
  t.match(parseStatement("rename table 'a' to b"), { kind: 'rename_table', from: 'a', fromPos: 13, to: 'b', toPos: 20 })
})

t.test('ALTER TABLE', async (t) => {
  const a = (sql: string): unknown => (parseStatement(`alter table t ${sql}`) as { action: unknown }).action
  t.match(a('add column if not exists c int, d symbol capacity 64'), { kind: 'add_column', ifNotExists: true, columns: [{ name: 'c' }, { name: 'd', symbolCapacity: 64 }] })
  t.match(a('drop column a, b'), { kind: 'drop_column', names: [{ name: 'a' }, { name: 'b' }] })
  t.match(a('rename column a to b'), { kind: 'rename_column', from: 'a', to: 'b' })
  t.match(a('alter column a type symbol'), { kind: 'alter_column_type', column: 'a', type: 'symbol' })
  t.match(a('alter column a add index'), { kind: 'column_index', add: true })
  t.match(a('alter column a drop index'), { kind: 'column_index', add: false })
  t.match(a('alter column a nocache'), { kind: 'column_cache', cache: false })
  t.match(a("drop partition list '2024-01-01', '2024-01-02'"), { kind: 'drop_partition', list: [{ value: '2024-01-01' }, { value: '2024-01-02' }] })
  t.match(a("drop partition where ts < '2024'"), { kind: 'drop_partition', where: { kind: 'binary' } })
  t.match(a('dedup enable upsert keys(ts, s)'), { kind: 'dedup', enable: true, keys: [{ name: 'ts' }, { name: 's' }] })
  t.match(a('dedup disable'), { kind: 'dedup', enable: false })
  t.match(a('set ttl 2 weeks'), { kind: 'set_ttl', count: 2, unit: 'WEEK' })
  t.match(a('set ttl 12h'), { kind: 'set_ttl', count: 12, unit: 'HOUR' })
  t.match(a('set param maxUncommittedRows = 100'), { kind: 'set_param', name: 'maxUncommittedRows', value: '100' })
  t.match(a('set type bypass wal'), { kind: 'set_type_wal', wal: false })
  t.match(a('set type wal'), { kind: 'set_type_wal', wal: true })
})

t.test('INSERT and UPDATE', async (t) => {
  t.match(parseStatement("insert into t values (1, 'a'), (2, null)"), { kind: 'insert', table: 't', tablePos: 12, atomic: false, source: { kind: 'values', rows: [[{ text: '1' }, { value: 'a' }], [{}, { type: 'null' }]] } })
  t.notOk('columns' in parseStatement('insert into t values (1)'))
  t.match(parseStatement('insert atomic into t (a, b) select x, y from u'), { atomic: true, columns: [{ name: 'a' }, { name: 'b' }], source: { kind: 'query', query: { kind: 'select' } } })
  t.match(parseStatement('insert into t (select * from u)'), { source: { kind: 'query' } })
  t.match(parseStatement('with q as (select 1 a) insert into t select * from q'), { kind: 'insert', ctes: [{ name: 'q' }], source: { kind: 'query' } })
  t.match(parseStatement("update t x set a = 1, b = 'z' from u join v on v.id = u.id where x.id = u.id"), {
    kind: 'update', table: 't', alias: 'x', set: [{ column: 'a', value: { text: '1' } }, { column: 'b' }], from: { name: 'u' }, joins: [{ type: 'inner' }], where: {},
  })
  t.match(parseStatement('update t set a = a + 1'), { kind: 'update', joins: [], set: [{ column: 'a' }] })
})

t.test('SHOW, EXPLAIN, transactions, SET', async (t) => {
  t.match(parseStatement('show tables'), { kind: 'show', what: 'tables' })
  t.match(parseStatement('show columns from t'), { what: 'columns', table: 't', tablePos: 18 })
  t.match(parseStatement('show partitions from t'), { what: 'partitions', table: 't' })
  t.match(parseStatement('show create table t'), { what: 'create_table', table: 't' })
  t.match(parseStatement('SHOW server_version'), { what: 'parameter', name: 'server_version' })
  t.match(parseStatement('show time zone'), { what: 'parameter', name: 'timezone' })
  t.match(parseStatement('show transaction isolation level'), { what: 'parameter', name: 'transaction isolation level' })
  t.match(parseStatement('show users'), { kind: 'acl', action: 'show_users' })
  t.match(parseStatement('explain select 1'), { kind: 'explain', statement: { kind: 'select' } })
  t.match(parseStatement('explain (format json) insert into t values (1)'), { kind: 'explain', format: 'json', statement: { kind: 'insert' } })
  for (const [sql, action] of [['begin', 'begin'], ['BEGIN TRANSACTION', 'begin'], ['start transaction', 'begin'], ['commit', 'commit'], ['end', 'commit'], ['rollback work', 'rollback'], ['abort', 'rollback']] as const) {
    t.match(parseStatement(sql), { kind: 'transaction', action }, sql)
  }
  t.match(parseStatement('set a = 1'), { kind: 'set', name: 'a', value: '1' })
  t.match(parseStatement("set application_name to 'psql'"), { name: 'application_name', value: 'psql' })
  t.match(parseStatement('set datestyle to ISO, MDY'), { name: 'datestyle', value: 'ISO, MDY' })
  t.match(parseStatement("SET TIME ZONE 'UTC'"), { name: 'timezone', value: 'UTC' })
  t.match(parseStatement('set session characteristics as transaction isolation level read committed'), { name: 'session characteristics', value: 'transaction isolation level read committed' })
  t.notOk('value' in parseStatement('set statement_timeout to default'))
})

t.test('unsupported statements parse to kind unsupported', async (t) => {
  const cases: [string, string][] = [
    ['delete from t where a = 1', 'DELETE'], ['declare c cursor for select 1', 'DECLARE CURSOR'], ['fetch 10 from c', 'FETCH'],
    ['move next in c', 'MOVE'], ['close c', 'CLOSE'], ["copy t from 'x.csv'", 'COPY'], ['create index i on t (a)', 'CREATE INDEX'],
  ]
  for (const [sql, feature] of cases) t.match(parseStatement(sql), { kind: 'unsupported', feature, pos: 0 }, sql)
})

t.test('materialized view statements', async (t) => {
  t.match(parseStatement("create materialized view if not exists v with base t refresh every 1h deferred start '2025-01-01' as (select ts, avg(x) from t sample by 1h) partition by day ttl 3 days"), {
    kind: 'mat_view', op: 'create', name: 'v', ifNotExists: true, base: { name: 't' },
    refresh: { kind: 'every', deferred: true, every: { count: 1, unit: 'h' }, start: { value: '2025-01-01' } },
    sql: 'select ts, avg(x) from t sample by 1h', partitionBy: 'DAY', ttl: { count: 3, unit: 'DAY' },
  })
  // the compact form: the query without parentheses, no options
  t.match(parseStatement('create materialized view v refresh manual as select ts, avg(x) from t sample by 1h'), { op: 'create', refresh: { kind: 'manual', deferred: false }, sql: 'select ts, avg(x) from t sample by 1h' })
  t.match(parseStatement('refresh materialized view v full'), { kind: 'mat_view', op: 'refresh', mode: 'full' })
  t.match(parseStatement('refresh materialized view v incremental'), { op: 'refresh', mode: 'incremental' })
  t.match(parseStatement("refresh materialized view v range from '2025-01-01' to '2025-01-02'"), { op: 'refresh', mode: 'range', from: { value: '2025-01-01' }, to: { value: '2025-01-02' } })
  t.match(parseStatement('drop materialized view if exists v'), { op: 'drop', ifExists: true })
  t.match(parseStatement('alter materialized view v set ttl 2 weeks'), { op: 'alter', action: { kind: 'set_ttl', count: 2, unit: 'WEEK' } })
  t.match(parseStatement('alter materialized view v set refresh immediate'), { op: 'alter', action: { kind: 'set_refresh', refresh: { kind: 'immediate' } } })
  t.throws(() => parseStatement('create materialized view v refresh sometimes as (select 1)'), { code: '42601' })
  t.throws(() => parseStatement('refresh materialized view v partly'), { code: '42601' })
})

t.test('scripts split at top-level semicolons', async (t) => {
  t.same(parseStatements("select 'a;b'; ; select 2;").map((s) => s.kind), ['select', 'select'])
  const parts = parseScript('select 1;\n  create table t (a int);')
  t.match(parts, [{ start: 0, end: 8, text: 'select 1' }, { start: 12, text: 'create table t (a int)', statement: { kind: 'create_table', pos: 12, namePos: 25 } }])
  t.same(parseStatements(' ;; '), [])
  t.match(parseStatement('select 1;'), { kind: 'select' })
})
