/**
 * The fast path of ILP parsing: a line shaped like one parsed before is matched against that
 * line's bytes and its values go straight into the request's column builders, with no call per
 * name or value.
 *
 * A {@link LineTemplate} is made from a line the general parser ({@link LineParser}) has just
 * parsed: the bytes between its values (table name, tag and field names, separators, a binary
 * value's `==` and type byte) become literals, each value a step that knows its form and its
 * builder. A later line whose bytes equal the literals names the same table and the same
 * columns in the same order, and its values have the same forms; the template reads each value
 * to its end, checks it as the general path would, and only when the whole line matched stores
 * the values (nothing of a line that does not match is kept). Anything the template does not
 * know — a different byte, an escape, an empty value, a value of another form, a bad number, a
 * timestamp before 1970, a line cut by the chunk's end — makes {@link LineTemplate.match} answer
 * {@link NO_MATCH}, and the general parser parses the line again (and throws its error).
 *
 * Templates cover the common shapes of ingestion: SYMBOL tags, DOUBLE fields (protocol 2's
 * binary doubles or text floats), LONG (or DOUBLE) fields from `123i` integers, the designated
 * TIMESTAMP (or TIMESTAMP_NS) from the line's timestamp or the server clock. A line with any other column type,
 * a string, a duplicate name or the designated timestamp as a field gets no template.
 */
import { isUtf8 } from 'node:buffer'
import { type ColumnBuilder, F64Builder, I64Builder, NsFromMicrosBuilder, SymBuilder, SYM_HASH_SEED } from './column-builder.js'
import type { LineFastPath } from './line-parser.js'
import { LAST_SUB_MICROS, parseFloatBytes, parseIntegerBytes, timestampToMicros, type TimeUnit } from './number-bytes.js'
import { type CompiledMatch, compileAfter, compiledMatcher } from './line-matcher.js'
import type { RowsColumn, TableRows } from './request-rows.js'

const NL = 10, CR = 13, SP = 32, COMMA = 44, EQ = 61, BS = 92, QUOTE = 34

/** What {@link LineTemplate.match} answers for a line it does not take. */
export const NO_MATCH = -1

/** Step kinds: a value's form and where it goes. */
const SYM = 0, BIN_F64 = 1, TEXT_F64 = 2, INT_I64 = 3, INT_F64 = 4

/** What a template needs of the request besides the table. */
export interface TemplateContext {
  /** unit of timestamps without a suffix */
  readonly unit: TimeUnit
  /** the server clock in microseconds (lines without a timestamp) */
  readonly clock: () => number
  /** makes room for one more row in every builder of the table */
  readonly grow: (t: TableRows) => void
}

/** A line shape of one table; see the module comment. */
export class LineTemplate implements LineFastPath {
  /** per step: the value's start, end and (symbols) hash, or its number, while a line is matched */
  private readonly starts: Int32Array
  private readonly ends: Int32Array
  private readonly hashes: Int32Array
  private readonly nums: Float64Array
  /** per numeric step: the builder's array (replaced when the table's builders grow); read by the compiled matcher @internal */
  readonly arrays: Float64Array[]
  /** @internal */
  tsArray: Float64Array
  /** a TIMESTAMP_NS designated timestamp's nanoseconds past the microsecond, else undefined @internal */
  tsSub: Uint16Array | undefined
  /** the matched line's nanoseconds past its timestamp's microsecond */
  private sub = 0
  /** the table's room when {@link arrays} were taken @internal */
  cap = -1
  /** lines matched so far; at {@link compileAfter} the template gets its {@link compiled} matcher */
  private hits = 0
  /** this shape's generated matcher (line-matcher.ts), once the template has matched enough lines */
  private compiled: CompiledMatch | undefined
  /** the literals as little-endian 32-bit words (a literal's last 0-3 bytes are compared alone); literal k's end at {@link wordEnd}[k] */
  private readonly words: Int32Array
  private readonly wordEnd: Int32Array
  /** per literal of 4+ bytes whose length is not a multiple of 4: its last 4 bytes as one word (compared overlapping the last whole word), with {@link tailKind} 1 */
  private readonly tailWord: Int32Array
  /** per literal: 0 = no bytes after its whole words, 1 = {@link tailWord}, 2 = 1-3 bytes compared one by one (a literal under 4 bytes) */
  private readonly tailKind: Uint8Array

