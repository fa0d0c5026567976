import t from 'tap'
import { ex, show } from './helpers.js'

t.test('precedence follows QuestDB 8+', async (t) => {
  const cases: [string, string][] = [
    ['1 + 2 * 3', '(1 + (2 * 3))'],
    ['1 - 2 - 3', '((1 - 2) - 3)'],
    ['a % b * c / d', '(((a % b) * c) / d)'],
    ['-x::int', '(- x::int)'],
    ['~a + b', '((~ a) + b)'],
    ['1 << 2 + 3', '(1 << (2 + 3))'],
    ['a || b << 1', '(a || (b << 1))'],
    ['a || b & c', '((a || b) & c)'],
    ['a & b ^ c', '((a & b) ^ c)'],
    ['a ^ b | c', '((a ^ b) | c)'],
    ['a | b in (1)', '((a | b) in [1])'],
    ['a in (1) < b', '((a in [1]) < b)'],
    ['a < b = c', '((a < b) = c)'],
    ['a = b = c', '((a = b) = c)'],
    ['a < b like c', '((a < b) like c)'],
    ['not a = b and c or d', '(((not (a = b)) and c) or d)'],
    ['a or b and c', '(a or (b and c))'],
    ['a between 1 and 2 and b', '((a between 1 and 2) and b)'],
    ['a not between 1 + 1 and 5', '(a not between (1 + 1) and 5)'],
    ['a is not null = false', '((a is not null) = false)'],
    ['a <> b', '(a != b)'],
    ['a ~ b and c !~ d', '((a ~ b) and (c !~ d))'],
    ['a not ilike b', '(a not ilike b)'],
    ['(1 + 2) * 3', '((1 + 2) * 3)'],
    ['a - -1', '(a - -1)'],
    ['t.a + 1', '(t.a + 1)'],
  ]
  for (const [sql, want] of cases) t.equal(show(ex(sql)), want, sql)
})

t.test('literals', async (t) => {
  t.match(ex('1'), { kind: 'literal', type: 'int', text: '1', pos: 7 })
  t.match(ex('2147483647'), { type: 'int' })
  t.match(ex('2147483648'), { type: 'long', text: '2147483648' })
  t.match(ex('60_000_000'), { type: 'int', text: '60000000' })
  t.match(ex('10L'), { type: 'long', text: '10' })
  t.match(ex('1.5'), { type: 'double', text: '1.5' })
  t.match(ex('1e3'), { type: 'double', text: '1e3' })
  t.match(ex('NaN'), { type: 'double', text: 'NaN' })
  t.match(ex('0x1F'), { type: 'long256', text: '0x1F' })
  t.match(ex("'it''s'"), { type: 'string', value: "it's" })
  t.match(ex('true'), { type: 'boolean', value: true })
  t.match(ex('FALSE'), { type: 'boolean', value: false })
  t.match(ex('null'), { type: 'null' })
  t.match(ex('-5'), { kind: 'literal', type: 'int', text: '-5', pos: 7 })
  t.match(ex('-2147483648'), { type: 'long', text: '-2147483648' })
  t.match(ex('$2'), { kind: 'param', index: 2, pos: 7 })
})

t.test('calls, casts, case, subqueries', async (t) => {
  t.match(ex('count(*)'), { kind: 'call', name: 'count', star: true, args: [], pos: 7 })
  t.match(ex('count()'), { kind: 'call', name: 'count', star: false, args: [] })
  t.match(ex('count(distinct sym)'), { kind: 'call', distinct: true, args: [{ kind: 'column', name: 'sym' }] })
  t.match(ex('left(s, 2)'), { kind: 'call', name: 'left', args: [{}, { text: '2' }] })
  t.match(ex('information_schema.tables()'), { kind: 'call', name: 'information_schema.tables' })
  t.match(ex('cast(x as symbol)'), { kind: 'cast', type: 'symbol', shorthand: false, pos: 7, typePos: 17 })
  t.match(ex('x::timestamp'), { kind: 'cast', type: 'timestamp', shorthand: true, pos: 8, typePos: 10 })
  t.match(ex('x::geohash(8c)'), { type: 'geohash(8c)' })
  t.match(ex('x::decimal(18, 3)'), { type: 'decimal(18,3)' })
  t.match(ex('x::double[]'), { type: 'double[]' })
  t.match(ex("case when a > 1 then 'x' else 'y' end"), { kind: 'case', whens: [{ when: { kind: 'binary' }, then: { value: 'x' } }], else: { value: 'y' } })
  t.match(ex('case a when 1 then 2 end'), { kind: 'case', operand: { name: 'a' }, whens: [{ when: { text: '1' } }] })
  t.notOk('else' in ex('case when a then b end'))
  t.match(ex('(select 1)'), { kind: 'subquery', pos: 7, query: { kind: 'select' } })
  t.match(ex('exists (select 1)'), { kind: 'exists', not: false })
  t.match(ex('not exists (select 1)'), { kind: 'exists', not: true, pos: 7 })
  t.match(ex('extract(year from ts)'), { kind: 'extract', unit: 'year', expr: { name: 'ts' } })
  t.match(ex('(a)'), { kind: 'column', name: 'a' })
  t.match(ex('((select 1))'), { kind: 'subquery' })
})

t.test('IN forms', async (t) => {
  t.match(ex('a in (1, 2)'), { kind: 'in', not: false, list: [{ text: '1' }, { text: '2' }] })
  t.match(ex('a not in (b)'), { kind: 'in', not: true, list: [{ kind: 'column', name: 'b' }] })
  t.match(ex('a in (select x from t)'), { kind: 'in', list: { kind: 'select' } })
  t.match(ex("ts in '2024-01'"), { kind: 'in', list: [{ type: 'string', value: '2024-01' }] })
  t.match(ex('ts in $1'), { kind: 'in', list: [{ kind: 'param', index: 1 }] })
  t.match(ex('ts in interval(a, b)'), { kind: 'in', list: [{ kind: 'call', name: 'interval' }] })
})

t.test('window functions', async (t) => {
  t.match(ex('row_number() over ()'), { kind: 'call', over: { partitionBy: [], orderBy: [] } })
  t.match(ex('avg(x) over (partition by s order by ts desc rows between unbounded preceding and current row)'), {
    over: { partitionBy: [{ name: 's' }], orderBy: [{ desc: true }], frame: { units: 'rows', start: { kind: 'unbounded preceding' }, end: { kind: 'current row' } } },
  })
  t.match(ex("avg(x) over (order by ts range between '1' minute preceding and 2 following exclude current row)"), {
    over: { frame: { units: 'range', start: { kind: 'preceding', unit: 'minute', offset: { value: '1' } }, end: { kind: 'following', offset: { text: '2' } }, exclude: 'current row' } },
  })
  t.match(ex('sum(x) over (order by ts cumulative)'), { over: { frame: { units: 'rows', start: { kind: 'unbounded preceding' }, end: { kind: 'current row' } } } })
  t.match(ex('sum(x) over (order by ts rows 5 preceding)'), { over: { frame: { start: { kind: 'preceding' }, end: { kind: 'current row' } } } })
  t.match(ex('lag(x) ignore nulls over w'), { ignoreNulls: true, over: { base: 'w' } })
  t.match(ex('lag(x) respect nulls over (w order by ts)'), { ignoreNulls: false, over: { base: 'w', orderBy: [{}] } })
})
