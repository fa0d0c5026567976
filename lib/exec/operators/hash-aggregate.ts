/**
 * GROUP BY (explicit or QuestDB's implicit one): assigns each row a dense group id from its key
 * values, then lets each aggregate kernel fold whole batches by group id.
 *
 * Group-id assignment has fast paths: no keys (one group), one SYMBOL key (the symbol key *is*
 * the group, via a small remap array — no hashing), one numeric key (a Map on the number);
 * anything else hashes a composite text key per row.
 */
import { internalError } from '../../errors.js'
import { LONG_NULL } from '../../types/column-type.js'
import { type Batch, type Scalar, type Vector, VectorWriter, getScalar, materialize } from '../../types/vector.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { AggregateNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { compileExpr } from '../evaluate.js'
import type { Runner } from './runner.js'
import { parallelAggregate } from '../parallel/parallel-aggregate.js'
import { TextIds } from './text-ids.js'
import { BOXED_BYTES, MAP_ENTRY_BYTES } from '../memory.js'
import { objectKey } from '../../types/array.js'

/** Bytes per group an aggregate kernel's fixed-width state takes (typed arrays grown by doubling). */
const KERNEL_GROUP_BYTES = 16

/** Assigns group ids for one batch of key vectors. */
interface GroupIndex {
  assign(keys: readonly Vector[], length: number, out: Int32Array): void
  /** number of groups so far */
  readonly count: number
  /** the key values of group g */
  keyValues(): Scalar[][]
  /** estimated bytes the index holds (its map and key values) */
  readonly bytes: number
}

/** Runs a GROUP BY node: keyed or not, on worker threads when the input is large enough. */
export async function* runAggregate(node: AggregateNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const parallel = parallelAggregate(node, ctx)
  if (parallel !== undefined) { yield* parallel; return }
  const keyEvals = node.keys.map((k) => compileExpr(k, ctx))
  const argEvals = node.aggregates.map((a) => a.args.map((e) => compileExpr(e, ctx)))
  const kernels: AggregateKernel[] = node.aggregates.map((a) => a.def.create(a.site))
  const keyed = node.keys.length > 0
  let index: GroupIndex | undefined
  let groups = new Int32Array(0)
  // given back when the groups are emitted; on failure or an early stop, when the statement ends
  const mem = ctx.memory.reservation(keyed ? 'GROUP BY' : 'aggregate')
  if (!keyed) for (const k of kernels) k.resize(1)
  for await (const b of run(node.input, ctx)) {
    if (!keyed) {
      for (let a = 0; a < kernels.length; a++) kernels[a]!.updateOne(0, argEvals[a]!.map((e) => e(b)), b.length)
      mem.resize(kernelBytes(kernels, 1))
      continue
    }
    const keys = keyEvals.map((e) => e(b))
    index ??= makeIndex(keys)
    if (groups.length < b.length) groups = new Int32Array(b.length)
    index.assign(keys, b.length, groups)
    for (let a = 0; a < kernels.length; a++) {
      kernels[a]!.resize(index.count)
      kernels[a]!.update(groups, argEvals[a]!.map((e) => e(b)), b.length)
    }
    mem.resize(index.bytes + kernelBytes(kernels, index.count))
    await ctx.maybeYield()
  }
  const count = keyed ? (index?.count ?? 0) : 1
  if (count === 0) return
  const vectors: Vector[] = []
  if (keyed) {
    const values = index!.keyValues()
    for (let k = 0; k < node.keys.length; k++) {
      const col = node.output[k]!
      const w = new VectorWriter(col.type, count, col.dict)
      const vs = values[k]!
      for (let g = 0; g < count; g++) w.set(g, vs[g]!)
      vectors.push(w.finish())
    }
  }
  for (const k of kernels) { k.resize(count); vectors.push(k.result(count)) }
  mem.close()
  yield { length: count, vectors }
}

/** Estimated bytes of the kernels' state for `groups` groups. */
function kernelBytes(kernels: readonly AggregateKernel[], groups: number): number {
  let n = 0
  for (const k of kernels) n += groups * KERNEL_GROUP_BYTES + (k.heapBytes?.() ?? 0)
  return n
}

