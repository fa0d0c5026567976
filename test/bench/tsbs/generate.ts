/**
 * TSBS `cpu-only` (devops) data, generated deterministically: one row per host every 10 s from
 * 2016-01-01T00:00:00Z (TSBS's default start), the host's 10 tags (hostname plus the 9 tag
 * columns TSBS gives every host) and the 10 cpu metrics as bounded random walks (TSBS's shape,
 * not its exact numbers). Rows come in time order, in chunks of whole 10 s steps, so every
 * engine is fed the same rows without holding them all in memory.
 */

/** The tag columns, in table order (all SYMBOL / VARCHAR). */
export const TAGS = ['hostname', 'region', 'datacenter', 'rack', 'os', 'arch', 'team', 'service', 'service_version', 'service_environment'] as const
/** The metric columns, in table order (all DOUBLE). */
export const METRICS = ['usage_user', 'usage_system', 'usage_idle', 'usage_nice', 'usage_iowait', 'usage_irq', 'usage_softirq', 'usage_steal', 'usage_guest', 'usage_guest_nice'] as const
/** 2016-01-01T00:00:00Z in microseconds. */
export const START_MICROS = 1_451_606_400_000_000
/** One reading per host every 10 s. */
export const STEP_MICROS = 10_000_000

const REGIONS = ['us-east-1', 'us-west-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1', 'sa-east-1']
const OSES = ['Ubuntu16.10', 'Ubuntu16.04LTS', 'Ubuntu15.10']
const ARCHES = ['x64', 'x86']
const TEAMS = ['SF', 'NYC', 'LON', 'CHI']
const ENVS = ['production', 'staging', 'test']

/** A small seeded generator (xorshift32), floats in [0, 1). */
export class Rng {
  private s: number
  constructor(seed: number) { this.s = seed >>> 0 || 1 }
  next(): number {
    let x = this.s
    x ^= x << 13; x >>>= 0
    x ^= x >>> 17
    x ^= x << 5; x >>>= 0
    this.s = x
    return x / 4294967296
  }
  int(n: number): number { return Math.floor(this.next() * n) }
}

/** One data set's shape. */
export interface Shape {
  readonly hosts: number
  readonly days: number
}

/** Rows in a data set. */
export function rowCount(shape: Shape): number {
  return shape.hosts * steps(shape)
}

/** 10 s steps in a data set. */
export function steps(shape: Shape): number {
  return Math.round(shape.days * 8640)
}

/** The end of the data (exclusive), microseconds. */
export function endMicros(shape: Shape): number {
  return START_MICROS + steps(shape) * STEP_MICROS
}

/** The tags of every host: `tags[t][h]` is tag `t` of host `h`. */
export function hostTags(hosts: number): string[][] {
  const rng = new Rng(0x7353_4253)
  const tags: string[][] = TAGS.map(() => new Array<string>(hosts))
  for (let h = 0; h < hosts; h++) {
    const region = REGIONS[rng.int(REGIONS.length)]!
    const row = [`host_${h}`, region, `${region}${'abc'[rng.int(3)]!}`, String(rng.int(100)), OSES[rng.int(OSES.length)]!,
      ARCHES[rng.int(ARCHES.length)]!, TEAMS[rng.int(TEAMS.length)]!, String(rng.int(20)), String(rng.int(2)), ENVS[rng.int(ENVS.length)]!]
    for (let t = 0; t < TAGS.length; t++) tags[t]![h] = row[t]!
  }
  return tags
}

/** One chunk of rows, column by column. */
export interface Chunk {
  readonly length: number
  /** designated timestamp, microseconds */
  readonly ts: Float64Array
  /** `tags[t][i]`: tag `t` of row `i` */
  readonly tags: string[][]
  /** `metrics[m][i]` */
  readonly metrics: Float64Array[]
}

/** The rows of `shape` in time order, `stepsPerChunk` 10 s steps (x hosts rows) per chunk. */
export function* chunks(shape: Shape, stepsPerChunk = 100): Generator<Chunk> {
  const hosts = shape.hosts
  const total = steps(shape)
  const tags = hostTags(hosts)
  const rng = new Rng(0x5eed_cafe)
  const state = new Float64Array(hosts * METRICS.length)
  for (let k = 0; k < state.length; k++) state[k] = rng.next() * 100
  for (let s0 = 0; s0 < total; s0 += stepsPerChunk) {
    const n = Math.min(stepsPerChunk, total - s0) * hosts
    const ts = new Float64Array(n)
    const ctags = TAGS.map(() => new Array<string>(n))
    const metrics = METRICS.map(() => new Float64Array(n))
    let i = 0
    for (let s = s0; s < s0 + n / hosts; s++) {
      const t = START_MICROS + s * STEP_MICROS
      for (let h = 0; h < hosts; h++, i++) {
        ts[i] = t
        for (let g = 0; g < TAGS.length; g++) ctags[g]![i] = tags[g]![h]!
        for (let m = 0; m < METRICS.length; m++) {
          const k = h * METRICS.length + m
          let v = state[k]! + (rng.next() - 0.5) * 2
          if (v < 0) v = -v
          if (v > 100) v = 200 - v
          state[k] = v
          // two decimals, as TSBS's generated values look; keeps sums exact enough to compare
          metrics[m]![i] = Math.round(v * 100) / 100
        }
      }
    }
    yield { length: n, ts, tags: ctags, metrics }
  }
}
