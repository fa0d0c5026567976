import t from 'tap'
import { cst, run, vec } from './helpers.js'

t.test('and / or / not', async (t) => {
  const a = vec('BOOLEAN', [true, true, false, false])
  const b = vec('BOOLEAN', [true, false, true, false])
  t.same(run('and', [a, b]), [true, false, false, false])
  t.same(run('or', [a, b]), [true, true, true, false])
  t.same(run('not', [a]), [false, false, true, true])
  t.same(run('and', [a, cst('BOOLEAN', false, 4)]), [false, false, false, false])
  t.same(run('or', [cst('BOOLEAN', false, 4), b]), [true, false, true, false])
  t.same(run('not', [cst('BOOLEAN', true, 2)]), [false, false])
})

t.test('bitwise', async (t) => {
  t.same(run('&', [vec('INT', [12, null]), cst('INT', 10)]), [8, null])
  t.same(run('|', [vec('INT', [12]), cst('INT', 10)]), [14])
  t.same(run('^', [vec('INT', [12]), cst('INT', 10)]), [6])
  t.same(run('&', [vec('LONG', [-1, 0x1_0000_000f, null]), cst('LONG', 0x1_0000_0005)]), [0x1_0000_0005, 0x1_0000_0005, null])
  t.same(run('|', [vec('LONG', [-8]), cst('LONG', 3)]), [-5])
  t.same(run('^', [vec('LONG', [2 ** 40]), cst('LONG', -1)]), [-(2 ** 40) - 1])
  t.same(run('&', [vec('LONG', [9223372036854775807n]), cst('LONG', 255)]), [255])
  t.same(run('bitnot', [vec('INT', [5, null])]), [-6, null])
  t.same(run('bitnot', [vec('LONG', [5, null])]), [-6, null])
  t.same(run('&', [vec('IPV4', [0xc0a80164]), cst('IPV4', 0xffffff00)]), [0xc0a80100])
})