  /**
   * @param lit the literal bytes; literal k (before value k) is `lit[litEnd[k-1], litEnd[k])`,
   *   the last one (after the last value) ends the line or precedes its timestamp
   */
  private constructor(
    /** @internal */
    readonly t: TableRows,
    /** @internal */
    readonly lit: Uint8Array,
    /** @internal */
    readonly litEnd: Int32Array,
    /** @internal */
    readonly kinds: Uint8Array,
    /** @internal */
    readonly builders: readonly ColumnBuilder[],
    private readonly ts: I64Builder,
    /** @internal */
    readonly hasTs: boolean,
    /** @internal */
    readonly ctx: TemplateContext,
  ) {
    const n = kinds.length
    this.starts = new Int32Array(n)
    this.ends = new Int32Array(n)
    this.hashes = new Int32Array(n)
    this.nums = new Float64Array(n)
    this.arrays = new Array<Float64Array>(n)
    const words: number[] = []
    this.wordEnd = new Int32Array(litEnd.length)
    const litView = new DataView(lit.buffer, lit.byteOffset, lit.length)
    this.tailWord = new Int32Array(litEnd.length)
    this.tailKind = new Uint8Array(litEnd.length)
    for (let k = 0, l = 0; k < litEnd.length; l = litEnd[k]!, k++) {
      const le = litEnd[k]!
      const start = l
      for (; l + 4 <= le; l += 4) words.push(litView.getInt32(l, true))
      this.wordEnd[k] = words.length
      if (l === le) continue
      if (le - start >= 4) { this.tailKind[k] = 1; this.tailWord[k] = litView.getInt32(le - 4, true) } else this.tailKind[k] = 2
    }
    this.words = Int32Array.from(words)
    this.tsArray = ts.data
    this.tsSub = ts instanceof NsFromMicrosBuilder ? ts.sub : undefined
  }

  /**
   * The template of the line `buf[s, e]` (`e` its terminating `\n` or `\r`) that the general
   * parser has just handed to the sink for table `t` (so `t.shape` holds its columns), or
   * undefined when the line has a shape templates do not cover.
   */
  static of(buf: Uint8Array, s: number, e: number, t: TableRows, ctx: TemplateContext): LineTemplate | undefined {
    const lit = new Uint8Array(e - s + 1)
    let litLen = 0
    const litEnd: number[] = []
    const kinds: number[] = []
    const cols: (RowsColumn | undefined)[] = []
    let seg = s
    /** ends the current literal at `p`, where value `kind` of the next name starts */
    const step = (p: number, kind: number): void => {
      lit.set(buf.subarray(seg, p), litLen)
      litLen += p - seg
      litEnd.push(litLen)
      kinds.push(kind)
      cols.push(t.shape[cols.length])
    }
    let p = s
    for (; p < e && buf[p] !== COMMA && buf[p] !== SP; p++) if (buf[p] === BS) return undefined
    // tags
    while (buf[p] === COMMA) {
      p = nameEnd(buf, p + 1, e)
      if (p < 0) return undefined
      step(++p, SYM)
      const v = p
      for (; p < e && buf[p] !== COMMA && buf[p] !== SP; p++) if (buf[p] === BS) return undefined
      if (p === v || p >= e) return undefined
      seg = p
    }
    if (buf[p] !== SP) return undefined
    p++
    // fields
    for (;;) {
      const n = nameEnd(buf, p, e)
      if (n <= p) return undefined
      p = n + 1
      if (buf[p] === EQ) {
        if (buf[p + 1] !== 0x10) return undefined
        step(p + 2, BIN_F64)
        p += 10
        if (p > e) return undefined
      } else {
        const v = p
        for (; p < e && buf[p] !== COMMA && buf[p] !== SP; p++) if (buf[p] === BS || buf[p] === QUOTE) return undefined
        const kind = textKind(buf, v, p)
        if (kind < 0) return undefined
        step(v, kind)
      }
      seg = p
      if (p < e && buf[p] === COMMA) { p++; continue }
      break
    }
    const hasTs = p < e
    if (hasTs) { p++; if (p >= e) return undefined } else p = e + 1
    lit.set(buf.subarray(seg, p), litLen)
    litLen += p - seg
    litEnd.push(litLen)
    // the columns: each once, none the designated timestamp, builders of the forms' types
    const ts = t.ts?.builder
    if (!(ts instanceof I64Builder) || (ts.type !== 'TIMESTAMP' && !(ts instanceof NsFromMicrosBuilder))) return undefined
    const builders: ColumnBuilder[] = []
    for (let k = 0; k < cols.length; k++) {
      const c = cols[k]
      const b = c?.builder
      if (c === undefined || b === undefined || c === t.ts || cols.indexOf(c) !== k || b.type !== c.type) return undefined
      const kind = kinds[k]!
      if (kind === SYM) { if (!(b instanceof SymBuilder)) return undefined } else if (b instanceof F64Builder) {
        if (kind === INT_I64) kinds[k] = INT_F64
      } else if (kind !== INT_I64 || !(b instanceof I64Builder) || b.type !== 'LONG') return undefined
      builders.push(b)
    }
    return new LineTemplate(t, lit.slice(0, litLen), Int32Array.from(litEnd), Uint8Array.from(kinds), builders, ts, hasTs, ctx)
  }

