/**
 * Nested-loop joins: a join without equi-keys whose ON condition is not a plain `true` (`a.x < b.y`,
 * `a.k = b.k OR a.v = b.v`), of any type (INNER, LEFT, RIGHT, FULL). The right side is collected;
 * the ON condition is evaluated over blocks of left rows x right rows without building a joined
 * row per candidate pair:
 *
 * - the parts of the condition that read one side only (`b.v - 0.5`) are computed once per left
 *   batch or once over the right side (join-condition-sides.ts) and read as extra columns;
 * - a block is `rows` consecutive left rows of a batch times `width` consecutive right rows (the
 *   whole right side when it holds at most {@link JOIN_BATCH} / 2 rows, so a block covers several
 *   left rows; else one left row times a slice of {@link JOIN_BATCH} right rows);
 * - only the columns the condition names are put into the block: a left column as each row's value
 *   repeated `width` times (typed-array fills), a right column as the right side's own vector (a
 *   view of a slice) or, with several left rows a block, as the right side repeated, made once;
 * - a condition that is one comparison of two numbers (`a.v < b.v - 0.5` once split) skips the
 *   repeated values: the comparison's kernel runs per left row with that row as a constant
 *   (from {@link CONSTANT_ROW_MIN} right rows);
 * - the condition's mask gives the pairs that pass straight into typed pair buffers (branch-free),
 *   and only those pairs' rows of every column are gathered into the output, {@link JOIN_BATCH}
 *   at a time.
 *
 * Pairs come out in left-row order and, for one left row, in right-row order. A LEFT / FULL join's
 * left row that no pair kept follows in place, with nulls on the right. RIGHT / FULL mark the right
 * rows some pair kept (one byte each) and end with the others, with nulls on the left.
 */
import { type Batch, type Vector, gather, materialize, sliceVector } from '../../types/vector.js'
import type { BoundExpr, JoinNode } from '../../plan/plan-node.js'
import { comparisonOf, compareVectors } from '../../functions/scalar/compare.js'
import { type CmpOp, flipOp } from '../../functions/scalar/compare-kernels.js'
import { type ExecContext, YIELD_CHECK_WORK } from '../context.js'
import { compileExpr } from '../evaluate.js'
import { columnsOf } from '../../plan/optimize/walk.js'
import { evaluateSliced } from '../evaluate-sliced.js'
import { splitBySide } from './join-condition-sides.js'
import { collect } from './sort.js'
import type { Runner } from './runner.js'
import { JOIN_BATCH, buildJoined } from './hash-join.js'
import { rightOnly, unset } from './outer-join.js'

/**
 * Runs a join node without keys and with a residual ON condition ({@link JoinNode.residual}), of
 * type INNER, LEFT, RIGHT or FULL.
 */
