/**
 * `generate_series` over TIMESTAMP_NS bounds (QuestDB 9: a TIMESTAMP_NS bound, or a string bound
 * with nanosecond digits, makes the series TIMESTAMP_NS): a step string may use `n` (`'500n'`),
 * a LONG step counts nanoseconds; `M`/`y` steps move on the calendar and keep the time of day to
 * the nanosecond.
 */
import { SqlError, SqlState } from '../../errors.js'
import { nsBig, nsScalar } from '../../types/timestamp-ns.js'
import { BATCH_SIZE, type Batch, VectorWriter, sliceVector } from '../../types/vector.js'
import type { CallSite } from '../registry-types.js'
import { addMonths } from './generate-series.js'

const UNIT_NS: Record<string, bigint> = { n: 1n, u: 1000n, U: 1000n, T: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n, d: 86_400_000_000_000n, w: 604_800_000_000_000n }

/** A parsed nanosecond step: fixed nanoseconds, or calendar months. */
type NsStep = { readonly kind: 'fixed'; readonly value: bigint } | { readonly kind: 'months'; readonly value: number }

function parseNsStep(text: string, pos: number): NsStep {
  const m = /^\s*(-?)(\d*)([nuUTsmhdwMy])\s*$/.exec(text)
  if (m === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid step [step=${text}]`, pos)
  const k = (m[2] === '' ? 1 : Number(m[2])) * (m[1] === '-' ? -1 : 1)
  if (m[3] === 'M') return { kind: 'months', value: k }
  if (m[3] === 'y') return { kind: 'months', value: k * 12 }
  return { kind: 'fixed', value: BigInt(k) * UNIT_NS[m[3]!]! }
}

function boundNs(site: CallSite, i: number): bigint {
  const v = site.constants[i]
  if (typeof v !== 'number' && typeof v !== 'bigint') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'non-null constant expected', site.argPositions[i] ?? site.pos)
  return nsBig(v)
}

/** `ns + months` on the calendar, the sub-microsecond digits kept. */
function addMonthsNs(ns: bigint, months: number): bigint {
  let us = ns / 1000n
  if (us * 1000n > ns) us -= 1n
  return BigInt(addMonths(Number(us), months)) * 1000n + (ns - us * 1000n)
}

/** The batches of a TIMESTAMP_NS generate_series call. */
export function nsSeries(site: CallSite): Iterable<Batch> {
  const a = boundNs(site, 0), b = boundNs(site, 1)
  const lo = a < b ? a : b, hi = a < b ? b : a
  const pos = site.argPositions[2] ?? site.pos
  const v = site.constants[2]
  const step: NsStep = site.argTypes.length < 3 ? { kind: 'fixed', value: UNIT_NS['d']! }
    : typeof v === 'string' ? parseNsStep(v, pos)
      : typeof v === 'number' || typeof v === 'bigint' ? { kind: 'fixed', value: nsBig(v) }
        : (() => { throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'non-null constant expected', pos) })()
  if (step.kind === 'fixed' ? step.value === 0n : step.value === 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'step cannot be zero', pos)
  const up = step.kind === 'fixed' ? step.value > 0n : step.value > 0
  const base = up ? lo : hi
  return {
    *[Symbol.iterator]() {
      let i = 0
      for (;;) {
        const w = new VectorWriter('TIMESTAMP_NS', BATCH_SIZE)
        let len = 0
        while (len < BATCH_SIZE) {
          const x = step.kind === 'months' ? addMonthsNs(base, i * step.value) : base + BigInt(i) * step.value
          if (up ? x > hi : x < lo) break
          w.set(len++, nsScalar(x))
          i++
        }
        if (len === 0) return
        const vec = w.finish()
        yield { length: len, vectors: [len === BATCH_SIZE ? vec : sliceVector(vec, 0, len)] }
        if (len < BATCH_SIZE) return
      }
    },
  }
}