function makeIndex(keys: readonly Vector[]): GroupIndex {
  if (keys.length === 1 && keys[0]!.kind === 'sym' && !keys[0]!.isConst) return new SymbolIndex()
  if (keys.length === 1 && (keys[0]!.kind === 'i32' || keys[0]!.kind === 'f64' || keys[0]!.kind === 'i8' || keys[0]!.kind === 'i16' || keys[0]!.kind === 'i64')) return new NumberIndex()
  return new CompositeIndex(keys.length)
}

/**
 * One SYMBOL key: the symbol key (+1 for null) maps to a group id through an array per
 * dictionary; groups are unified by string across dictionaries.
 */
class SymbolIndex implements GroupIndex {
  private readonly ids = new TextIds()

  get count(): number {
    return this.ids.count
  }

  get bytes(): number {
    return this.ids.count * (MAP_ENTRY_BYTES + 8)
  }

  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    const v = materialize(keys[0]!)
    if (v.kind !== 'sym') throw internalError('SymbolIndex on a non-symbol key')
    this.ids.assignSymbols(v.data, v.dict, length, out)
  }

  keyValues(): Scalar[][] {
    return [this.ids.values]
  }
}

/** One numeric key: a Map from the number (null included) to the group id. */
class NumberIndex implements GroupIndex {
  /** numbers, and bigints for 64-bit keys beyond 2^53 (a number and a bigint never collide) */
  private readonly map = new Map<number | bigint, number>()
  private readonly keys: Scalar[] = []
  count = 0

  get bytes(): number {
    return this.count * (MAP_ENTRY_BYTES + 8 + 2 * BOXED_BYTES)
  }

  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    const v = materialize(keys[0]!)
    if (v.kind === 'i64' && v.data instanceof BigInt64Array) {
      // a LONG batch holding values beyond 2^53: exact keys (safe ones stay numbers, as in other batches)
      for (let i = 0; i < length; i++) {
        const s = getScalar(v, i)
        out[i] = this.idOf(s === null ? NaN_KEY : (s as number | bigint), v, i)
      }
      return
    }
    const d = v.data as Float64Array
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      out[i] = this.idOf(x !== x ? NaN_KEY : x, v, i)
    }
  }

  private idOf(key: number | bigint, v: Vector, i: number): number {
    let g = this.map.get(key)
    if (g === undefined) {
      g = this.count++
      this.map.set(key, g)
      this.keys.push(getScalar(v, i))
    }
    return g
  }

  keyValues(): Scalar[][] {
    return [this.keys]
  }
}

const NaN_KEY = LONG_NULL

/** Any keys: a composite text key per row. */
class CompositeIndex implements GroupIndex {
  private readonly map = new Map<string, number>()
  private readonly keys: Scalar[][]
  count = 0
  /** characters of the text keys */
  private chars = 0

  constructor(private readonly width: number) {
    this.keys = Array.from({ length: width }, () => [])
  }

  assign(keys: readonly Vector[], length: number, out: Int32Array): void {
    const vs = keys.map(materialize)
    const parts: Scalar[] = new Array(this.width)
    for (let i = 0; i < length; i++) {
      let key = ''
      for (let k = 0; k < this.width; k++) {
        const s = getScalar(vs[k]!, i)
        parts[k] = s
        key += s === null ? '\u0001' : typeof s === 'object' ? `\u0002${objectKey(s)}` : `\u0000${typeof s}:${String(s)}`
        key += '\u0003'
      }
      let g = this.map.get(key)
      if (g === undefined) {
        g = this.count++
        for (let k = 0; k < this.width; k++) this.keys[k]!.push(parts[k]!)
        this.map.set(key, g)
        this.chars += key.length
      }
      out[i] = g
    }
  }

  keyValues(): Scalar[][] {
    return this.keys
  }

  get bytes(): number {
    // the text key (two bytes a character), its map entry, and each key value (boxed, referenced)
    return this.count * (MAP_ENTRY_BYTES + 24 + this.width * (8 + BOXED_BYTES)) + this.chars * 2
  }
}