export async function* runNestedLoopJoin(node: JoinNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const mem = ctx.memory.reservation(node.type === 'inner' || node.type === 'left' || node.type === 'cross' ? 'cross join right side' : 'nested loop join right side')
  const right = await collect(run, node.right, ctx, node.right.output, mem)
  const leftWidth = node.left.output.length, rightWidth = node.right.output.length
  // the condition per pair, reading the parts of one side as extra columns (join-condition-sides.ts)
  const split = splitBySide(node.residual!, leftWidth, rightWidth)
  const residual = compileExpr(split.expr, ctx)
  const full = node.type === 'full'
  const inlineLeft = node.type === 'left' || full
  const rightHit = node.type === 'right' || full ? new Uint8Array(right.length) : undefined
  if (rightHit !== undefined) mem.grow(right.length)
  const used = new Set<number>()
  columnsOf(split.expr, used)
  // the block's left inputs: left columns, and left expressions computed once per left batch
  const leftCols = [...used].filter((c) => c < leftWidth)
  const leftExprs = split.sides.filter((x) => x.side === 'left' && used.has(x.index)).map((x) => ({ index: x.index, eval: compileExpr(x.expr, ctx) }))
  const rightCols = [...used].filter((c) => c >= leftWidth && c < leftWidth + rightWidth)
  const rightExprs = split.sides.filter((x) => x.side === 'right' && used.has(x.index))
  const R = right.length
  // one comparison of a left input with a right input: its kernel called per left row with that
  // row's value as a constant (no repeated values), when both inputs are numbers
  const isLeft = (i: number) => i < leftWidth || split.sides.some((x) => x.index === i && x.side === 'left')
  const cmp = right.length >= CONSTANT_ROW_MIN ? compareParts(split.expr, isLeft, (i) => !isLeft(i)) : undefined
  // the right rows of a block: all of them when a block can hold two left rows or more, else a slice
  const width = cmp !== undefined ? Math.min(R, JOIN_BATCH) : R <= JOIN_BATCH >> 1 ? R : JOIN_BATCH
  const perBlock = width === 0 || cmp !== undefined ? 1 : Math.max(1, Math.floor(JOIN_BATCH / width))
  // the block's right inputs (columns, then right expressions computed once) by slice: with several
  // left rows a block, each repeated perBlock times; else the slices' views. Made at the first
  // block (a side that is never paired computes nothing, as a join per pair would)
  const rightAt = [...rightCols, ...rightExprs.map((x) => x.index)]
  let slices: Vector[][] | undefined
  const makeSlices = async (): Promise<Vector[][]> => {
    const whole = rightCols.map((c) => right.vectors[c - leftWidth]!)
    for (const x of rightExprs) whole.push(materialize(await evaluateSliced(x.expr, right, ctx)))
    if (perBlock > 1) {
      const tile = new Int32Array(perBlock * R)
      for (let k = 0; k < tile.length; k++) tile[k] = k % R
      mem.grow(8 * tile.length * whole.length)
      return [whole.map((v) => gather(v, tile, tile.length))]
    }
    const out: Vector[][] = []
    for (let from = 0; from < R; from += width) out.push(whole.map((v) => sliceVector(v, from, Math.min(R, from + width))))
    return out
  }
  // pair buffers: a block adds at most JOIN_BATCH entries to fewer than JOIN_BATCH kept ones
  const ls = new Int32Array(2 * JOIN_BATCH)
  const rs = new Int32Array(2 * JOIN_BATCH)
  const scratch = new Map<number, Scratch>()
  let work = 0
  for await (const b of run(node.left, ctx)) {
    let n = 0
    // the first `count` buffered pairs as joined rows; the rest moved to the front
    const emit = (count: number): Batch => {
      const out = buildJoined(b, right, ls.subarray(0, count), rs.subarray(0, count))
      if (rightHit !== undefined) for (let k = 0; k < count; k++) { const j = rs[k]!; if (j >= 0) rightHit[j] = 1 }
      ls.copyWithin(0, count, n); rs.copyWithin(0, count, n)
      n -= count
      return out
    }
    if (b.length === 0) continue
    if (R === 0) {
      if (inlineLeft) {
        // a batch can be longer than the pair buffers (a GROUP BY's result comes as one batch)
        for (let i = 0; i < b.length; i++) {
          ls[n] = i; rs[n++] = -1
          if (n === JOIN_BATCH) yield emit(n)
        }
        if (n > 0) yield emit(n)
      }
      continue
    }
    slices ??= await makeSlices()
    const vectors: Vector[] = [...b.vectors, ...right.vectors]
    const leftAt = [...leftCols]
    const leftVecs = leftCols.map((c) => b.vectors[c]!)
    for (const x of leftExprs) { leftAt.push(x.index); leftVecs.push(materialize(x.eval(b))) }
    const cmpLeft = cmp === undefined ? undefined : leftVecs[leftAt.indexOf(cmp.left)]!
    const fast = cmpLeft !== undefined && NUMBER_KINDS.has(cmpLeft.kind) && NUMBER_KINDS.has(slices[0]![rightAt.indexOf(cmp!.right)]!.kind)
    const leftRow = fast ? new RowConstant(cmpLeft) : undefined
    const cmpRight = cmp === undefined ? -1 : rightAt.indexOf(cmp.right)
    for (let i0 = 0; i0 < b.length; i0 += perBlock) {
      const rows = Math.min(perBlock, b.length - i0)
      let matched = false
      for (let s = 0; s < slices.length; s++) {
        const from = s * width, len = Math.min(width, R - from), total = rows * len
        const slice = slices[s]!
        let mask: Vector
        if (leftRow !== undefined) mask = compareVectors(cmp!.op, leftRow.at(i0, len), slice[cmpRight]!, len)
        else {
          for (let k = 0; k < leftAt.length; k++) vectors[leftAt[k]!] = repeatRows(leftVecs[k]!, i0, rows, len, scratchOf(scratch, leftAt[k]!))
          for (let k = 0; k < rightAt.length; k++) { const v = slice[k]!; vectors[rightAt[k]!] = v.length === total ? v : sliceVector(v, 0, total) }
          mask = residual({ length: total, vectors })
        }
        const before = n
        // a left row's null-extended pair: after its last slice, when no slice kept a pair
        const nullRow = inlineLeft && s === slices.length - 1 && !matched
        n = takePairs(mask, i0, rows, len, from, ls, rs, n, nullRow)
        if (perBlock === 1 && n > before && rs[n - 1]! >= 0) matched = true
        while (n >= JOIN_BATCH) yield emit(JOIN_BATCH)
        work += total
        if (work >= YIELD_CHECK_WORK) { work = 0; await ctx.maybeYield() }
      }
    }
    if (n > 0) yield emit(n)
    await ctx.maybeYield()
  }
  // the right rows no pair kept, with nulls on the left
  const lost = rightHit === undefined ? new Int32Array(0) : unset(rightHit)
  for (let from = 0; from < lost.length; from += JOIN_BATCH) {
    yield rightOnly(node, right, lost.subarray(from, Math.min(lost.length, from + JOIN_BATCH)))
    await ctx.maybeYield()
  }
  mem.close()
}

/**
 * Right rows from which one comparison runs per left row with that row as a constant: below, the
 * call per left row costs more than repeating its value in a block of several left rows.
 */
