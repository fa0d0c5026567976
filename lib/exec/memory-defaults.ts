/**
 * Default memory budgets, derived from the machine and from V8's heap limit.
 *
 * JS objects (row arrays, strings, Maps) count against V8's `heap_size_limit`, and passing it is a
 * fatal, uncatchable crash ("JavaScript heap out of memory"); typed arrays live outside the heap
 * but count against physical memory. So the shared budget is the smaller of a share of physical
 * memory (QuestDB's `ram.usage.limit.percent`, 90 by default) and half the heap limit, which
 * leaves the other half to everything that is not a query's buffers (table data, connections,
 * the estimates' own error); one query may take half the shared budget, so a runaway query
 * leaves room for others.
 */
import { totalmem } from 'node:os'
import { getHeapStatistics } from 'node:v8'

/** QuestDB's default `ram.usage.limit.percent`. */
export const DEFAULT_RAM_PERCENT = 90

/** The cap the V8 heap puts on the shared budget: half of `heap_size_limit`. */
export function heapCap(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 2)
}

/**
 * The shared budget of all running statements: `bytes` when positive, else `percent` of physical
 * memory capped by the V8 heap limit (`heapCap`); `Infinity` when both are 0 (no limit, as in QuestDB).
 */
export function resolveTotalQueryMemory(bytes = 0, percent = DEFAULT_RAM_PERCENT): number {
  if (bytes > 0) return bytes
  if (percent <= 0) return Infinity
  return Math.min(Math.floor((totalmem() * Math.min(percent, 100)) / 100), heapCap())
}

/** The default per-statement budget: half the shared one. */
export function defaultQueryMemory(total: number): number {
  return total === Infinity ? Infinity : Math.floor(total / 2)
}
