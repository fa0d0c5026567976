import t from 'tap'
import { cst, run, vec } from './helpers.js'

t.test('coalesce', async (t) => {
  t.same(run('coalesce', [vec('INT', [null, 2, null]), vec('INT', [1, 5, null]), cst('INT', 9, 3)], 'INT'), [1, 2, 9])
  t.same(run('coalesce', [vec('DOUBLE', [NaN, 1.5]), vec('INT', [3, 4])], 'DOUBLE'), [3, 1.5])
  t.same(run('coalesce', [vec('STRING', [null, 'a']), cst('STRING', 'z', 2)], 'STRING'), ['z', 'a'])
  t.same(run('coalesce', [vec('LONG', [null, 9223372036854775807n]), cst('LONG', 0, 2)], 'LONG'), [0, 9223372036854775807n])
})

t.test('nullif', async (t) => {
  t.same(run('nullif', [vec('INT', [1, 2, null]), cst('INT', 2, 3)]), [1, null, null])
  t.same(run('nullif', [vec('STRING', ['a', 'b']), cst('STRING', 'a', 2)]), [null, 'b'])
})