  /**
   * Matches the line at `buf[p]` (not a line end) and stores its row; returns the position after
   * the line, or {@link NO_MATCH} (nothing stored).
   */
  match(buf: Uint8Array, p: number, end: number, view: DataView): number {
    if (this.compiled !== undefined) return this.compiled(buf, p, end, view, this)
    const next = this.walk(buf, p, end, view)
    if (next >= 0 && ++this.hits >= compileAfter) this.compiled = compiledMatcher(this, textKind)
    return next
  }

  /** {@link match} by walking the template's steps (before it is compiled). */
  private walk(buf: Uint8Array, p: number, end: number, view: DataView): number {
    const lit = this.lit, litEnd = this.litEnd, kinds = this.kinds, words = this.words, wordEnd = this.wordEnd, tailKind = this.tailKind, tailWord = this.tailWord
    const n = kinds.length
    let l = 0, w = 0
    for (let k = 0; k < n; k++) {
      const le = litEnd[k]!
      if (p + le - l >= end) return NO_MATCH
      for (const we = wordEnd[k]!; w < we; w++, l += 4, p += 4) if (view.getInt32(p, true) !== words[w]) return NO_MATCH
      const tk = tailKind[k]!
      if (tk === 1) {
        p += le - l
        l = le
        if (view.getInt32(p - 4, true) !== tailWord[k]) return NO_MATCH
      } else if (tk === 2) for (; l < le; l++, p++) if (buf[p] !== lit[l]) return NO_MATCH
      const kind = kinds[k]!
      if (kind === BIN_F64) {
        if (p + 8 >= end) return NO_MATCH
        this.nums[k] = view.getFloat64(p, true)
        p += 8
      } else if (kind === SYM) {
        let h = SYM_HASH_SEED, hi = 0, q = p
        for (;; q++) {
          if (q >= end) return NO_MATCH
          const c = buf[q]!
          if (c === COMMA || c === SP) break
          if (c === NL || c === CR || c === BS) return NO_MATCH
          hi |= c
          h = Math.imul(h ^ c, 16777619)
        }
        if (q === p || (hi >= 0x80 && !isUtf8(buf.subarray(p, q)))) return NO_MATCH
        this.starts[k] = p
        this.ends[k] = q
        this.hashes[k] = h
        p = q
      } else {
        let q = p
        for (;; q++) {
          if (q >= end) return NO_MATCH
          const c = buf[q]!
          if (c === COMMA || c === SP || c === NL || c === CR) break
          if (c === BS) return NO_MATCH
        }
        if (textKind(buf, p, q) !== (kind === TEXT_F64 ? TEXT_F64 : INT_I64)) return NO_MATCH
        const v = kind === TEXT_F64 ? parseFloatBytes(buf, p, q) : parseIntegerBytes(buf, p, q - 1)
        if (typeof v !== 'number') return NO_MATCH
        this.nums[k] = v
        p = q
      }
    }
    // the last literal, then the timestamp or the line's end
    const le = litEnd[n]!
    if (p + le - l > end) return NO_MATCH
    for (const we = wordEnd[n]!; w < we; w++, l += 4, p += 4) if (view.getInt32(p, true) !== words[w]) return NO_MATCH
    if (tailKind[n] === 1) {
      p += le - l
      l = le
      if (view.getInt32(p - 4, true) !== tailWord[n]) return NO_MATCH
    } else for (; l < le; l++, p++) if (buf[p] !== lit[l]) return NO_MATCH
    let micros: number
    if (this.hasTs) {
      let q = p
      for (;; q++) {
        if (q >= end) return NO_MATCH
        const c = buf[q]!
        if (c === NL || c === CR) break
        if (c === SP) return NO_MATCH
      }
      let unit = this.ctx.unit
      let te = q
      const last = buf[q - 1]!
      if (last === 110 /* n */) { unit = 'n'; te-- } else if (last === 116 /* t */) { unit = 'u'; te-- } else if (last === 109 /* m */) { unit = 'ms'; te-- }
      const v = timestampToMicros(buf, p, te, unit)
      if (v === undefined) return NO_MATCH
      micros = v
      this.sub = LAST_SUB_MICROS.nanos
      p = q + 1
    } else { micros = this.ctx.clock(); this.sub = 0 }
    // -0: a negative timestamp above -1 µs (`-5n`), which the full parser refuses for a TIMESTAMP_NS column
    if (!(micros >= 0) || micros === Infinity || Object.is(micros, -0)) return NO_MATCH
    this.store(buf, micros)
    return p
  }

