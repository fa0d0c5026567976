import t from 'tap'
import { isUuidNull, parseUuid, UUID_NULL_TEXT, uuidFromHalves, uuidToHalves } from '../../../lib/types/uuid.js'
import { formatIpv4, parseIpv4, parseIpv4Subnet } from '../../../lib/types/ipv4.js'
import { long256FromBigInt, long256ToBigInt, parseLong256 } from '../../../lib/types/long256.js'

t.test('uuid', async (t) => {
  t.equal(parseUuid('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')
  t.equal(parseUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')
  for (const bad of ['', 'abc', 'a0eebc999c0b4ef8bb6d6bb9bd380a11', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1', 'a0eebc99_9c0b-4ef8-bb6d-6bb9bd380a11']) t.equal(parseUuid(bad), null, bad)
  t.ok(isUuidNull(parseUuid(UUID_NULL_TEXT)!))
  t.equal(uuidFromHalves(-9223372036854775808n, -9223372036854775808n), UUID_NULL_TEXT)
  const [hi, lo] = uuidToHalves('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')
  t.equal(uuidFromHalves(hi, lo), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')
  t.equal(hi, BigInt.asIntN(64, 0xa0eebc999c0b4ef8n))
})

t.test('ipv4', async (t) => {
  t.equal(parseIpv4('1.1.1.1'), 16843009)
  t.equal(parseIpv4('255.255.255.255'), 4294967295)
  t.equal(parseIpv4('0.0.0.0'), 0)
  t.equal(parseIpv4('192.168.000.001'), 3232235521)
  for (const bad of ['', '1.1.1', '1.1.1.1.1', '256.1.1.1', '1..1.1', 'a.b.c.d', '1.1.1.1 ', '-1.1.1.1', '1.1.1.1000']) t.equal(parseIpv4(bad), null, bad)
  t.equal(formatIpv4(195283), '0.2.250.211')
  t.equal(formatIpv4(-1), '255.255.255.255')
  t.equal(formatIpv4(3232235521), '192.168.0.1')
  t.same(parseIpv4Subnet('10.1.2.3/8'), { network: 167772160, mask: 0xff000000 })
  t.same(parseIpv4Subnet('10.1.2.3'), { network: 167838211, mask: 0xffffffff })
  t.same(parseIpv4Subnet('10.1.2.3/0'), { network: 0, mask: 0 })
  t.equal(parseIpv4Subnet('10.1.2.3/33'), null)
})

t.test('long256', async (t) => {
  t.equal(parseLong256('0x01'), '0x01')
  t.equal(parseLong256('0x1'), '0x01')
  t.equal(parseLong256('0x0'), '0x00')
  t.equal(parseLong256('0x000ABC'), '0x0abc')
  const full = '0x9f9b2131d49fcd1d6b8139815c50d3410010cde812ce60ee0010a928bb8b9650'
  t.equal(parseLong256(full.toUpperCase().replace('0X', '0x')), full)
  for (const bad of ['', '0x', '0xG56', 'abc', '12', '0x' + 'f'.repeat(65)]) t.equal(parseLong256(bad), null, bad)
  t.equal(long256FromBigInt(255n), '0xff')
  t.equal(long256ToBigInt('0x0abc'), 0xabcn)
})
