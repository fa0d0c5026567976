/**
 * The remaining operators: `||` (text concatenation; a null operand counts as empty text, as
 * QuestDB's concat does), `between` (inclusive, bounds in either order, any null gives false)
 * and the IPv4 subnet containment operators `<<`, `<<=`, `>>`, `>>=`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState, internalError } from '../../errors.js'
import { formatValue } from '../../types/value-format.js'
import { type Ipv4Subnet, parseIpv4Subnet } from '../../types/ipv4.js'
import { getScalar } from '../../types/vector.js'
import type { Vector } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { boolOut, isBigI64, isTextKind, strOut, textAt, textResultType, toF64 } from '../kernel-helpers.js'
import { cmpNullable } from './compare-kernels.js'

/** The text form of row i of any vector (null for null). */
export function textOf(v: Vector, i: number): string | null {
  if (isTextKind(v)) return textAt(v, i)
  return formatValue(v.type, getScalar(v, i))
}

function concatOp(args: readonly Vector[], n: number): Vector {
  const a = args[0]!, b = args[1]!
  const out = strOut(textResultType([a.type, b.type]), n)
  for (let i = 0; i < n; i++) out.data[i] = (textOf(a, i) ?? '') + (textOf(b, i) ?? '')
  return out
}

function between(args: readonly Vector[], n: number): Vector {
  const [x, a, b] = args as [Vector, Vector, Vector]
  const out = boolOut(n), o = out.data
  if (isTextKind(x)) {
    for (let i = 0; i < n; i++) {
      const v = textOf(x, i), p = textOf(a, i), q = textOf(b, i)
      if (v === null || p === null || q === null) continue
      const lo = p <= q ? p : q, hi = p <= q ? q : p
      o[i] = cmpNullable('ge', v, lo) && cmpNullable('le', v, hi) ? 1 : 0
    }
    return out
  }
  if (isBigI64(x) || isBigI64(a) || isBigI64(b)) {
    for (let i = 0; i < n; i++) {
      const v = getScalar(x, i), p = getScalar(a, i), q = getScalar(b, i)
      if (v === null || p === null || q === null) continue
      const V = BigInt(v as number | bigint), P = BigInt(p as number | bigint), Q = BigInt(q as number | bigint)
      const lo = P <= Q ? P : Q, hi = P <= Q ? Q : P
      o[i] = V >= lo && V <= hi ? 1 : 0
    }
    return out
  }
  const X = toF64(x), A = toF64(a), B = toF64(b)
  const xd = X.data, xs = X.s, ad = A.data, as = A.s, bd = B.data, bs = B.s
  for (let i = 0; i < n; i++) {
    const v = xd[i * xs]!, p = ad[i * as]!, q = bd[i * bs]!
    const lo = p <= q ? p : q, hi = p <= q ? q : p
    o[i] = v >= lo && v <= hi ? 1 : 0
  }
  return out
}

const BETWEEN_TYPES = ['INT', 'LONG', 'DOUBLE', 'TIMESTAMP', 'DATE', 'FLOAT', 'SHORT', 'BYTE', 'CHAR', 'IPV4', 'TEXT'] as const

type Containment = 'lt' | 'le' | 'gt' | 'ge'

interface SubnetState { subnet: Ipv4Subnet | null; text: string | null; position: number }

function subnetOf(st: SubnetState, text: string): Ipv4Subnet {
  if (st.text !== text) {
    const s = parseIpv4Subnet(text)
    if (s === null) throw new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `invalid IPv4 subnet: ${text}`, st.position)
    st.subnet = s
    st.text = text
  }
  return st.subnet!
}

/**
 * `ip << net`: ip lies in net and the /32 is strictly narrower than net; `<<=` also allows net
 * itself being the single address; `>>`, `>>=` are the same with the operands swapped.
 */
function containment(kind: Containment) {
  const swapped = kind === 'gt' || kind === 'ge'
  const strict = kind === 'lt' || kind === 'gt'
  return (args: readonly Vector[], n: number, _ctx: unknown, state: unknown): Vector => {
    const st = (state as SubnetState | undefined) ?? { subnet: null, text: null, position: -1 }
    const ipv = swapped ? args[1]! : args[0]!, netv = swapped ? args[0]! : args[1]!
    const out = boolOut(n), o = out.data
    if (ipv.kind !== 'i32') throw internalError(`IPv4 containment on ${ipv.type}`)
    const d = ipv.data, s = ipv.isConst === true ? 0 : 1
    for (let i = 0; i < n; i++) {
      const ip = d[i * s]!, net = textAt(netv, i)
      if (ip === 0 || net === null) continue
      const sub = subnetOf(st, net)
      if (strict && sub.mask === 0xffffffff) continue
      o[i] = ((ip & sub.mask) >>> 0) === sub.network ? 1 : 0
    }
    return out
  }
}

function containmentDef(name: string, kind: Containment, description: string): ScalarFunctionDef {
  const swapped = kind === 'gt' || kind === 'ge'
  return {
    kind: 'scalar', name, family: 'operator', description,
    example: swapped ? `SELECT '10.0.0.0/8' ${name} ip FROM t` : `SELECT * FROM t WHERE ip ${name} '10.0.0.0/8'`,
    signatures: [{ args: swapped ? ['TEXT', 'IPV4'] : ['IPV4', 'TEXT'], returns: 'BOOLEAN' }],
    init: (site): SubnetState => ({ subnet: null, text: null, position: site.argPositions[swapped ? 0 : 1] ?? site.pos }),
    vector: containment(kind),
  }
}

/** `||`, `between`, and the IPv4 containment operators. */
export const MISC_OPERATORS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: '||', family: 'operator',
    description: 'Concatenates the text forms of two values; null counts as empty text.',
    example: "SELECT 'a' || 'b'",
    signatures: [{ args: ['ANY', 'ANY'], returns: (t) => textResultType(t) }],
    vector: concatOp,
  },
  {
    kind: 'scalar', name: 'between', family: 'operator',
    description: 'x BETWEEN a AND b: inclusive, the bounds in either order; any null gives false.',
    example: "SELECT * FROM trades WHERE ts BETWEEN '2024-01-01' AND '2024-01-02'",
    signatures: BETWEEN_TYPES.map((t) => ({ args: [t, t, t], returns: 'BOOLEAN' as const })),
    vector: between,
  },
  containmentDef('<<', 'lt', 'IPv4 strictly contained in a subnet given as text a.b.c.d/n.'),
  containmentDef('<<=', 'le', 'IPv4 contained in, or equal to, a subnet.'),
  containmentDef('>>', 'gt', 'Subnet strictly contains the IPv4 address.'),
  containmentDef('>>=', 'ge', 'Subnet contains, or equals, the IPv4 address.'),
]
