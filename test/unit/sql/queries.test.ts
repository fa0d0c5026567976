import t from 'tap'
import { parseStatement } from '../../../lib/sql/parse.js'
import { sel, show } from './helpers.js'

t.test('select list, aliases, stars, trailing comma', async (t) => {
  const q = sel('select a as x, b y, "c" "z", t.*, *, d from t')
  t.match(q.columns, [
    { expr: { name: 'a' }, alias: 'x', aliasPos: 12 },
    { expr: { name: 'b' }, alias: 'y', aliasPos: 17 },
    { expr: { name: 'c' }, alias: 'z' },
    { expr: { kind: 'star', table: 't' } },
    { expr: { kind: 'star' } },
    { expr: { name: 'd' } },
  ])
  t.equal(sel('select a, b, from t').columns.length, 2)
  t.equal(sel('select distinct a from t').distinct, true)
  t.notOk(sel('select 1').from)
})

t.test('FROM items: tables, functions, subqueries, timestamp()', async (t) => {
  t.match(sel('select * from trades t').from, { kind: 'table', name: 'trades', alias: 't', pos: 14 })
  t.match(sel('select * from long_sequence(10) x timestamp(ts)').from, { kind: 'function', call: { name: 'long_sequence' }, alias: 'x', timestamp: 'ts' })
  t.match(sel('select * from (select 1) s').from, { kind: 'subquery', alias: 's', query: { kind: 'select' } })
  t.match(sel("select * from 'my table'").from, { kind: 'table', name: 'my table' })
  t.match(sel('select * from pg_catalog.pg_class').from, { kind: 'table', name: 'pg_catalog.pg_class' })
})

t.test('joins', async (t) => {
  const q = sel('select * from a join b on a.id = b.id left outer join c on c.x = a.x cross join d, e asof join f on (sym, venue) tolerance 1h lt join g on sym splice join h')
  t.match(q.joins, [
    { type: 'inner', table: { name: 'b' }, on: { kind: 'binary', op: '=' } },
    { type: 'left', table: { name: 'c' } },
    { type: 'cross', table: { name: 'd' } },
    { type: 'cross', table: { name: 'e' } },
    { type: 'asof', table: { name: 'f' }, using: ['sym', 'venue'], tolerance: { value: '1h' } },
    { type: 'lt', using: ['sym'] },
    { type: 'splice', table: { name: 'h' } },
  ])
  t.match(sel('select * from a right join b on a.x = b.x full join c on c.y = b.y').joins, [{ type: 'right' }, { type: 'full' }])
  t.match(sel('select * from a asof join b on (sym)').joins, [{ using: ['sym'] }])
  t.equal(sel('select * from a inner join b on a.x = b.x').joins[0]?.pos, 16)
})

t.test('time-series clauses', async (t) => {
  const q = sel("select first(p) from t where x > 1 sample by 15m from '2024-01-01' to '2024-02-01' fill(prev, null, 0, linear, none) align to calendar time zone 'Europe/Berlin' with offset '00:30'")
  t.match(q.sampleBy, {
    interval: '15m', intervalPos: 45, from: { value: '2024-01-01' }, to: { value: '2024-02-01' },
    fill: [{ kind: 'prev' }, { kind: 'null' }, { kind: 'value', value: { text: '0' } }, { kind: 'linear' }, { kind: 'none' }],
    align: { kind: 'calendar', timeZone: { value: 'Europe/Berlin' }, offset: { value: '00:30' } },
  })
  t.match(sel('select * from t sample by 1h').sampleBy, { fill: [], align: { kind: 'calendar' } })
  t.match(sel('select * from t sample by 1m align to first observation').sampleBy, { align: { kind: 'first observation' } })
  t.match(sel('select * from t where a = 1 latest on ts partition by s, v').latestOn, { timestamp: 'ts', partitionBy: [{ name: 's' }, { name: 'v' }], legacy: false })
  t.match(sel('select * from t latest by s').latestOn, { partitionBy: [{ name: 's' }], legacy: true })
  t.match(sel('select s, count() from t group by s').groupBy, [{ name: 's' }])
  t.match(sel('select avg(x) over w from t window w as (partition by s order by ts)').windows, [{ name: 'w', spec: { partitionBy: [{}], orderBy: [{}] } }])
})

