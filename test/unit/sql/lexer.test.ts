import t from 'tap'
import { SqlError } from '../../../lib/errors.js'
import { tokenize, unquoteIdent, unquoteString } from '../../../lib/sql/lexer.js'

const kinds = (sql: string): string[] => tokenize(sql).map((tok) => `${tok.type}:${tok.text}@${tok.offset}`)

t.test('keywords are case-insensitive and typed by their upper-case spelling', async (t) => {
  t.same(kinds('SeLeCt x FROM t'), ['SELECT:SeLeCt@0', 'ident:x@7', 'FROM:FROM@9', 'ident:t@14'])
})

t.test('numbers, strings, identifiers, parameters', async (t) => {
  t.same(kinds(`1_000 10L 1.5 .5 1e10 2.5E-3 0xFF NaN 1h 15m $1 'it''s' "a""b"`), [
    'integer:1_000@0', 'long:10L@6', 'float:1.5@10', 'float:.5@14', 'float:1e10@17', 'float:2.5E-3@22',
    'hex:0xFF@29', 'NAN:NaN@34', 'duration:1h@38', 'duration:15m@41', 'param:$1@45', "string:'it''s'@48",
    'qident:"a""b"@56',
  ])
  t.equal(unquoteString("'it''s'"), "it's")
  t.equal(unquoteIdent('"a""b"'), 'a"b')
})

t.test('operators match the longest spelling', async (t) => {
  t.same(tokenize(':: || <<= >>= <= >= <> != !~ << >> ~ & | ^ % ( ) [ ] , . ;').map((x) => x.text),
    ['::', '||', '<<=', '>>=', '<=', '>=', '<>', '!=', '!~', '<<', '>>', '~', '&', '|', '^', '%', '(', ')', '[', ']', ',', '.', ';'])
  t.same(tokenize('a<<=b').map((x) => x.text), ['a', '<<=', 'b'])
})

t.test('comments and whitespace are skipped, offsets are kept', async (t) => {
  t.same(kinds('select -- c\n /* multi\nline */ 1'), ['SELECT:select@0', 'integer:1@30'])
})

t.test('lexer errors carry a position', async (t) => {
  const at = (sql: string): [string, number] => {
    try {
      tokenize(sql)
    } catch (e) {
      t.ok(e instanceof SqlError)
      const err = e as SqlError
      t.equal(err.code, '42601')
      return [err.message, err.position]
    }
    throw new Error('no error')
  }
  t.same(at("select 'abc"), ['unterminated string literal', 7])
  t.same(at('select "abc'), ['unterminated quoted identifier', 7])
  t.same(at('select 1 /* x'), ['unterminated comment', 9])
  t.same(at('select 1 # 2'), ["unexpected character '#'", 9])
})
