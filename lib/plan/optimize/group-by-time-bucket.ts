/**
 * Rule `group-by-time-bucket`: a GROUP BY whose keys include `timestamp_floor('<n><unit>', ts)` or
 * `date_trunc('<unit>', ts)` over its input's designated timestamp `ts` runs as the equivalent
 * SAMPLE BY (calendar-aligned, no FILL, no TIME ZONE, no FROM/TO): the SAMPLE BY operator gives
 * each row its bucket by arithmetic on the ordered timestamps and keys the other columns per
 * bucket, where the hash aggregate would hash a composite text key per row.
 *
 * Why the answers are equal: without TIME ZONE, WITH OFFSET or FROM, SAMPLE BY's calendar buckets
 * start at `floor((ts - origin) / size) * size + origin` (origin the epoch, Monday 1969-12-29 for
 * weeks; months and years counted from 1970-01), which is what `timestamp_floor(unit, ts)`
 * computes (`floorTo`), and `date_trunc` is `floorTo` with stride 1 (a quarter is 3 months). A
 * designated timestamp is never null, so no row falls in a null bucket. The output keeps the
 * aggregate's columns, names and (absent) designated timestamp; only its order becomes the
 * buckets' order, which GROUP BY never promised otherwise.
 */
import { parseUnit } from '../../functions/scalar/time-helpers.js'
import type { AggregateNode, BoundExpr, PlanNode } from '../plan-node.js'
import type { SampleByNode, SampleUnit } from '../nodes/sample-by.js'
import { columnsOf, mapChildren } from './walk.js'

/** date_trunc's units that are a SAMPLE BY stride (the rest have no SAMPLE BY form). */
const TRUNC_UNITS: Readonly<Record<string, { stride: number; unit: SampleUnit }>> = {
  year: { stride: 1, unit: 'y' }, quarter: { stride: 3, unit: 'M' }, month: { stride: 1, unit: 'M' }, week: { stride: 1, unit: 'w' },
  day: { stride: 1, unit: 'd' }, hour: { stride: 1, unit: 'h' }, minute: { stride: 1, unit: 'm' }, second: { stride: 1, unit: 's' },
  millisecond: { stride: 1, unit: 'T' }, milliseconds: { stride: 1, unit: 'T' },
}

/** The constant text of `e` (a literal, possibly cast), or undefined. */
function constText(e: BoundExpr): string | undefined {
  if (e.kind === 'cast') return constText(e.expr)
  return e.kind === 'const' && typeof e.value === 'string' ? e.value : undefined
}

/** The SAMPLE BY stride of key `e` when it buckets input column `ts`, or undefined. */
export function bucketOf(e: BoundExpr, ts: number): { stride: number; unit: SampleUnit } | undefined {
  if (e.kind !== 'call' || e.args.length !== 2) return undefined
  const [u, t] = e.args as [BoundExpr, BoundExpr]
  if (t.kind !== 'column' || t.index !== ts || t.type !== 'TIMESTAMP') return undefined
  const text = constText(u)
  if (text === undefined) return undefined
  if (e.def.name === 'date_trunc') return TRUNC_UNITS[text.toLowerCase()]
  if (e.def.name !== 'timestamp_floor') return undefined
  let parsed: ReturnType<typeof parseUnit>
  try {
    parsed = parseUnit(text, -1)
  } catch {
    return undefined // the function reports a bad unit itself when it runs
  }
  if (parsed.unit === 'n' || !Number.isSafeInteger(parsed.stride)) return undefined
  return { stride: parsed.stride, unit: parsed.unit === 'u' ? 'U' : parsed.unit }
}

/** The SAMPLE BY form of `node`, or undefined when it has none. */
function asSampleBy(node: AggregateNode): SampleByNode | undefined {
  const ts = node.input.timestampIndex
  if (ts < 0 || node.aggregates.length === 0) return undefined
  let bucketKey = -1
  let bucket: { stride: number; unit: SampleUnit } | undefined
  for (let k = 0; k < node.keys.length; k++) {
    const b = bucketOf(node.keys[k]!, ts)
    if (b !== undefined && bucketKey < 0) { bucketKey = k; bucket = b; continue }
    const read = new Set<number>()
    columnsOf(node.keys[k]!, read)
    if (read.has(ts)) return undefined // another key reads the timestamp: leave it to the hash aggregate
  }
  if (bucket === undefined) return undefined
  const keys = node.keys.map((k, i): BoundExpr => (i === bucketKey ? { kind: 'column', type: 'TIMESTAMP', index: ts } : k))
  return {
    kind: 'sample_by', input: node.input, keys, aggregates: node.aggregates, timestampColumn: ts, bucketKey,
    stride: bucket.stride, unit: bucket.unit, align: { kind: 'calendar', timeZone: undefined, offset: undefined },
    from: undefined, to: undefined, fill: undefined, output: node.output, timestampIndex: node.timestampIndex,
  }
}

/** Applies the rule everywhere in the plan. */
export function groupByTimeBucket(node: PlanNode): PlanNode {
  const n = mapChildren(node, groupByTimeBucket)
  return n.kind === 'aggregate' ? asSampleBy(n) ?? n : n
}
