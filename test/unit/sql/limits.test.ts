import t from 'tap'
import { parseStatement, parseStatements, expectedTokensAt } from '../../../lib/sql/parse.js'
import { parseLimits } from '../../../lib/sql/limits.js'
import { SqlError } from '../../../lib/errors.js'

/** The SqlError `f` throws (fails the test when it does not throw one). */
function errorOf(f: () => unknown): SqlError {
  try {
    f()
  } catch (e) {
    if (e instanceof SqlError) return e
    throw e
  }
  throw new Error('expected a SqlError')
}

const small = parseLimits({ maxLength: 120, maxListItems: 5, maxDepth: 10 })

t.test('a text over maxLength is 54000 at the first character past the limit', async (t) => {
  const e = errorOf(() => parseStatement(`select ${'1,'.repeat(60)}1`, small))
  t.equal(e.code, '54000')
  t.equal(e.position, 120)
  t.match(e.message, /too long: 128 characters, the limit is 120/)
})

t.test('a list over maxListItems is 54001 at the comma that starts the extra item', async (t) => {
  t.equal((parseStatement('select * from t where x in (1,2,3,4,5)', small) as { kind: string }).kind, 'select')
  const sql = 'select * from t where x in (1,2,3,4,5,6)'
  const e = errorOf(() => parseStatement(sql, small))
  t.equal(e.code, '54001')
  t.equal(e.position, sql.lastIndexOf(','))
  t.match(e.message, /a list has more than 5 items/)
  // VALUES rows are a list at the top level
  t.equal(errorOf(() => parseStatement('insert into t values (1),(2),(3),(4),(5),(6)', small)).code, '54001')
})

t.test('depth: operator chains, parentheses, CASE and set operations count; commas start siblings', async (t) => {
  t.equal(parseStatement('select 1+1+1+1+1+1+1+1+1', small).kind, 'select') // SELECT + 8 ops = 9
  const chain = 'select 1+1+1+1+1+1+1+1+1+1+1'
  const e = errorOf(() => parseStatement(chain, small))
  t.equal(e.code, '54001')
  t.equal(e.position, 'select 1+1+1+1+1+1+1+1+1+1'.length, 'at the operator that crosses the limit')
  t.equal(errorOf(() => parseStatement('select ((((((1))))))', small)).code, '54001')
  t.equal(parseStatement('select case when case when 1=1 then true end then 1 end + 1 + 1', small).kind, 'select')
  t.equal(errorOf(() => parseStatement(`select ${'case when '.repeat(5)}1${' then 1 end'.repeat(5)}`, small)).code, '54001')
  t.equal(errorOf(() => parseStatement('select 1 union select 1 union select 1 union select 1 union select 1 union select 1', small)).code, '54001')
  // siblings do not add up
  t.equal(parseStatement('select 1+1+1+1, 1+1+1+1, 1+1+1+1', small).kind, 'select')
  t.equal(parseStatement('select f(1+1+1, 1+1+1)', small).kind, 'select')
  // each statement of a script starts afresh
  t.equal(parseStatements('select 1+1+1+1+1+1+1+1; select 1+1+1+1+1+1+1+1', small).length, 2)
})

t.test('the default limits let ordinary bulk statements through', async (t) => {
  const inList = `select * from t where x in (${Array.from({ length: 30_000 }, (_, i) => i).join(',')})`
  const q = parseStatement(inList)
  t.equal(q.kind === 'select' && q.where?.kind === 'in' && Array.isArray(q.where.list) ? q.where.list.length : -1, 30_000)
  const rows = Array.from({ length: 30_000 }, (_, i) => `(${i}, 'a${i % 7}', ${i}.5)`).join(', ')
  const ins = parseStatement(`insert into t values ${rows}`)
  t.equal(ins.kind === 'insert' && ins.source.kind === 'values' ? ins.source.rows.length : -1, 30_000)
  t.equal(ins.kind === 'insert' && ins.source.kind === 'values' ? ins.source.rows[29_999]?.length : -1, 3)
})

t.test('a 6 KB and a 5 MB `1+1+...` are refused with 54001 / 54000, not parsed', async (t) => {
  const six = `select ${Array(3000).fill('1').join('+')}`
  t.equal(errorOf(() => parseStatement(six)).code, '54001')
  const five = `select ${'1+'.repeat(2_500_000)}1`
  const long = errorOf(() => parseStatement(five))
  t.equal(long.code, '54000')
  t.equal(long.position, parseLimits().maxLength, 'refused at the length limit, before lexing')
  const deep = errorOf(() => parseStatement(five, parseLimits({ maxLength: 10_000_000 })))
  t.equal(deep.code, '54001')
  // where the parser stopped, not how long it took: at the 1,000th operator, about 2 KB into the 5 MB
  t.ok(deep.position !== undefined && deep.position > 0 && deep.position < 10_000, `refused where the chain passes the depth limit (position ${deep.position})`)
})

t.test('a syntax error at the end of a long statement is reported, and completion stays bounded', async (t) => {
  const sql = `select * from t where x in (${Array.from({ length: 20_000 }, (_, i) => i).join(',')}) garbage garbage`
  const e = errorOf(() => parseStatement(sql))
  t.equal(e.code, '42601')
  t.equal(e.position, sql.indexOf('garbage'))
  t.ok(Array.isArray(expectedTokensAt(`select ${'1+'.repeat(2_000_000)}`, 4_000_000)), 'over the default length: refused before lexing')
  t.same(expectedTokensAt(`select ${'('.repeat(5000)}`, 5007), [], 'over the default depth: no completion, no crash')
})

t.test('limits must be positive integers', async (t) => {
  t.throws(() => parseLimits({ maxDepth: 0 }), { code: '22023' })
  t.throws(() => parseLimits({ maxLength: 1.5 }), { code: '22023' })
  t.same(parseLimits({ maxDepth: undefined }).maxDepth, 1000)
})
