/**
 * Time partitions: which partition a timestamp falls in, its bounds and its QuestDB-style name
 * (`2024-01-15T13` HOUR, `2024-01-15` DAY, `2024-W03` WEEK, `2024-01` MONTH, `2024` YEAR,
 * `default` NONE).
 */
import type { PartitionUnit } from '../sql/ast.js'

const US_PER_HOUR = 3_600_000_000
const US_PER_DAY = 86_400_000_000
/** 1970-01-01 was a Thursday: the Monday before it is 3 days earlier. */
const MONDAY_OFFSET = 3 * US_PER_DAY

/** A partition's bounds: `lo` inclusive, `hi` exclusive, in microseconds. */
export interface PartitionBounds {
  readonly lo: number
  readonly hi: number
}

/** The partition of timestamp `ts` (microseconds) under `unit`. */
export function partitionOf(ts: number, unit: PartitionUnit): PartitionBounds {
  switch (unit) {
    case 'NONE': return { lo: -Infinity, hi: Infinity }
    case 'HOUR': { const lo = Math.floor(ts / US_PER_HOUR) * US_PER_HOUR; return { lo, hi: lo + US_PER_HOUR } }
    case 'DAY': { const lo = Math.floor(ts / US_PER_DAY) * US_PER_DAY; return { lo, hi: lo + US_PER_DAY } }
    case 'WEEK': {
      const lo = Math.floor((ts + MONDAY_OFFSET) / (7 * US_PER_DAY)) * 7 * US_PER_DAY - MONDAY_OFFSET
      return { lo, hi: lo + 7 * US_PER_DAY }
    }
    case 'MONTH': {
      const d = new Date(Math.floor(ts / US_PER_DAY) * 86_400_000)
      const lo = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) * 1000
      return { lo, hi: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) * 1000 }
    }
    case 'YEAR': {
      const d = new Date(Math.floor(ts / US_PER_DAY) * 86_400_000)
      return { lo: Date.UTC(d.getUTCFullYear(), 0, 1) * 1000, hi: Date.UTC(d.getUTCFullYear() + 1, 0, 1) * 1000 }
    }
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** The directory name of the partition starting at `lo`. */
export function partitionName(lo: number, unit: PartitionUnit): string {
  if (unit === 'NONE') return 'default'
  const d = new Date(lo / 1000)
  const ymd = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  switch (unit) {
    case 'HOUR': return `${ymd}T${pad(d.getUTCHours())}`
    case 'DAY': return ymd
    case 'WEEK': {
      // ISO week: the week's Thursday decides the year
      const thu = new Date(lo / 1000 + 3 * 86_400_000)
      const jan1 = Date.UTC(thu.getUTCFullYear(), 0, 1)
      const week = Math.floor((thu.getTime() - jan1) / (7 * 86_400_000)) + 1
      return `${pad(thu.getUTCFullYear(), 4)}-W${pad(week)}`
    }
    case 'MONTH': return ymd.slice(0, 7)
    case 'YEAR': return ymd.slice(0, 4)
  }
}

/** Micros per TTL unit step, approximately for MONTH/YEAR (calendar arithmetic is in {@link ttlCutoff}). */
export function ttlCutoff(maxTs: number, count: number, unit: Exclude<PartitionUnit, 'NONE'>): number {
  switch (unit) {
    case 'HOUR': return maxTs - count * US_PER_HOUR
    case 'DAY': return maxTs - count * US_PER_DAY
    case 'WEEK': return maxTs - count * 7 * US_PER_DAY
    case 'MONTH': { const d = new Date(maxTs / 1000); d.setUTCMonth(d.getUTCMonth() - count); return d.getTime() * 1000 + (maxTs % 1000) }
    case 'YEAR': { const d = new Date(maxTs / 1000); d.setUTCFullYear(d.getUTCFullYear() - count); return d.getTime() * 1000 + (maxTs % 1000) }
  }
}
