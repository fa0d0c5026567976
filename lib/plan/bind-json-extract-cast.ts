/**
 * `json_extract(doc, path)::type` bound as one typed extraction (QuestDB's json.md: the cast
 * right after json_extract picks the conversion, so `json_extract('1.75', '$')::long` is 1, not
 * a failed VARCHAR → LONG cast). Only an explicit cast of the call itself is rewritten; the call
 * alone stays VARCHAR, and targets outside QuestDB's table go through VARCHAR.
 */
import type { ColumnType } from '../types/column-type.js'
import type { BoundExpr } from './plan-node.js'
import { JSON_EXTRACT_TYPED, JSON_TYPED_TARGETS } from '../functions/scalar/json-extract-typed.js'

/** The typed extraction for a cast of `b` to `to`, or undefined when `b` is not a json_extract call or `to` is not a direct target. */
export function bindJsonExtractCast(b: BoundExpr, to: ColumnType): BoundExpr | undefined {
  if (b.kind !== 'call' || b.def.name !== 'json_extract' || b.args.length !== 2 || !JSON_TYPED_TARGETS.has(to)) return undefined
  return { kind: 'call', type: to, def: JSON_EXTRACT_TYPED, args: b.args, site: { ...b.site, returns: to } }
}
