/**
 * Rule `window-join-intervals`: when the left side of a WINDOW or HORIZON JOIN scans timestamp
 * intervals (its WHERE names the designated timestamp), the right scan reads only the rows a
 * window or horizon can reach: each left interval widened by the window, `[lo + windowLo,
 * hi + windowHi]`; with INCLUDE PREVAILING, and for HORIZON's ASOF matches, everything up to the
 * last left interval's end plus the window's (or the largest offset's) reach, as a prevailing row
 * may lie anywhere before. Runs after `extract-timestamp-intervals`; a right scan that has
 * intervals or runtime bounds of its own is left alone.
 */
import type { PlanNode, ScanNode } from '../plan-node.js'
import { mapChildren } from './walk.js'

/** The scan under a chain of filters, or undefined. */
function scanUnder(n: PlanNode): ScanNode | undefined {
  let m = n
  while (m.kind === 'filter') m = m.input
  return m.kind === 'scan' ? m : undefined
}

/** The scan whose rows are the left rows: under filters and the inner joins of a chain. */
function leftScanUnder(n: PlanNode): ScanNode | undefined {
  let m = n
  while (m.kind === 'filter' || m.kind === 'window_join') m = m.kind === 'filter' ? m.input : m.left
  return m.kind === 'scan' ? m : undefined
}

/** `n` with the scan under its filters replaced by `scan`. */
function withScan(n: PlanNode, scan: ScanNode): PlanNode {
  if (n.kind === 'scan') return scan
  if (n.kind === 'filter') return { ...n, input: withScan(n.input, scan) }
  return n
}

/** Widens sorted disjoint [lo, hi] pairs by `dLo` / `dHi` microseconds and merges the overlaps. */
export function widenIntervals(iv: Float64Array, dLo: number, dHi: number, openStart: boolean): Float64Array {
  if (openStart) return Float64Array.of(-Infinity, iv[iv.length - 1]! + dHi)
  const out: number[] = []
  for (let k = 0; k < iv.length; k += 2) {
    const lo = iv[k]! + dLo
    const hi = iv[k + 1]! + dHi
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi)
    else out.push(lo, hi)
  }
  return Float64Array.from(out)
}

/** Applies the rule to a whole plan. */
export function windowJoinIntervals(node: PlanNode): PlanNode {
  const n = mapChildren(node, windowJoinIntervals)
  if (n.kind !== 'window_join' && n.kind !== 'horizon_join') return n
  const left = leftScanUnder(n.left)
  const right = scanUnder(n.right)
  if (left?.intervals === undefined || left.intervals.length === 0 || right === undefined) return n
  if (right.intervals !== undefined || right.runtimeBounds !== undefined) return n
  // nanoseconds to whole microseconds, outward
  const dLo = n.kind === 'window_join' ? Math.floor(n.loNanos / 1000) : Math.floor(n.offsetsNanos[0]! / 1000)
  const dHi = n.kind === 'window_join' ? Math.ceil(n.hiNanos / 1000) : Math.ceil(n.offsetsNanos[n.offsetsNanos.length - 1]! / 1000)
  const openStart = n.kind === 'horizon_join' || n.includePrevailing
  const intervals = widenIntervals(left.intervals, dLo, dHi, openStart)
  return { ...n, right: withScan(n.right, { ...right, intervals }) }
}
