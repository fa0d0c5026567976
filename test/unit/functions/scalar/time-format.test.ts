import t from 'tap'
import { formatTimestamp, parseTimestamp } from '../../../../lib/types/timestamp.js'
import { formatWith } from '../../../../lib/functions/scalar/time-format.js'
import { cst, run, vec } from './helpers.js'

t.test('to_timestamp (docs)', async (t) => {
  const r = run('to_timestamp', [cst('STRING', '2020-03-01:15:43:21.127329'), cst('STRING', 'yyyy-MM-dd:HH:mm:ss.SSSUUU')])
  t.same(r.map((x) => formatTimestamp(x as number)), ['2020-03-01T15:43:21.127329Z'])
  t.same(run('to_timestamp', [cst('STRING', '2020-03-01'), cst('STRING', 'yyyy-MM-dd:HH')]), [null])
  const h = run('to_timestamp', [vec('STRING', ['2020-03-01:15:43:21', null]), cst('STRING', 'yyyy-MM-dd:HH:mm:ss')])
  t.same(h.map((x) => (x === null ? null : formatTimestamp(x as number))), ['2020-03-01T15:43:21.000000Z', null])
  t.same(run('to_timestamp', [cst('STRING', '01 Mar 2020 03:04 PM +01:00'), cst('STRING', 'dd MMM yyyy hh:mm a Z')]), [parseTimestamp('2020-03-01T14:04:00Z')])
  t.same(run('to_date', [cst('STRING', '2020-03-01'), cst('STRING', 'yyyy-MM-dd')]), [1583020800000])
})

t.test('to_str', async (t) => {
  const x = parseTimestamp('2023-03-11T22:00:30.555555Z')!
  t.equal(formatWith('yyyy-MM-ddTHH:mm:ss.SSSUUUZ', x), '2023-03-11T22:00:30.555555Z')
  t.equal(formatWith('EE, d MMMM yy', x), 'Saturday, 11 March 23')
  t.equal(formatWith('E hh a', x), 'Sat 10 PM')
  t.same(run('to_str', [vec('TIMESTAMP', [x]), cst('STRING', 'yyyy-MM-dd')]), ['2023-03-11'])
})
