import t from 'tap'
import { pad, quoteIdent, splitPart, substring } from '../../../../lib/functions/scalar/string.js'
import { cst, run, vec } from './helpers.js'

t.test('helpers match the docs examples', async (t) => {
  t.equal(substring('Lorem ipsum dolor sit amet', -5, 9), 'Lor')
  t.equal(substring('UK2022072619373', 1, 2), 'UK')
  t.equal(substring('abc', -5, 5), '')
  t.equal(substring('abc', -5, 4), null)
  t.equal(substring('abc', 2), 'bc')
  t.equal(splitPart('Hello,QuestDB,SQL', ',', 2), 'QuestDB')
  t.equal(splitPart('a,b', ',', 5), '')
  t.equal(splitPart('a,b,c', ',', -1), 'c')
  t.equal(pad('QuestDB', 10, '0', true), '000QuestDB')
  t.equal(pad('QuestDB', 3, '0', true), 'Que')
  t.equal(pad('ab', 5, 'xy', false), 'abxyx')
  t.equal(quoteIdent('a b'), '"a b"')
  t.equal(quoteIdent('ab'), 'ab')
})

t.test('kernels', async (t) => {
  t.same(run('concat', [vec('STRING', ['Tim', null]), cst('STRING', ' '), vec('STRING', ['Thompson', 'x'])]), ['Tim Thompson', ' x'])
  t.same(run('concat', [cst('STRING', 'p='), vec('INT', [70867])]), ['p=70867'])
  t.same(run('length', [vec('STRING', ['AARON', null])]), [5, -1])
  t.same(run('length_bytes', [vec('VARCHAR', ['ДЖЕК', null])]), [8, -1])
  t.same(run('lower', [vec('STRING', ['questDB'])]), ['questdb'])
  t.same(run('upper', [vec('STRING', ['questDB'])]), ['QUESTDB'])
  t.same(run('left', [cst('STRING', 'Thompson'), cst('INT', 3)]), ['Tho'])
  t.same(run('right', [cst('STRING', 'Thompson'), cst('INT', 2)]), ['on'])
  t.same(run('strpos', [vec('STRING', ['Tim Thompson', 'Anna Mason']), cst('STRING', 'Thompson')]), [5, 0])
  t.same(run('replace', [cst('STRING', 'Hello World'), cst('STRING', 'World'), cst('STRING', 'QuestDB')]), ['Hello QuestDB'])
  t.same(run('trim', [cst('STRING', '   QuestDB   ')]), ['QuestDB'])
  t.same(run('ltrim', [cst('STRING', '   QuestDB   ')]), ['QuestDB   '])
  t.same(run('rtrim', [cst('STRING', 'Hello QuestDB   ')]), ['Hello QuestDB'])
  t.same(run('starts_with', [vec('STRING', ['Hello QuestDB', null]), cst('STRING', 'Hello')]), [true, false])
  t.same(run('regexp_replace', [vec('STRING', ['a1b22']), cst('STRING', '[0-9]+'), cst('STRING', '#')]), ['a#b#'])
  t.same(run('lpad', [cst('STRING', 'QuestDB'), cst('INT', 10), cst('STRING', '0')]), ['000QuestDB'])
})