  /** Stores the matched line's values as the table's next row. */
  private store(buf: Uint8Array, micros: number): void {
    const t = this.t
    const row = t.rows
    if (row >= t.cap) this.ctx.grow(t)
    if (t.cap !== this.cap) this.refresh()
    const kinds = this.kinds, nums = this.nums, arrays = this.arrays
    for (let k = 0; k < kinds.length; k++) {
      if (kinds[k] === SYM) (this.builders[k] as SymBuilder).setHashed(row, buf, this.starts[k]!, this.ends[k]!, this.hashes[k]!)
      else arrays[k]![row] = nums[k]!
    }
    this.tsArray[row] = micros
    if (this.tsSub !== undefined) this.tsSub[row] = this.sub
    t.rows = row + 1
  }

  /** Takes the builders' arrays again (a growth replaced them). @internal */
  refresh(): void {
    for (let k = 0; k < this.kinds.length; k++) {
      const b = this.builders[k]
      if (b instanceof F64Builder || b instanceof I64Builder) this.arrays[k] = b.data
    }
    this.tsArray = this.ts.data
    if (this.ts instanceof NsFromMicrosBuilder) this.tsSub = this.ts.sub
    this.cap = this.t.cap
  }
}

/** The `=` ending the tag or field name from `p` (before `e`), or -1 (an escape, a separator, none). */
function nameEnd(buf: Uint8Array, p: number, e: number): number {
  for (; p < e; p++) {
    const c = buf[p]!
    if (c === EQ) return p
    if (c === BS || c === COMMA || c === SP) return -1
  }
  return -1
}

/**
 * The step kind of the unquoted text value `buf[s, e)` as the general parser reads it: TEXT_F64
 * for a float starting like a number, INT_I64 for a decimal `…i` integer, -1 for anything else
 * (booleans, `0x…i`, decimals, timestamps, NaN / Infinity words, empty).
 */
function textKind(buf: Uint8Array, s: number, e: number): number {
  if (e <= s) return -1
  const first = buf[s]!
  if (!((first >= 48 && first <= 57) || first === 45 || first === 43 || first === 46)) return -1
  const last = buf[e - 1]!
  if (last === 105 /* i */) return first === 48 && e - s > 3 && (buf[s + 1] === 120 || buf[s + 1] === 88) ? -1 : INT_I64
  if (last === 100 || last === 116 || last === 110 || last === 109) return -1
  return TEXT_F64
}
