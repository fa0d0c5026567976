import t from 'tap'
import { roundScaled } from '../../../../lib/functions/scalar/math-rounding.js'
import { sizePretty } from '../../../../lib/functions/scalar/math.js'
import { cst, run, vec } from './helpers.js'

// the docs' table (numeric.md): d, then scale -2, -1, 0, 1, 2
const D = [-0.811905406, -5.002768547, -64.75487334, -926.531695, 0.069361448, 4.003627053, 86.91359825, 376.3807766]
const SCALES = [-2, -1, 0, 1, 2]

function table(mode: Parameters<typeof roundScaled>[2]): number[][] {
  return D.map((d) => SCALES.map((s) => roundScaled(d, s, mode) + 0))
}

t.test('round matches the docs table', async (t) => {
  t.same(table('half_up'), [
    [0, 0, -1, -0.8, -0.81], [0, -10, -5, -5, -5], [-100, -60, -65, -64.8, -64.75], [-900, -930, -927, -926.5, -926.53],
    [0, 0, 0, 0.1, 0.07], [0, 0, 4, 4, 4], [100, 90, 87, 86.9, 86.91], [400, 380, 376, 376.4, 376.38],
  ])
})

t.test('round_down matches the docs table', async (t) => {
  t.same(table('down'), [
    [0, 0, 0, -0.8, -0.81], [0, 0, -5, -5, -5], [0, -60, -64, -64.7, -64.75], [-900, -920, -926, -926.5, -926.53],
    [0, 0, 0, 0, 0.06], [0, 0, 4, 4, 4], [0, 80, 86, 86.9, 86.91], [300, 370, 376, 376.3, 376.38],
  ])
})

t.test('round_up matches the docs table', async (t) => {
  t.same(table('up'), [
    [-100, -10, -1, -0.9, -0.82], [-100, -10, -6, -5.1, -5.01], [-100, -70, -65, -64.8, -64.76], [-1000, -930, -927, -926.6, -926.54],
    [100, 10, 1, 0.1, 0.07], [100, 10, 5, 4.1, 4.01], [100, 90, 87, 87, 86.92], [400, 380, 377, 376.4, 376.39],
  ])
})

t.test('round_half_even', async (t) => {
  t.equal(roundScaled(5.55, 1, 'half_even'), 5.6)
  t.equal(roundScaled(5.65, 1, 'half_even'), 5.6)
  t.equal(roundScaled(2.5, 0, 'half_even'), 2)
  t.equal(roundScaled(-2.5, 0, 'half_up'), -3)
  t.same(table('half_even')[6], [100, 90, 87, 86.9, 86.91])
})

t.test('kernels', async (t) => {
  t.same(run('abs', [vec('INT', [-1, 0, null])]), [1, 0, null])
  t.same(run('abs', [vec('LONG', [-9223372036854775807n])]), [9223372036854775807n])
  t.same(run('sign', [vec('DOUBLE', [-2.5, 0, 3, NaN])]), [-1, 0, 1, null])
  t.same(run('sign', [vec('INT', [-2, 0, 1, null])]), [-1, 0, 1, null])
  t.same(run('ceil', [vec('DOUBLE', [15.75, null])]), [16, null])
  t.same(run('floor', [vec('DOUBLE', [15.75, -1.5])]), [15, -2])
  t.same(run('round', [vec('DOUBLE', [376.3807766]), cst('INT', 2)]), [376.38])
  t.same(run('round', [vec('DOUBLE', [2.5, -2.5])]), [3, -3])
  t.same(run('round', [vec('DOUBLE', [2.5]), cst('INT', null)]), [null])
  t.same(run('sqrt', [vec('DOUBLE', [4000.32, -1])]), [63.2480829749013, null])
  t.same(run('log', [vec('DOUBLE', [100])]), [2])
  t.same(run('ln', [vec('DOUBLE', [4.123, 0])]), [Math.log(4.123), null])
  t.same(run('power', [vec('DOUBLE', [2]), cst('DOUBLE', 3)]), [8])
  t.same(run('exp', [vec('DOUBLE', [0])]), [1])
  t.same(run('greatest', [vec('LONG', [11, null, null]), vec('LONG', [3, 5, null]), cst('LONG', null, 3)]), [11, 5, null])
  t.same(run('least', [vec('DOUBLE', [11, NaN]), cst('DOUBLE', 3, 2)], 'DOUBLE'), [3, 3])
  // past 2^53: compared as integers, not as doubles
  t.same(run('greatest', [vec('LONG', [9007199254740993n, null]), cst('LONG', 9007199254740992, 2)]), [9007199254740993n, 9007199254740992])
  t.same(run('least', [vec('TIMESTAMP_NS', [1704067200000000001n, null]), cst('TIMESTAMP_NS', 1704067200000000002n, 2)], 'TIMESTAMP_NS'), [1704067200000000001n, 1704067200000000002n])
})

t.test('size_pretty', async (t) => {
  t.equal(sizePretty(400032), '390.7 KiB')
  t.equal(sizePretty(1024 * 1024 * 3), '3.0 MiB')
})
