import t from 'tap'
import { cst, run, vec } from './helpers.js'

t.test('meta functions', async (t) => {
  t.same(run('version', []), ['EpochDB 0.1.0'])
  t.same(run('current_user', []), ['admin'])
  t.same(run('current_database', []), ['qdb'])
  t.same(run('current_schema', []), ['public'])
  t.same(run('typeof', [vec('IPV4', [1, 2])]), ['IPv4', 'IPv4'])
  t.same(run('typeof', [cst('DOUBLE', 1.5)]), ['DOUBLE'])
})
