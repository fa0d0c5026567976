/**
 * GEOHASH functions of QuestDB's spatial pages:
 *
 * - `make_geohash(lon, lat, bits)`: the geohash of `bits` (a constant, 1–60) bits of a point,
 *   bits alternating longitude / latitude from the longitude. Constant coordinates out of range
 *   are refused (`longitude must be in [-180.0..180.0] range` at the argument); a row's
 *   coordinates out of range give NULL. A NULL coordinate is hashed as QuestDB hashes its NaN:
 *   it passes the range checks and quantizes to 0 (`make_geohash(NULL, NULL, 20)` is `0000`).
 * - `g WITHIN (#p1, #p2, ...)` (the call `within(g, p1, p2, ...)`): true when geohash `g` starts
 *   with one of the constant prefixes (geohash literals or base32 strings); a prefix with more bits
 *   than `g` matches nothing; NULL is never within.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { type GeohashType, type GeohashValue, GEOHASH_MAX_BITS, geohashBits, geohashFromText, geohashOfPoint, geohashType, isGeohash } from '../../types/geohash.js'
import { allocate, type Scalar, type Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'
import { compileWithin, type WithinMatcher, type WithinPrefix, withinVector } from './geohash-within.js'

/** The constant `bits` argument of make_geohash / rnd_geohash, checked as QuestDB does. */
export function geohashBitsArg(site: CallSite, i: number): number {
  const v = site.constants[i]
  const bits = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN
  if (!(bits >= 1 && bits <= GEOHASH_MAX_BITS)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'precision must be in [1..60] range', site.argPositions[i] ?? site.pos)
  return bits
}

/** The result type for a `bits` constant (a placeholder until `check` refuses a bad one). */
export function geohashOfBitsConstant(c: Scalar | undefined): GeohashType {
  const bits = typeof c === 'number' ? c : typeof c === 'bigint' ? Number(c) : 0
  return geohashType(bits >= 1 && bits <= GEOHASH_MAX_BITS ? bits : 1)
}

/** Writes `v` (a geohash or undefined = null) at row `i` of a geohash vector. */
export function setGeohash(out: Vector, i: number, v: GeohashValue | undefined): void {
  if (out.kind === 'i32') { out.data[i] = v === undefined ? INT_NULL : Number(v); return }
  const d = out.data as Float64Array
  d[i] = v === undefined ? LONG_NULL : Number(v)
}

function makeGeohash(args: readonly Vector[], n: number, bits: number): Vector {
  const lon = toF64(args[0]!), lat = toF64(args[1]!)
  const allConst = lon.s === 0 && lat.s === 0
  const m = allConst ? 1 : n
  const type = geohashType(bits)
  const vals: (GeohashValue | undefined)[] = new Array(m)
  let big = false
  for (let i = 0; i < m; i++) {
    const v = geohashOfPoint(lon.data[i * lon.s]!, lat.data[i * lat.s]!, bits)
    vals[i] = v
    if (typeof v === 'bigint') big = true
  }
  let out: Vector
  if (big) {
    const d = new BigInt64Array(m)
    for (let i = 0; i < m; i++) { const v = vals[i]; d[i] = v === undefined ? -9223372036854775808n : BigInt(v) }
    out = { kind: 'i64', type, length: m, data: d }
  } else {
    out = allocate(type, m)
    for (let i = 0; i < m; i++) setGeohash(out, i, vals[i])
  }
  return allConst ? ({ ...out, length: n, isConst: true } as Vector) : out
}

/** A `within` prefix: its bits and value, from a geohash constant or a base32 text. */
type Prefix = WithinPrefix

function prefixOf(type: string, value: Scalar, pos: number): Prefix {
  if (isGeohash(type) && (typeof value === 'number' || typeof value === 'bigint')) return { bits: geohashBits(type), value }
  if (typeof value === 'string' && value.length > 0) {
    const bits = Math.min(value.length, 12) * 5
    const v = geohashFromText(value, bits)
    if (typeof v === 'number' || typeof v === 'bigint') return { bits, value: v }
  }
  throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'GeoHash const function expected', pos)
}

function prefixes(site: CallSite): Prefix[] {
  const out: Prefix[] = []
  for (let i = 1; i < site.argTypes.length; i++) out.push(prefixOf(site.argTypes[i]!, site.constants[i] ?? null, site.argPositions[i] ?? site.pos))
  return out
}

/** WITHIN's state: its prefixes, and the matcher compiled for the bits of the column last seen. */
interface WithinState { readonly prefixes: readonly Prefix[]; matcher: WithinMatcher | undefined }

function within(args: readonly Vector[], n: number, state: WithinState): Vector {
  const g = args[0]!
  const bits = geohashBits(g.type as GeohashType)
  return withinVector(g, n, bits, state.prefixes, (b) => {
    if (state.matcher?.bits !== b) state.matcher = compileWithin(state.prefixes, b)
    return state.matcher
  })
}

/** make_geohash and within. */
export const GEOHASH_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'make_geohash', family: 'spatial', nullStrict: false,
    description: 'The geohash of `bits` (a constant, 1-60) bits of the point (lon, lat); NULL for a row whose coordinates are out of range; a NULL coordinate counts as 0 bits (QuestDB hashes its NaN).',
    example: 'SELECT make_geohash(142.89124148, -12.90604153, 40)',
    signatures: [{ args: ['DOUBLE', 'DOUBLE', 'INT'], constant: [2], returns: (_a, c) => geohashOfBitsConstant(c?.[2]), returnsDoc: 'GEOHASH(bits)' }],
    check: (site) => {
      geohashBitsArg(site, 2)
      // both constant (a NULL one too, NaN in QuestDB): the range is checked when the statement is bound
      const lon = site.constants[0], lat = site.constants[1]
      if ((typeof lon === 'number' || lon === null) && (typeof lat === 'number' || lat === null)) {
        // NULL is NaN: never out of range
        if (lon !== null && (lon < -180 || lon > 180)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'longitude must be in [-180.0..180.0] range', site.argPositions[0] ?? site.pos)
        if (lat !== null && (lat < -90 || lat > 90)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'latitude must be in [-90.0..90.0] range', site.argPositions[1] ?? site.pos)
      }
    },
    init: (site) => geohashBitsArg(site, 2),
    vector: (args, n, _ctx, state) => makeGeohash(args, n, state as number),
  },
  {
    kind: 'scalar', name: 'within', family: 'spatial', nullStrict: false,
    description: 'g WITHIN (#p1, ...): true when geohash g starts with one of the constant prefixes (geohash literals or base32 strings); NULL is never within.',
    example: 'SELECT * FROM pos WHERE g WITHIN (#u33, #u34)',
    signatures: [{ args: ['GEOHASH', 'ANY'], variadic: 'ANY', returns: 'BOOLEAN' }],
    check: (site) => {
      for (let i = 1; i < site.argTypes.length; i++) {
        if (site.constants[i] === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'GeoHash const function expected', site.argPositions[i] ?? site.pos)
      }
      prefixes(site)
    },
    init: (site): WithinState => ({ prefixes: prefixes(site), matcher: undefined }),
    vector: (args, n, _ctx, state) => within(args, n, state as WithinState),
  },
]