const CONSTANT_ROW_MIN = 256

/** Physical kinds of numbers: {@link compareVectors} compares them without a per-call cache. */
const NUMBER_KINDS: ReadonlySet<string> = new Set(['i8', 'i16', 'i32', 'i64', 'f32', 'f64'])

/** A condition that is one comparison: `left <op> right`, each a column of the block's input. */
interface CompareParts { readonly op: CmpOp; readonly left: number; readonly right: number }

/** `e` as {@link CompareParts} (turned round when the right input comes first), or undefined. */
function compareParts(e: BoundExpr, isLeft: (i: number) => boolean, isRight: (i: number) => boolean): CompareParts | undefined {
  if (e.kind !== 'call' || e.args.length !== 2) return undefined
  const [x, y] = e.args
  if (x!.kind !== 'column' || y!.kind !== 'column') return undefined
  const op = comparisonOf(e.def, [x.type, y.type])
  if (op === undefined) return undefined
  if (isLeft(x.index) && isRight(y.index)) return { op, left: x.index, right: y.index }
  if (isRight(x.index) && isLeft(y.index)) return { op: flipOp(op), left: y.index, right: x.index }
  return undefined
}

/**
 * One left row's value as a constant vector, rewritten in place for each row: a one-value array of
 * the left vector's own kind (a view per row would cost more than the comparison of a small block).
 */
class RowConstant {
  private readonly one: Float64Array
  private readonly vec: { length: number }
  constructor(private readonly v: Vector) {
    const data = v.data as Float64Array
    this.one = new (data.constructor as Float64ArrayConstructor)(1)
    this.vec = { ...(v as object), isConst: true, length: 0, data: this.one } as { length: number }
  }

  /** Row `i` of the vector as a constant of `len` rows (valid until the next call). */
  at(i: number, len: number): Vector {
    this.one[0] = (this.v.data as Float64Array)[this.v.isConst === true ? 0 : i]!
    this.vec.length = len
    return this.vec as unknown as Vector
  }
}

/** A reusable buffer for one left column's repeated values. */
interface Scratch { data: Vector['data'] | undefined }

function scratchOf(m: Map<number, Scratch>, c: number): Scratch {
  let s = m.get(c)
  if (s === undefined) m.set(c, s = { data: undefined })
  return s
}

/**
 * Rows `i0 .. i0 + rows` of `v`, each repeated `len` times. Typed arrays are filled into the
 * reusable `scratch` (the vector is read before the next call); text and binary get a new array;
 * arrays of values are gathered.
 */
function repeatRows(v: Vector, i0: number, rows: number, len: number, scratch: Scratch): Vector {
  const total = rows * len
  if (v.isConst === true) return { ...v, length: total }
  switch (v.kind) {
    case 'null': return { ...v, length: total }
    case 'arr': {
      const idx = new Int32Array(total)
      for (let r = 0; r < rows; r++) idx.fill(i0 + r, r * len, (r + 1) * len)
      return gather(v, idx, total)
    }
    case 'str': case 'bin': {
      const src = v.data as unknown[]
      const out = new Array<unknown>(total)
      for (let r = 0; r < rows; r++) out.fill(src[i0 + r], r * len, (r + 1) * len)
      return { ...v, length: total, data: out } as Vector
    }
    default: {
      const src = v.data as Float64Array
      let buf = scratch.data as Float64Array | undefined
      if (buf === undefined || buf.constructor !== src.constructor) scratch.data = buf = new (src.constructor as Float64ArrayConstructor)(JOIN_BATCH)
      const out = buf.subarray(0, total)
      for (let r = 0; r < rows; r++) out.fill(src[i0 + r]!, r * len, (r + 1) * len)
      return { ...v, length: total, data: out } as Vector
    }
  }
}

/**
 * Appends to `ls` / `rs` (from position `n`) the pairs a block's mask keeps: block row
 * `r * len + j` is left row `i0 + r` and right row `from + j`. With `nullRow`, a left row without a
 * kept pair is appended with right row -1. Returns the new count. The buffers must have room for
 * `n + rows * max(len, 1)` entries (the right rows are written before the count moves on).
 */
export function takePairs(mask: Vector, i0: number, rows: number, len: number, from: number, ls: Int32Array, rs: Int32Array, n: number, nullRow: boolean): number {
  const all = mask.kind === 'bool' && mask.isConst === true && mask.data[0] === 1
  const none = mask.kind !== 'bool' || (mask.isConst === true && !all)
  const d = mask.kind === 'bool' ? mask.data : undefined
  for (let r = 0; r < rows; r++) {
    const n0 = n, base = r * len
    if (all) for (let j = 0; j < len; j++) rs[n++] = from + j
    else if (!none) for (let j = 0; j < len; j++) { rs[n] = from + j; n += d![base + j]! & 1 }
    if (n > n0) ls.fill(i0 + r, n0, n)
    else if (nullRow) { ls[n] = i0 + r; rs[n++] = -1 }
  }
  return n
}