t.test('ORDER BY and LIMIT', async (t) => {
  const q = sel('select * from t order by a desc nulls last, b, c asc nulls first limit 10')
  t.match(q.orderBy, [{ desc: true, nulls: 'last' }, { desc: false }, { desc: false, nulls: 'first' }])
  t.match(q.limit, { lo: { text: '10' } })
  t.match(sel('select * from t limit -5').limit, { lo: { type: 'int', text: '-5' } })
  t.match(sel('select * from t limit 5, 10').limit, { lo: { text: '5' }, hi: { text: '10' } })
  t.match(sel('select * from t limit -10, -5').limit, { lo: { text: '-10' }, hi: { text: '-5' } })
})

t.test('set operations and WITH', async (t) => {
  const s = parseStatement('select a from t union all select b from u except select c from v intersect select d from w order by 1 limit 2')
  t.match(s, { kind: 'setop', op: 'except', all: false, left: { kind: 'setop', op: 'union', all: true }, right: { kind: 'setop', op: 'intersect' }, orderBy: [{}], limit: {} })
  t.match(parseStatement('(select a from t order by a limit 1) union (select b from u)'), { kind: 'setop', left: { kind: 'select', limit: {} } })
  t.match(parseStatement('with a as (select 1), b as (select * from a) select * from b'), { kind: 'with', ctes: [{ name: 'a', pos: 5 }, { name: 'b' }], body: { kind: 'select' } })
})

t.test('query shorthands', async (t) => {
  t.match(parseStatement('trades'), { kind: 'select', columns: [{ expr: { kind: 'star' } }], from: { kind: 'table', name: 'trades' } })
  t.match(parseStatement("trades where sym = 'a' order by ts desc limit 10"), { kind: 'select', from: { name: 'trades' }, where: { kind: 'binary' }, orderBy: [{ desc: true }], limit: {} })
  t.match(parseStatement('trades latest on ts partition by sym'), { latestOn: { timestamp: 'ts' } })
  t.match(parseStatement('(trades)'), { kind: 'select', from: { name: 'trades' } })
  t.match(parseStatement('(select * from t latest on ts partition by k) where balance > 800'), {
    kind: 'select', from: { kind: 'subquery', query: { latestOn: {} } }, where: { op: '>' },
  })
})

t.test('keywords QuestDB users use as names', async (t) => {
  const names = ['timestamp', 'symbol', 'date', 'value', 'count', 'first', 'last', 'year', 'month', 'day', 'hour', 'minute', 'second',
    'type', 'key', 'index', 'name', 'status', 'data', 'level', 'user', 'time', 'zone', 'partition', 'offset', 'capacity', 'cache',
    'format', 'ttl', 'dedup', 'keys', 'upsert', 'sample', 'fill', 'align', 'calendar', 'observation', 'tolerance', 'latest', 'wal',
    'bypass', 'show', 'columns', 'tables', 'range', 'rows', 'list', 'table', 'column', 'current']
  for (const n of names) {
    const q = sel(`select ${n}, t.${n}, ${n} + 1 as ${n} from ${n} t where ${n} > 0 order by ${n}`)
    t.match(q.columns[0], { expr: { kind: 'column', name: n } }, n)
    t.match(q.from, { name: n }, n)
  }
  t.match(parseStatement('create table x (timestamp timestamp, symbol symbol, value double) timestamp(timestamp)'), {
    kind: 'create_table', columns: [{ name: 'timestamp', type: 'timestamp' }, { name: 'symbol', type: 'symbol' }, { name: 'value', type: 'double' }],
    options: { timestamp: { name: 'timestamp' } },
  })
  t.match(sel('select timestamp, count() from x sample by 1h'), { columns: [{ expr: { name: 'timestamp' } }, { expr: { name: 'count' } }], sampleBy: { interval: '1h' } })
  t.match(sel('select first(price) first, last(price) last from t').columns, [{ alias: 'first' }, { alias: 'last' }])
  t.match(sel('select "select" from "from"'), { columns: [{ expr: { name: 'select' } }], from: { name: 'from' } })
})

t.test('positions', async (t) => {
  const q = sel('SELECT  price * 2 AS p FROM trades WHERE sym = $1')
  t.equal(q.pos, 0)
  t.match(q.columns[0], { expr: { kind: 'binary', pos: 14, left: { pos: 8 }, right: { pos: 16 } }, aliasPos: 21 })
  t.match(q.from, { pos: 28 })
  t.match(q.where, { pos: 45, left: { pos: 41 }, right: { kind: 'param', pos: 47 } })
  t.equal(show(q.where!), '(sym = param)')
})
