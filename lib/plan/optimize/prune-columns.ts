/**
 * Rule `prune-columns`: scans read only the columns something above them uses, and filters pass
 * on only the columns their parent needs, so a filter over a wide table gathers one or two
 * columns instead of all of them. Pruning runs through projections, aggregates, SAMPLE BY, filters,
 * INNER / LEFT / RIGHT / FULL / CROSS joins and scans; other nodes keep their full inputs (their
 * children are pruned afresh below them).
 */
import type { OutputColumn, PlanNode } from '../plan-node.js'
import { columnsOf, mapChildren, remapExpr } from './walk.js'

interface Pruned {
  readonly node: PlanNode
  /** old output index -> new output index (-1 when dropped) */
  readonly map: Int32Array
}

function identity(n: number): Int32Array {
  const m = new Int32Array(n)
  for (let i = 0; i < n; i++) m[i] = i
  return m
}

/** Prunes `node` so that its output keeps at least the columns in `required`. */
function prune(node: PlanNode, required: ReadonlySet<number>): Pruned {
  switch (node.kind) {
    case 'scan': {
      const keep = node.columns.map((_, i) => i).filter((i) => required.has(i))
      if (keep.length === node.columns.length) return { node, map: identity(keep.length) }
      const map = new Int32Array(node.columns.length).fill(-1)
      keep.forEach((old, i) => { map[old] = i })
      const ts = node.timestampIndex < 0 ? -1 : map[node.timestampIndex]!
      return { node: { ...node, columns: keep.map((i) => node.columns[i]!), output: keep.map((i) => node.output[i]!), timestampIndex: ts }, map }
    }
    case 'table_function': {
      if (node.def.pushdown !== true) return { node, map: identity(node.output.length) }
      const base = node.columns ?? node.output.map((_, i) => i)
      const keep = node.output.map((_, i) => i).filter((i) => required.has(i))
      if (keep.length === node.output.length) return { node, map: identity(keep.length) }
      const map = new Int32Array(node.output.length).fill(-1)
      keep.forEach((old, i) => { map[old] = i })
      const ts = node.timestampIndex < 0 ? -1 : map[node.timestampIndex]!
      return { node: { ...node, columns: keep.map((i) => base[i]!), output: keep.map((i) => node.output[i]!), timestampIndex: ts }, map }
    }
    case 'filter': {
      const width = node.projection?.length ?? node.input.output.length
      const base = node.projection ?? Array.from({ length: width }, (_, i) => i)
      const needed = new Set<number>()
      columnsOf(node.predicate, needed)
      for (const r of required) needed.add(base[r]!)
      const child = prune(node.input, needed)
      const kept = base.map((_, i) => (required.has(i) ? i : -1)).filter((i) => i >= 0)
      const projection = kept.map((i) => child.map[base[i]!]!)
      const map = new Int32Array(width).fill(-1)
      kept.forEach((old, i) => { map[old] = i })
      const output: OutputColumn[] = projection.map((j) => child.node.output[j]!)
      const ts = node.timestampIndex < 0 ? -1 : map[node.timestampIndex]!
      const identityProjection = projection.length === child.node.output.length && projection.every((j, i) => j === i)
      const filter = {
        kind: 'filter' as const, input: child.node, predicate: remapExpr(node.predicate, child.map), output, timestampIndex: ts,
        ...(identityProjection ? {} : { projection }),
      }
      return { node: filter, map }
    }
    case 'project': {
      const needed = new Set<number>()
      for (const e of node.exprs) columnsOf(e, needed)
      const child = prune(node.input, needed)
      return { node: { ...node, input: child.node, exprs: node.exprs.map((e) => remapExpr(e, child.map)) }, map: identity(node.output.length) }
    }
    case 'aggregate': {
      const needed = new Set<number>()
      for (const e of node.keys) columnsOf(e, needed)
      for (const a of node.aggregates) for (const e of a.args) columnsOf(e, needed)
      const child = prune(node.input, needed)
      return {
        node: {
          ...node, input: child.node, keys: node.keys.map((e) => remapExpr(e, child.map)),
          aggregates: node.aggregates.map((a) => ({ ...a, args: a.args.map((e) => remapExpr(e, child.map)) })),
        },
        map: identity(node.output.length),
      }
    }
    case 'sample_by': {
      // keys, aggregate arguments and the sampled timestamp; FROM / TO / FILL are constants
      const needed = new Set<number>([node.timestampColumn])
      for (const e of node.keys) columnsOf(e, needed)
      for (const a of node.aggregates) for (const e of a.args) columnsOf(e, needed)
      const child = prune(node.input, needed)
      return {
        node: {
          ...node, input: child.node, keys: node.keys.map((e) => remapExpr(e, child.map)), timestampColumn: child.map[node.timestampColumn]!,
          aggregates: node.aggregates.map((a) => ({ ...a, args: a.args.map((e) => remapExpr(e, child.map)) })),
        },
        map: identity(node.output.length),
      }
    }
    case 'window_join': {
      // the right side is read for its keys, timestamp and the right aggregates' arguments only
      const needed = new Set<number>([node.right.timestampIndex])
      for (const e of node.rightKeys) columnsOf(e, needed)
      for (const a of node.aggregates) if (a.side === 'right') for (const e of a.args) columnsOf(e, needed)
      const right = prune(node.right, needed)
      const wj = {
        ...node, left: pruneAll(node.left), right: right.node, rightKeys: node.rightKeys.map((e) => remapExpr(e, right.map)),
        aggregates: node.aggregates.map((a) => (a.side === 'right' ? { ...a, args: a.args.map((e) => remapExpr(e, right.map)) } : a)),
      }
      return { node: wj, map: identity(node.output.length) }
    }
    case 'horizon_join': {
      // left columns, offset, horizon timestamp, then the right columns used above (and keys, timestamp)
      const width = node.left.output.length + 2
      const needed = new Set<number>([node.right.timestampIndex])
      for (const e of node.rightKeys) columnsOf(e, needed)
      for (const r of required) if (r >= width) needed.add(r - width)
      const right = prune(node.right, needed)
      const map = new Int32Array(node.output.length)
      for (let i = 0; i < map.length; i++) map[i] = i < width ? i : right.map[i - width]! < 0 ? -1 : width + right.map[i - width]!
      const hj = {
        ...node, left: pruneAll(node.left), right: right.node, rightKeys: node.rightKeys.map((e) => remapExpr(e, right.map)),
        output: [...node.output.slice(0, width), ...right.node.output],
      }
      return { node: hj, map }
    }
    case 'join': {
      // each side keeps the columns used above, its keys and the ON condition's columns; the
      // joined rows then gather no column nothing reads (the pairs' gather is most of a join's work)
      const lw = node.left.output.length
      const needL = new Set<number>(), needR = new Set<number>()
      const need = (c: number) => { if (c < lw) needL.add(c); else needR.add(c - lw) }
      for (const r of required) need(r)
      for (const e of node.leftKeys) columnsOf(e, needL)
      for (const e of node.rightKeys) columnsOf(e, needR)
      if (node.residual !== undefined) { const s = new Set<number>(); columnsOf(node.residual, s); s.forEach(need) }
      const left = prune(node.left, needL), right = prune(node.right, needR)
      const nlw = left.node.output.length
      const map = new Int32Array(node.output.length)
      for (let i = 0; i < map.length; i++) map[i] = i < lw ? left.map[i]! : right.map[i - lw]! < 0 ? -1 : nlw + right.map[i - lw]!
      const join = {
        ...node, left: left.node, right: right.node,
        leftKeys: node.leftKeys.map((e) => remapExpr(e, left.map)), rightKeys: node.rightKeys.map((e) => remapExpr(e, right.map)),
        residual: node.residual === undefined ? undefined : remapExpr(node.residual, map),
        output: node.output.filter((_, i) => map[i]! >= 0), timestampIndex: node.timestampIndex < 0 ? -1 : map[node.timestampIndex]!,
      }
      return { node: join, map }
    }
    default:
      return { node: mapChildren(node, pruneAll), map: identity(node.output.length) }
  }
}

/** Prunes below `node`, keeping all of its own output columns. */
function pruneAll(node: PlanNode): PlanNode {
  return prune(node, new Set(node.output.map((_, i) => i))).node
}

/** Applies the rule to a whole plan (the root keeps every output column). */
export function pruneColumns(node: PlanNode): PlanNode {
  return pruneAll(node)
}
