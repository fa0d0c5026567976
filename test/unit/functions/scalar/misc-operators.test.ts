import t from 'tap'
import { cst, run, vec } from './helpers.js'

t.test('|| concatenates text forms, null as empty', async (t) => {
  t.same(run('||', [vec('STRING', ['a', null]), cst('STRING', 'b')]), ['ab', 'b'])
  t.same(run('||', [vec('INT', [1, null]), cst('DOUBLE', 2)]), ['12.0', '2.0'])
  t.same(run('||', [cst('STRING', 'ts='), vec('TIMESTAMP', [0])]), ['ts=1970-01-01T00:00:00.000000Z'])
})

t.test('between is inclusive, bounds in either order', async (t) => {
  const x = vec('INT', [1, 2, 3, 4, null])
  t.same(run('between', [x, cst('INT', 2), cst('INT', 3)]), [false, true, true, false, false])
  t.same(run('between', [x, cst('INT', 3), cst('INT', 2)]), [false, true, true, false, false])
  t.same(run('between', [x, cst('INT', null), cst('INT', 2)]), [false, false, false, false, false])
  t.same(run('between', [vec('DOUBLE', [1.5]), cst('DOUBLE', 1), cst('DOUBLE', 2)]), [true])
  t.same(run('between', [vec('TIMESTAMP', [10, 20]), cst('TIMESTAMP', 10), cst('TIMESTAMP', 15)]), [true, false])
  t.same(run('between', [vec('STRING', ['b', 'd']), cst('STRING', 'a'), cst('STRING', 'c')]), [true, false])
  t.same(run('between', [vec('LONG', [9223372036854775807n]), cst('LONG', 0), cst('LONG', 9223372036854775807n)]), [true])
})

t.test('IPv4 subnet containment', async (t) => {
  const ip = vec('IPV4', [0x0a010203, 0x0b000001, 0])
  t.same(run('<<', [ip, cst('STRING', '10.0.0.0/8')]), [true, false, false])
  t.same(run('<<=', [ip, cst('STRING', '10.1.2.3')]), [true, false, false])
  t.same(run('<<', [ip, cst('STRING', '10.1.2.3')]), [false, false, false])
  t.same(run('>>', [cst('STRING', '11.0.0.0/8'), ip]), [false, true, false])
  t.throws(() => run('<<', [ip, cst('STRING', '10.0.0.0/40')]), { name: 'SqlError', code: '22P02', position: 15 })
})
