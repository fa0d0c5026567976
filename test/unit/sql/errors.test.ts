import t from 'tap'
import { parseStatement, parseStatements } from '../../../lib/sql/parse.js'
import { syntaxErrorOf } from './helpers.js'

t.test('syntax errors name the offending token and what was expected', async (t) => {
  const cases: [string, number, string][] = [
    ['selec 1', 0, "unexpected 'selec', expected a statement such as SELECT, INSERT, CREATE or a table name"],
    ['select * frm t', 9, "unexpected 'frm', expected ',', FROM, INTERSECT, UNION, EXCEPT, ORDER, LIMIT or end of statement"],
    ['select from', 7, "unexpected 'from', expected DISTINCT, '*' or an expression"],
    ['select 1 +', 10, 'unexpected end of statement, expected an expression'],
    ['select 1 +   ', 13, 'unexpected end of statement, expected an expression'],
    ['create table t (a int', 21, "unexpected end of statement, expected '(', '[', CAPACITY, CACHE, NOCACHE, INDEX, ',' or ')'"],
    ['select f(1 2)', 11, "unexpected '2', expected ',', ')' or an operator"],
    ['select * from t where a = 1 group', 33, 'unexpected end of statement, expected BY'],
    ['create tabl x', 7, "unexpected 'tabl', expected MATERIALIZED, INDEX, TABLE, SERVICE, GROUP, USER, ATOMIC, OR or VIEW"],
    ["select * from t where s = 'a' samle by 1h", 30, "unexpected 'samle', expected LATEST, SAMPLE, GROUP, WINDOW, INTERSECT, UNION, EXCEPT, ORDER, LIMIT, an operator or end of statement"],
    ['select 1;', -1, ''],
  ]
  for (const [sql, pos, message] of cases) {
    if (pos < 0) continue
    const e = syntaxErrorOf(sql)
    t.equal(e.code, '42601', sql)
    t.equal(e.position, pos, sql)
    t.equal(e.message, message, sql)
  }
})

t.test("COMPILE VIEW's syntax errors: QuestDB's words at its positions (SqlParser.parseCompileView)", async (t) => {
  const cases: [string, number, string, string][] = [
    ['COMPILE', 7, '42601', "'view' expected"],
    ['COMPILE TABLE t', 8, '42601', "'view' expected"],
    ['compile views', 8, '42601', "'view' expected"],
    // just past VIEW, trailing blanks or not
    ['COMPILE VIEW', 12, '42601', 'view name expected'],
    ['COMPILE VIEW   ', 12, '42601', 'view name expected'],
    ['COMPILE VIEW v bla', 15, '42601', 'unexpected token [bla]'],
    ['COMPILE VIEW v bla bla', 15, '42601', 'unexpected token [bla]'],
    ['COMPILE VIEW "v" (', 17, '42601', 'unexpected token [(]'],
    // a token that cannot be a name is looked up as one
    ['COMPILE VIEW (', 13, '42P01', 'view does not exist [view=(]'],
    ['COMPILE VIEW 12', 13, '42P01', 'view does not exist [view=12]'],
  ]
  for (const [sql, pos, code, message] of cases) {
    let e: { code?: string; position?: number; message?: string } = {}
    try { parseStatement(sql) } catch (err) { e = err as typeof e }
    t.equal(e.code, code, sql)
    t.equal(e.position, pos, sql)
    t.equal(e.message, message, sql)
  }
  t.same(parseStatement('COMPILE VIEW v;'), { kind: 'compile_view', pos: 0, name: 'v', namePos: 13 })
  // COMPILE starts a statement: it is not the query shorthand's table (FROM compile still is)
  t.equal(parseStatement('SELECT * FROM compile').kind, 'select')
})

t.test('lexer errors surface through the parser with their position', async (t) => {
  t.match(syntaxErrorOf("select 'abc"), { code: '42601', position: 7, message: 'unterminated string literal' })
  t.match(syntaxErrorOf('select 1 /* x'), { position: 9, message: 'unterminated comment' })
  t.match(syntaxErrorOf('select @'), { position: 7 })
})

t.test('semantic checks inside the grammar', async (t) => {
  t.match(syntaxErrorOf('create table t (a timestamp) timestamp(a) partition by dya'), { code: '42601', position: 55 })
  t.match(syntaxErrorOf('create table t (a timestamp) timestamp(a) partition by day ttl 2 fortnights'), { code: '42601', position: 65 })
  t.match(syntaxErrorOf('explain (format yaml) select 1'), { position: 16 })
})

t.test('statement counting', async (t) => {
  t.match(syntaxErrorOf(''), { code: '42601', message: 'empty statement' })
  t.match(syntaxErrorOf('select 1; select 2'), { position: 10 })
  let position = -1
  try {
    parseStatements('select 1; select * frm t')
  } catch (e) {
    position = (e as { position: number }).position
  }
  t.equal(position, 19)
  t.doesNotThrow(() => parseStatement('select 1 ; '))
})
