/**
 * SAMPLE BY: a GROUP BY whose first key is the designated timestamp's bucket (issue: time-series SQL).
 * Output layout is the same as an aggregate node's: keys, then aggregates.
 */
import type { Scalar } from '../../types/vector.js'
import type { BoundAggregate, BoundExpr, NodeBase, PlanNode } from '../plan-node.js'

/** SAMPLE BY stride units: `n` nanos, `U` micros, `T` millis, `s`, `m`, `h`, `d`, `w`, `M` months, `y` years. */
export type SampleUnit = 'n' | 'U' | 'T' | 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y'

/** How one aggregate's empty buckets are filled (FILL(NONE) is the absence of a fill list). */
export type SampleFill =
  | { readonly kind: 'null' }
  | { readonly kind: 'prev' }
  | { readonly kind: 'linear' }
  /** a constant, already converted to the aggregate's type */
  | { readonly kind: 'value'; readonly value: Scalar }

/** Where buckets start. */
export type SampleAlign =
  | {
      readonly kind: 'calendar'
      /** TIME ZONE (a constant STRING expression) */
      readonly timeZone: BoundExpr | undefined
      /** WITH OFFSET '±HH:mm' (a constant STRING expression) */
      readonly offset: BoundExpr | undefined
    }
  | { readonly kind: 'first observation' }

/** SAMPLE BY: a bucketed aggregation over the designated timestamp. */
export interface SampleByNode extends NodeBase {
  readonly kind: 'sample_by'
  readonly input: PlanNode
  /** the select list's non-aggregate expressions (the bucket timestamp among them, see `bucketKey`) */
  readonly keys: readonly BoundExpr[]
  readonly aggregates: readonly BoundAggregate[]
  /** index in `input.output` of the designated timestamp being sampled */
  readonly timestampColumn: number
  /** index in `keys` of the designated timestamp (its output is the bucket start), or -1 */
  readonly bucketKey: number
  readonly stride: number
  readonly unit: SampleUnit
  readonly align: SampleAlign
  /** FROM (inclusive) and TO (exclusive): constant TIMESTAMP expressions, local time under TIME ZONE */
  readonly from: BoundExpr | undefined
  readonly to: BoundExpr | undefined
  /** one fill per aggregate, or undefined for FILL(NONE) */
  readonly fill: readonly SampleFill[] | undefined
}
