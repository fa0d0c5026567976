/**
 * `haversine_dist_deg(lat, lon, ts)` (QuestDB's aggregation page): the distance travelled along
 * the group's points in row order, in kilometres — the sum of the great-circle (haversine)
 * distances between consecutive points on a sphere of radius 6371.088 km. Latitude and longitude
 * are in degrees. A row whose lat, lon or timestamp is NULL is skipped once a valid point has
 * been seen (before it, it only stands as the last point, as in QuestDB). A group with fewer than
 * two valid points travels 0 (never NULL). DOUBLE.
 *
 * Parallel shares merge in row order: the later share's first valid point continues from the
 * earlier share's last one. QuestDB also interpolates the distance across SAMPLE BY FILL(LINEAR)
 * gaps; EpochDB does not (a filled bucket gets the fill's value).
 */
import { LONG_NULL } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

const EARTH_RADIUS_KM = 6371.088

/** The haversine distance in km between two points given in degrees. */
export function haversineKm(lat1Deg: number, lon1Deg: number, lat2Deg: number, lon2Deg: number): number {
  const lat1 = lat1Deg * Math.PI / 180
  const lon1 = lon1Deg * Math.PI / 180
  const lat2 = lat2Deg * Math.PI / 180
  const lon2 = lon2Deg * Math.PI / 180
  const halfLat = (lat2 - lat1) / 2
  const halfLon = (lon2 - lon1) / 2
  const a = Math.sin(halfLat) * Math.sin(halfLat) + Math.cos(lat1) * Math.cos(lat2) * Math.sin(halfLon) * Math.sin(halfLon)
  return EARTH_RADIUS_KM * (2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)))
}

/** Per group: the first and last valid point, whether there is one, and the distance so far. */
export class HaversineDistKernel implements AggregateKernel {
  firstLat = new Float64Array(0)
  firstLon = new Float64Array(0)
  lastLat = new Float64Array(0)
  lastLon = new Float64Array(0)
  valid = new Uint8Array(0)
  dist = new Float64Array(0)

  resize(count: number): void {
    this.firstLat = grow(this.firstLat, count)
    this.firstLon = grow(this.firstLon, count)
    this.lastLat = grow(this.lastLat, count)
    this.lastLon = grow(this.lastLon, count)
    this.valid = grow(this.valid, count)
    this.dist = grow(this.dist, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const lat = arg(args, 0).data as Float64Array
    const lon = arg(args, 1).data as Float64Array
    const tv = arg(args, 2)
    const t = tv.kind === 'i64' && tv.data instanceof Float64Array ? tv.data : toF64(tv).data
    const { firstLat, firstLon, lastLat, lastLon, valid, dist } = this
    for (let i = 0; i < length; i++) {
      const y = lat[i]!, x = lon[i]!, ts = t[i]!
      if (y !== y || x !== x || ts !== ts || ts === LONG_NULL) continue
      const g = groups[i]!
      if (valid[g] === 0) {
        valid[g] = 1
        firstLat[g] = y
        firstLon[g] = x
      } else {
        dist[g] = dist[g]! + haversineKm(lastLat[g]!, lastLon[g]!, y, x)
      }
      lastLat[g] = y
      lastLon[g] = x
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as HaversineDistKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      if (o.valid[f] === 0) continue
      if (this.valid[g] === 0) {
        this.valid[g] = 1
        this.firstLat[g] = o.firstLat[f]!
        this.firstLon[g] = o.firstLon[f]!
        this.dist[g] = o.dist[f]!
      } else {
        this.dist[g] = this.dist[g]! + haversineKm(this.lastLat[g]!, this.lastLon[g]!, o.firstLat[f]!, o.firstLon[f]!) + o.dist[f]!
      }
      this.lastLat[g] = o.lastLat[f]!
      this.lastLon[g] = o.lastLon[f]!
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    out.set(this.dist.subarray(0, Math.min(count, this.dist.length)))
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

/** haversine_dist_deg. */
export const HAVERSINE_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'haversine_dist_deg',
    signatures: [{ args: ['DOUBLE', 'DOUBLE', 'TIMESTAMP'], returns: 'DOUBLE' }],
    description: 'Distance travelled in km along the points (latitude, longitude in degrees) in row order: the sum of haversine distances between consecutive points.',
    example: 'SELECT car_id, haversine_dist_deg(lat, lon, ts) FROM rides',
    create: () => new HaversineDistKernel(),
  }),
]
