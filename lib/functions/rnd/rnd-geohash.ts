/**
 * `rnd_geohash(bits)`: a random geohash of `bits` (a constant, 1–60) bits, drawn as QuestDB's
 * `Rnd.nextGeoHash`: a latitude `nextDouble() * 180 - 90`, then a longitude
 * `nextDouble() * 360 - 180`, hashed at that precision.
 */
import type { GeohashValue } from '../../types/geohash.js'
import { geohashOfPoint } from '../../types/geohash.js'
import { geohashBitsArg, geohashOfBitsConstant, setGeohash } from '../scalar/geohash-functions.js'
import { rndFunction } from './rnd-def.js'
import type { Rnd } from './rnd.js'

function draw(rnd: Rnd, bits: number): GeohashValue | undefined {
  const lat = rnd.nextDouble() * 180.0 - 90.0
  const lon = rnd.nextDouble() * 360.0 - 180.0
  return geohashOfPoint(lon, lat, bits)
}

/** rnd_geohash(bits). */
export const RND_GEOHASH = rndFunction({
  name: 'rnd_geohash',
  signatures: [{ args: ['INT'], constant: [0], returns: (_a, c) => geohashOfBitsConstant(c?.[0]), returnsDoc: 'GEOHASH(bits)' }],
  description: 'A random geohash of `bits` (1-60) bits: a random point on the globe at that precision.',
  example: 'SELECT rnd_geohash(30) FROM long_sequence(3)',
  prepare: (site) => {
    const bits = geohashBitsArg(site, 0)
    const type = geohashOfBitsConstant(bits)
    return {
      type,
      next: (rnd) => draw(rnd, bits) ?? null,
      // more than 53 bits do not fit the batch's doubles: drawn row by row into a BigInt64Array instead
      fill: bits > 53 ? undefined : (rnd, out, n) => { for (let i = 0; i < n; i++) setGeohash(out, i, draw(rnd, bits)) },
    }
  },
})
