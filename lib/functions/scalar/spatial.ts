/**
 * Spatial functions of QuestDB's spatial page, on DOUBLE coordinates (the GEOHASH ones,
 * `make_geohash` and `within`, are in geohash-functions.ts; `rnd_geohash` in rnd/rnd-geohash.ts):
 *
 * - `within_box(x, y, min_x, min_y, max_x, max_y)`: inside the box, edges included; false when a
 *   value is NULL/NaN or the box is inverted (and, as QuestDB's sign-bit test has it, when a
 *   difference is -0.0).
 * - `within_radius(x, y, cx, cy, r)`: Euclidean distance <= r; false for NULL/NaN or r < 0.
 * - `geo_distance_meters(lat1, lon1, lat2, lon2)`: equirectangular distance in metres with
 *   111,320 m a degree: dx = Δlon * 111320 * cos(lat), dy = Δlat * 111320, sqrt(dx² + dy²). The
 *   cosine is of lat1 when the first point is constant and of the mean latitude otherwise, as
 *   QuestDB computes it. NULL when a value is NULL/NaN.
 * - `geo_within_radius_latlon(lat, lon, clat, clon, r)`: that distance (cosine of the centre's
 *   latitude) <= r metres; false for NULL/NaN or r < 0.
 *
 * A latitude outside [-90, 90] or longitude outside [-180, 180] is 22023 `latitude must be between
 * -90 and 90 [value=x]` at that argument. QuestDB's page says NULL for a NULL argument of the
 * boolean ones; its code (and EpochDB) answers false, a QuestDB boolean having no NULL.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { formatDouble } from '../../types/number-format.js'
import { allocate, type Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'

const METERS_PER_DEG = 111_320.0
const DEG_TO_RAD = Math.PI / 180

/** d >= 0 with -0.0 counted negative and NaN false (QuestDB tests the sign bit). */
function nonNegative(d: number): boolean {
  return d > 0 || (d === 0 && !Object.is(d, -0))
}

function checkLat(v: number, pos: number): void {
  if (v < -90 || v > 90) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `latitude must be between -90 and 90 [value=${formatDouble(v)}]`, pos)
}

function checkLon(v: number, pos: number): void {
  if (v < -180 || v > 180) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `longitude must be between -180 and 180 [value=${formatDouble(v)}]`, pos)
}

/** Runs `f` on the rows of `args` read as doubles into a `type` result (one row when all are constant). */
function mapRows(args: readonly Vector[], n: number, type: 'DOUBLE' | 'BOOLEAN', f: (v: Float64Array) => number): Vector {
  const xs = args.map(toF64)
  const allConst = xs.every((x) => x.s === 0)
  const m = allConst ? 1 : n
  const out = allocate(type, m)
  const o = out.data as Float64Array | Uint8Array
  const v = new Float64Array(xs.length)
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < xs.length; k++) v[k] = xs[k]!.data[i * xs[k]!.s]!
    o[i] = f(v)
  }
  return allConst ? ({ ...out, length: n, isConst: true } as Vector) : out
}

interface SiteInfo { readonly pos: readonly number[]; readonly constant: readonly boolean[] }

function siteInfo(site: CallSite): SiteInfo {
  return { pos: site.argPositions.map((p) => p ?? site.pos), constant: site.constants.map((c) => c !== undefined) }
}

const D = 'DOUBLE' as const

/** within_box, within_radius, geo_distance_meters, geo_within_radius_latlon. */
export const SPATIAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'within_box', family: 'math', nullStrict: false,
    description: 'True when point (x, y) lies in the box [min_x, max_x] x [min_y, max_y], edges included; false for NULL or an inverted box.',
    example: 'SELECT within_box(12.5, 8.3, 10.0, 5.0, 20.0, 15.0)',
    signatures: [{ args: [D, D, D, D, D, D], returns: 'BOOLEAN' }],
    vector: (args, n) => mapRows(args, n, 'BOOLEAN', (v) => {
      const x = v[0]!, y = v[1]!
      return nonNegative(x - v[2]!) && nonNegative(v[4]! - x) && nonNegative(y - v[3]!) && nonNegative(v[5]! - y) ? 1 : 0
    }),
  },
  {
    kind: 'scalar', name: 'within_radius', family: 'math', nullStrict: false,
    description: 'True when point (x, y) is within Euclidean distance r of (center_x, center_y), boundary included; false for NULL or r < 0.',
    example: 'SELECT within_radius(12.5, 8.3, 15.0, 10.0, 10.0)',
    signatures: [{ args: [D, D, D, D, D], returns: 'BOOLEAN' }],
    vector: (args, n) => mapRows(args, n, 'BOOLEAN', (v) => {
      const r = v[4]!
      if (r < 0) return 0
      const dx = v[0]! - v[2]!, dy = v[1]! - v[3]!
      return nonNegative(r * r - (dx * dx + dy * dy)) ? 1 : 0
    }),
  },
  {
    kind: 'scalar', name: 'geo_distance_meters', family: 'math', nullStrict: false,
    description: 'Distance in metres between two lat/lon points (degrees), by equirectangular projection (good under ~100 km).',
    example: 'SELECT geo_distance_meters(51.5074, -0.1278, 51.5095, -0.1245)',
    signatures: [{ args: [D, D, D, D], returns: 'DOUBLE' }],
    init: siteInfo,
    vector: (args, n, _ctx, state) => {
      const { pos, constant } = state as SiteInfo
      const constFirst = constant[0] === true && constant[1] === true
      return mapRows(args, n, 'DOUBLE', (v) => {
        const lat1 = v[0]!, lon1 = v[1]!, lat2 = v[2]!, lon2 = v[3]!
        if (lat1 !== lat1 || lon1 !== lon1 || lat2 !== lat2 || lon2 !== lon2) return NaN
        checkLat(lat1, pos[0]!); checkLon(lon1, pos[1]!); checkLat(lat2, pos[2]!); checkLon(lon2, pos[3]!)
        const perDegLon = METERS_PER_DEG * Math.cos((constFirst ? lat1 : (lat1 + lat2) * 0.5) * DEG_TO_RAD)
        const dx = (lon2 - lon1) * perDegLon
        const dy = (lat2 - lat1) * METERS_PER_DEG
        return Math.sqrt(dx * dx + dy * dy)
      })
    },
  },
  {
    kind: 'scalar', name: 'geo_within_radius_latlon', family: 'math', nullStrict: false,
    description: 'True when a lat/lon point (degrees) is within radius_meters of the centre (equirectangular distance); false for NULL or a negative radius.',
    example: 'SELECT geo_within_radius_latlon(51.5095, -0.1245, 51.5074, -0.1278, 500)',
    signatures: [{ args: [D, D, D, D, D], returns: 'BOOLEAN' }],
    init: siteInfo,
    vector: (args, n, _ctx, state) => {
      const { pos } = state as SiteInfo
      return mapRows(args, n, 'BOOLEAN', (v) => {
        const lat = v[0]!, lon = v[1]!, clat = v[2]!, clon = v[3]!, r = v[4]!
        if (r !== r || r < 0 || lat !== lat || lon !== lon || clat !== clat || clon !== clon) return 0
        checkLat(clat, pos[2]!); checkLon(clon, pos[3]!); checkLat(lat, pos[0]!); checkLon(lon, pos[1]!)
        const dx = (lon - clon) * (METERS_PER_DEG * Math.cos(clat * DEG_TO_RAD))
        const dy = (lat - clat) * METERS_PER_DEG
        return nonNegative(r * r - (dx * dx + dy * dy)) ? 1 : 0
      })
    },
  },
]
