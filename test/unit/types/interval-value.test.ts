/**
 * The held INTERVAL text (types/interval-value.ts): bounds with every digit, read back in
 * microseconds or nanoseconds, converted between the two INTERVAL types, printed to the millisecond.
 */
import t from 'tap'
import { convertInterval, intervalBoundsMicros, intervalBoundsNs, intervalValue, printInterval } from '../../../lib/types/interval-value.js'

const NS = intervalValue(1704067200123456789n, 1704153600000000001n, true)
const US = intervalValue(1704067200123456, 1704153600000001, false)

t.test('a nanosecond interval keeps its nine digits and reads back exactly', async (t) => {
  t.equal(NS, "('2024-01-01T00:00:00.123456789Z', '2024-01-02T00:00:00.000000001Z')")
  t.same(intervalBoundsNs(NS), [1704067200123456789n, 1704153600000000001n])
  t.same(intervalBoundsMicros(NS), [1704067200123456, 1704153600000000])
  t.equal(printInterval(NS), "('2024-01-01T00:00:00.123Z', '2024-01-02T00:00:00.000Z')")
})

t.test('converting between the INTERVAL types gives each type one text form', async (t) => {
  const widened = convertInterval(US, true)
  t.equal(widened, "('2024-01-01T00:00:00.123456000Z', '2024-01-02T00:00:00.000001000Z')")
  t.equal(widened, intervalValue(1704067200123456000n, 1704153600000001000n, true))
  t.equal(convertInterval(NS, false), intervalValue(1704067200123456, 1704153600000000, false))
  t.equal(convertInterval(widened, false), US)
  t.equal(intervalBoundsNs('not an interval'), null)
})
