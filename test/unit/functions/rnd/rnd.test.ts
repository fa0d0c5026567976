import t from 'tap'
import { Rnd } from '../../../../lib/functions/rnd/rnd.js'

/** A BigInt reference of QuestDB's nextLong, to cross-check the Int32-halves implementation. */
function referenceLongs(s0: bigint, s1: bigint, n: number): bigint[] {
  const w = (x: bigint): bigint => BigInt.asIntN(64, x)
  const out: bigint[] = []
  for (let i = 0; i < n; i++) {
    let l1 = s0
    const l0 = s1
    s0 = l0
    l1 = w(l1 ^ w(l1 << 23n))
    s1 = w(l1 ^ l0 ^ (l1 >> 17n) ^ (l0 >> 26n))
    out.push(w(s1 + l0))
  }
  return out
}

t.test('rnd_double() with long_sequence seeds reproduces the QuestDB docs', async (t) => {
  const r = new Rnd(128349234n, 4327897n)
  t.equal(r.nextDouble(), 0.8251337821991485)
  t.equal(r.nextDouble(), 0.2714941145110299)
})

t.test('default seeds are the sign-extended int literals', async (t) => {
  const [a, b] = new Rnd().seeds()
  t.equal(a, -559038737n) // 0xFFFFFFFFDEADBEEF
  t.equal(b, BigInt.asIntN(64, 0xffffffffdee4c0edn))
})

t.test('nextLong matches a BigInt reference bit for bit', async (t) => {
  for (const [s0, s1] of [[-5n, 1234567890123456789n], [0x7fffffffffffffffn, -0x8000000000000000n], [1n, 2n]] as const) {
    const r = new Rnd(s0, s1)
    const ref = referenceLongs(s0, s1, 20000)
    let bad = -1
    for (let i = 0; i < ref.length; i++) if (r.nextLong() !== ref[i]) { bad = i; break }
    t.equal(bad, -1, `seeds ${s0},${s1}`)
  }
})

t.test('derived draws follow QuestDB definitions', async (t) => {
  const ref = referenceLongs(-559038737n, BigInt.asIntN(64, 0xffffffffdee4c0edn), 400)
  const r = new Rnd()
  let k = 0
  for (let i = 0; i < 40; i++) {
    const n = Number(BigInt.asIntN(32, ref[k++]!))
    t.equal(r.nextInt(), n)
    const p = Number(BigInt.asIntN(32, ref[k++]!))
    t.equal(r.nextPositiveInt(), p === -2147483648 ? 2147483647 : Math.abs(p))
    const l = ref[k++]!
    t.equal(r.nextPositiveLong(), l === -(2n ** 63n) ? 2n ** 63n - 1n : l < 0n ? -l : l)
    t.equal(r.nextBoolean(), ref[k++]! < 0n)
    t.equal(r.nextShort(), Number(BigInt.asIntN(16, ref[k++]!)))
    t.equal(r.nextByte(), Number(BigInt.asIntN(8, ref[k++]!)))
    const m = ref[k++]!
    t.equal(r.nextFloat(), Math.fround(Number((m & 0xffffffffffffn) >> 24n) / 2 ** 24))
    const range = 1000003n
    const q = ref[k++]!
    t.equal(r.nextPositiveLongMod(Number(range)), Number((q < 0n ? -q : q) % range))
  }
})

t.test('the rnd_symbol(5,4,4,1) dictionary after a default seed (SqlCodeGeneratorTest.testFilterOnNull)', async (t) => {
  const r = new Rnd()
  const syms: string[] = []
  for (let i = 0; i < 5; i++) syms.push(r.nextChars(4))
  t.same(syms, ['VTJW', 'CPSW', 'HYRX', 'PEHN', 'RXGZ'])
})
