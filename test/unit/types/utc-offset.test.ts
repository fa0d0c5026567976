import t from 'tap'
import { parseUtcOffset } from '../../../lib/types/utc-offset.js'

const H = 3_600_000_000
const M = 60_000_000

t.test('the shapes QuestDB writes offsets in', async (t) => {
  t.equal(parseUtcOffset('+02:00'), 2 * H)
  t.equal(parseUtcOffset('-0530'), -(5 * H + 30 * M))
  t.equal(parseUtcOffset('+5'), 5 * H)
  t.equal(parseUtcOffset('UTC+01:00'), H)
  t.equal(parseUtcOffset('gmt-3'), -3 * H)
  t.equal(parseUtcOffset('Z'), 0)
})

t.test('what is not an offset', async (t) => {
  for (const text of ['', '02:00', 'UTC', 'UTC01:00', '+2:0', '+02:60', '+24:00', '+02:00x', 'Europe/Berlin', '++1']) {
    t.equal(parseUtcOffset(text), null, text)
  }
})

t.test('rules: an unsigned offset (SAMPLE BY WITH OFFSET), a time zone\'s ±18 hours', async (t) => {
  t.equal(parseUtcOffset('00:45', { unsigned: true }), 45 * M)
  t.equal(parseUtcOffset('-00:45', { unsigned: true }), -45 * M)
  t.equal(parseUtcOffset('UTC01:00', { unsigned: true }), null, 'a prefix still needs a sign')
  t.equal(parseUtcOffset('+19:00'), 19 * H)
  t.equal(parseUtcOffset('+19:00', { maxHours: 18 }), null)
})
