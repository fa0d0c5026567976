import t from 'tap'
import { checkColumnName, checkTableName, isTableDirName, nameKey, tableDirName } from '../../../lib/storage/names.js'

t.test('table names: QuestDB rules', async (t) => {
  for (const ok of ['trades', 'a.b', 'data.csv', 'a-b', '_dropped_x', 'with space', 'é表', 'x'.repeat(127)]) t.doesNotThrow(() => checkTableName(ok, 0), ok)
  for (const bad of ['', '.', '..', '.x', 'x.', 'a..b', '../x', 'a/b', 'a\\b', 'a:b', 'a~1', 'a?', 'a,b', "a'b", 'a"b', 'a)', 'a(', 'a+b', 'a*b', 'a%b', ' x', 'x ', 'a\u0000', 'a\u001f', 'a\u007f', '\ufeffa']) {
    t.throws(() => checkTableName(bad, 3), { code: '42602', position: 3 }, JSON.stringify(bad))
  }
  t.throws(() => checkTableName('x'.repeat(128), 5), { code: '42622', position: 5, message: /maxLength=127/ })
  t.throws(() => checkTableName('abcd', 0, 3), { code: '42622' })
  t.throws(() => checkTableName('a\u0000b', 0), { message: 'invalid table name [table=a\\u0000b]' })
})

t.test('column names: also no . or -, and a length in bytes', async (t) => {
  for (const ok of ['v', 'sym_1', 'é']) t.doesNotThrow(() => checkColumnName(ok, 0), ok)
  for (const bad of ['', 'a.b', 'a-b', '..', 'a/b', 'a\u0001']) t.throws(() => checkColumnName(bad, 1), { code: '42602' }, JSON.stringify(bad))
  t.throws(() => checkColumnName('é'.repeat(64), 0), { code: '42622' }, '128 bytes')
  t.doesNotThrow(() => checkColumnName('é'.repeat(63), 0))
})

t.test('name keys fold case and Unicode normalisation', async (t) => {
  t.equal(nameKey('Café'), nameKey('cafe\u0301'))
  t.equal(nameKey('ABC'), nameKey('abc'))
  t.not(nameKey('a'), nameKey('b'))
})

t.test('directory names: sanitised, bounded, with the id', async (t) => {
  t.equal(tableDirName('trades', 3), 'trades~3')
  t.equal(tableDirName('../x', 4), '___x~4')
  t.equal(tableDirName('a.b c', 5), 'a_b_c~5')
  t.equal(tableDirName('cafe\u0301', 6), 'café~6')
  const long = tableDirName('表'.repeat(127), 7)
  t.ok(Buffer.byteLength(long) <= 64 + 2, long)
  t.ok(isTableDirName(long))
  for (const internal of ['_db', '_lock', 'wal.log', '_trash', '_dropped_5', '_db.tmp']) t.notOk(isTableDirName(internal), internal)
})
