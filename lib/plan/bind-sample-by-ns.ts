/**
 * SAMPLE BY over a TIMESTAMP_NS designated timestamp: the buckets are computed in microseconds
 * and the bucket column returned in nanoseconds, as QuestDB 9 returns it. The input gains one
 * column, the designated timestamp floored to the microsecond, which the sampling runs on (the
 * rows stay in order); aggregates keep reading the nanosecond column, so `first(ts)` stays
 * exact; the bucket key, a microsecond boundary, is widened back to TIMESTAMP_NS on the way out.
 * Units below a microsecond (`SAMPLE BY 100n`) sample the nanosecond column directly
 * (`exec/operators/sample-by-ns.ts`), with FROM / TO at nanosecond precision.
 */
import type { BoundExpr, PlanNode } from './plan-node.js'
import type { SampleByArgs } from './bind-time-series.js'

/**
 * Binds `a` with `bind` (the microsecond binder) when its designated timestamp is TIMESTAMP_NS;
 * undefined otherwise.
 */
export function bindSampleByNs(a: SampleByArgs, bind: (a: SampleByArgs) => PlanNode): PlanNode | undefined {
  const ts = a.source.timestampIndex
  if (ts < 0 || a.source.output[ts]!.type !== 'TIMESTAMP_NS') return undefined
  const sb = a.select.sampleBy!
  if (/n$/.test(sb.interval.trim())) {
    // nanosecond strides run on the nanosecond column itself, FROM / TO bound as TIMESTAMP_NS
    // (exec/operators/sample-by-ns.ts)
    return bind({ ...a, nanoseconds: true })
  }
  const n = a.source.output.length
  const exprs: BoundExpr[] = a.source.output.map((c, i) => (c.dict === undefined ? { kind: 'column', type: c.type, index: i } : { kind: 'column', type: c.type, index: i, dict: c.dict }))
  exprs.push({ kind: 'cast', type: 'TIMESTAMP', expr: { kind: 'column', type: 'TIMESTAMP_NS', index: ts }, pos: sb.pos })
  const source: PlanNode = {
    kind: 'project', input: a.source, exprs,
    output: [...a.source.output, { name: a.source.output[ts]!.name + '_us', type: 'TIMESTAMP' }],
    timestampIndex: n,
  }
  const keys = a.keys.map((k): BoundExpr => (k.kind === 'column' && k.index === ts ? { kind: 'column', type: 'TIMESTAMP', index: n } : k))
  const node = bind({ ...a, source, keys })
  const back = node.output.map((c, i): BoundExpr => {
    const col: BoundExpr = c.dict === undefined ? { kind: 'column', type: c.type, index: i } : { kind: 'column', type: c.type, index: i, dict: c.dict }
    return i === node.timestampIndex && c.type === 'TIMESTAMP' ? { kind: 'cast', type: 'TIMESTAMP_NS', expr: col, pos: sb.pos } : col
  })
  return {
    kind: 'project', input: node, exprs: back,
    output: node.output.map((c, i) => (i === node.timestampIndex && c.type === 'TIMESTAMP' ? { ...c, type: 'TIMESTAMP_NS' } : c)),
    timestampIndex: node.timestampIndex,
  }
}
