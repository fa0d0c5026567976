/**
 * The InfluxDB Line Protocol parser: reads `table[,tag=v...] [field=v[,...]] [timestamp]\n`
 * lines straight from bytes (no string per line), as QuestDB's `LineTcpParser` reads them, and
 * hands each name and value to a {@link LineSink}.
 *
 * - Escapes: outside quoted strings a backslash makes the next byte literal (`\\` is refused in
 *   table and column names); inside quoted strings a backslash escapes any next byte.
 * - Field values by their form: `123i` integer (`0x…i` LONG256), `123t`/`123n`/`123m` timestamp
 *   in µs/ns/ms, `t|true|f|false` (any case) boolean, `"…"` string, an empty value null,
 *   `1.5d` a decimal (protocol v3), anything else a float; binary values after `name==`:
 *   protocol v2's 0x10 double and arrays, v3's decimals (0x17), and the other scalar forms
 *   QuestDB reads (int32, int64, float32, boolean, timestamp).
 * - Lines end at `\n` or `\r`; empty lines are skipped; a line may hold only tags.
 *
 * {@link LineParser.parse} returns where the first incomplete line starts: the caller keeps
 * those bytes and parses them again with the next chunk (the sink is told to forget the
 * incomplete line's values). Binary values may hold newline bytes, so lines cannot be split at
 * `\n` before parsing.
 */
import { isUtf8 } from 'node:buffer'
import { DoubleArray } from '../types/array.js'
import { LineError } from './ilp-error.js'
import { type DecimalValue, LAST_SUB_MICROS, parseDecimalBytes, parseFloatBytes, parseIntegerBytes, timestampToMicros, twosComplementBE, type TimeUnit } from './number-bytes.js'

/** Receives the parts of each line, in order. A method may throw a {@link LineError}. */
export interface LineSink {
  /**
   * a line starts: its table name; `same`: the previous line named the same table (its bytes
   * equal, so the sink may skip comparing them)
   */
  table(buf: Uint8Array, s: number, e: number, same: boolean): void
  /**
   * the name of the next tag (`tag` true) or field; its value follows. `same`: this line so far
   * (table and names) is the previous line's, and this name is the previous line's name at the
   * same position
   */
  column(buf: Uint8Array, s: number, e: number, tag: boolean, same: boolean): void
  symbol(buf: Uint8Array, s: number, e: number): void
  float(v: number): void
  integer(v: number | bigint): void
  string(v: string): void
  boolean(v: boolean): void
  /** a timestamp field, in microseconds; `unit` is the unit it was sent in (its suffix or binary unit) */
  timestamp(micros: number, unit: TimeUnit): void
  long256(hex: string): void
  /** a protocol-2 DOUBLE array (null for a null array) */
  array(v: DoubleArray | null): void
  /** a protocol-3 decimal (null for a null decimal) */
  decimal(v: DecimalValue | null): void
  nul(): void
  /**
   * the line ends; `micros` is the designated timestamp, NaN when the line has none; `unit` is the
   * unit its suffix named (`n`, `t`, `m`), undefined for a bare number or no timestamp
   */
  endLine(micros: number, unit?: TimeUnit): void
  /** the line started last is incomplete: forget its values */
  abortLine(): void
  /**
   * Optional: a matcher of later lines shaped like the line `buf[s, e]` (`e` its terminating
   * byte) just ended, or undefined. The parser tries its last few matchers on each line before
   * parsing it (line-template.ts).
   */
  fastPath?(buf: Uint8Array, s: number, e: number, unit: TimeUnit): LineFastPath | undefined
}

/**
 * Takes a whole line whose shape it knows and stores its values itself: returns the position
 * after the line, or a negative number when it does not take the line (then nothing of it was
 * stored, and the parser parses it).
 */
export interface LineFastPath {
  match(buf: Uint8Array, p: number, end: number, view: DataView): number
}

/** Line shapes the parser keeps matchers of. */
const FAST_PATHS = 4
/** Most lines parsed without asking for a matcher after a line had none (doubling from 1). */
const MAX_FAST_BACKOFF = 256

const NL = 10, CR = 13, SP = 32, COMMA = 44, EQ = 61, BS = 92, QUOTE = 34

/** Sentinel: the line does not end in this buffer. */
const INCOMPLETE = -1
/** Sentinel: what follows the tags is not a field but the timestamp of a line without fields. */
const TAG_ONLY = -2

/** Names (table first) remembered per position of the previous line. */
const MAX_REMEMBERED = 64

/** Throws unless `b`, the byte after a field value, ends it (`,`, space or end of line). */
function checkFieldEnd(b: number): void {
  if (b !== COMMA && b !== SP && b !== NL && b !== CR) throw new LineError('INVALID_FIELD_SEPARATOR')
}

/** Byte parser of one stream of lines (an HTTP body or a TCP connection). */
export class LineParser {
  /** non-empty lines started so far (the failing line's number in errors) */
  lines = 0
  /** lines the sink's fast paths took (not parsed here) */
  fastLines = 0
  private scratch = Buffer.allocUnsafe(256)
  private esc = false
  /** the name or value {@link scanName} / {@link scanValue} found last is ASCII (no UTF-8 check needed) */
  private ascii = true
  /** a view of the buffer being parsed, to read little-endian binary values (cheaper than Buffer.readDoubleLE's checks) */
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0))

  /**
   * The raw bytes of the previous line's names by position (table name at 0), when they held no
   * escape ({@link prevLen} -1 otherwise): a line of the same shape as the last is matched
   * against them byte for byte instead of being scanned for separators.
   */
  private prev = new Uint8Array(1024)
  private readonly prevAt = new Int32Array(MAX_REMEMBERED)
  private readonly prevLen = new Int32Array(MAX_REMEMBERED).fill(-1)
  /** the previous line's names up to the position being parsed all matched */
  private same = false
  /** the sink's matchers of recent line shapes, the newest first */
  private fast: LineFastPath[] = []
  /** lines still to parse before asking the sink for a matcher again, and the last such wait */
  private fastSkip = 0
  private fastBackoff = 0

  constructor(private readonly sink: LineSink, private readonly unit: TimeUnit, private readonly maxLine = Infinity) {}

  /**
   * Where the name at position `pos` ends when its bytes from `p` are the previous line's name at
   * that position followed by a byte that ends a name (`,` space `\n` `\r`, and `=` unless it is
   * the table name), else -1. Such a name scans the same as before: no escape, no separator
   * inside, valid UTF-8.
   */
  private again(buf: Buffer, p: number, end: number, pos: number): number {
    if (pos >= MAX_REMEMBERED) return -1
    const len = this.prevLen[pos]!
    if (len < 0 || p + len >= end) return -1
    const prev = this.prev
    const at = this.prevAt[pos]!
    for (let i = 0; i < len; i++) if (buf[p + i] !== prev[at + i]) return -1
    const b = buf[p + len]!
    return b === COMMA || b === SP || b === NL || b === CR || (b === EQ && pos > 0) ? p + len : -1
  }

  /** Remembers the name `buf[s, e)` at position `pos` (unless it held escapes). */
  private remember(buf: Buffer, s: number, e: number, pos: number): void {
    if (pos >= MAX_REMEMBERED) return
    if (this.esc) { this.prevLen[pos] = -1; return }
    const at = pos === 0 ? 0 : this.prevLen[pos - 1]! < 0 ? this.prevEnd(pos - 1) : this.prevAt[pos - 1]! + this.prevLen[pos - 1]!
    if (at + e - s > this.prev.length) { const next = new Uint8Array(Math.max(2 * this.prev.length, at + e - s)); next.set(this.prev); this.prev = next }
    this.prev.set(buf.subarray(s, e), at)
    this.prevAt[pos] = at
    this.prevLen[pos] = e - s
    // the positions after it belong to another name now
    if (pos + 1 < MAX_REMEMBERED) this.prevLen[pos + 1] = -1
  }

  /** Where the remembered bytes up to position `pos` end. */
  private prevEnd(pos: number): number {
    for (let k = pos; k >= 0; k--) if (this.prevLen[k]! >= 0) return this.prevAt[k]! + this.prevLen[k]!
    return 0
  }

  /**
   * Parses the complete lines of `buf[start, end)`; returns where the first incomplete line
   * starts (`end` when every line was complete).
   */
  parse(buf: Buffer, start: number, end: number): number {
    if (this.view.buffer !== buf.buffer || this.view.byteOffset !== buf.byteOffset || this.view.byteLength !== buf.length) this.view = new DataView(buf.buffer, buf.byteOffset, buf.length)
    const fast = this.fast
    const learn = this.sink.fastPath !== undefined
    let p = start
    while (p < end) {
      const b = buf[p]!
      if (b === NL || b === CR) { p++; continue }
      const lineStart = p
      this.lines++
      let next = -1
      for (let i = 0; i < fast.length && next < 0; i++) next = fast[i]!.match(buf, p, end, this.view)
      if (next < 0) {
        next = this.line(buf, p, end)
        if (next === INCOMPLETE) {
          this.lines--
          this.sink.abortLine()
          return lineStart
        }
        if (learn) this.learn(buf, lineStart, next - 1)
      } else this.fastLines++
      if (next - lineStart > this.maxLine) throw new LineError(`line is too long [length=${next - lineStart}, max=${this.maxLine}] (line.http.max.recv.buffer.size)`, 413, 'request too large')
      p = next
    }
    return end
  }

  /** Asks the sink for a matcher of lines shaped like `buf[s, e]`, backing off while lines have none. */
  private learn(buf: Buffer, s: number, e: number): void {
    if (this.fastSkip > 0) { this.fastSkip--; return }
    const m = this.sink.fastPath!(buf, s, e, this.unit)
    if (m === undefined) {
      this.fastBackoff = Math.min(MAX_FAST_BACKOFF, 2 * this.fastBackoff + 1)
      this.fastSkip = this.fastBackoff
      return
    }
    this.fastBackoff = 0
    this.fast.unshift(m)
    if (this.fast.length > FAST_PATHS) this.fast.pop()
  }

  /** Parses one line from `p`; returns the position after its end, or INCOMPLETE. */
  private line(buf: Buffer, p: number, end: number): number {
    const sink = this.sink
    // table name
    let pos = 0
    let e = this.again(buf, p, end, 0)
    if (e >= 0) { this.same = true; sink.table(buf, p, e, true) } else {
      this.same = false
      e = this.scanName(buf, p, end, true)
      if (e === INCOMPLETE) return INCOMPLETE
      if (e === p) throw new LineError('INVALID_TABLE_NAME')
      this.name(buf, p, e, sink, 0)
      this.remember(buf, p, e, 0)
    }
    p = e
    let b = buf[p]!
    if (b === NL || b === CR) throw new LineError('No fields were provided')
    let tags = false
    // tags
    while (b === COMMA) {
      tags = true
      p++
      e = this.nameAt(buf, p, end, ++pos, 1)
      if (e === INCOMPLETE) return INCOMPLETE
      p = e + 1
      e = this.scanValue(buf, p, end)
      if (e === INCOMPLETE) return INCOMPLETE
      if (e === p) throw new LineError('Could not parse entire line. Symbol value is missing')
      if (this.esc) { const n = this.unescape(buf, p, e); this.checkUtf8(this.scratch, 0, n); sink.symbol(this.scratch, 0, n) } else { if (!this.ascii) this.checkUtf8(buf, p, e); sink.symbol(buf, p, e) }
      p = e
      b = buf[p]!
    }
    if (b === NL || b === CR) { sink.endLine(NaN); return p + 1 }
    // b is a space: fields, or (two spaces) the timestamp
    p++
    if (p >= end) return INCOMPLETE
    b = buf[p]!
    if (b !== SP && b !== NL && b !== CR) {
      for (let first = true; ; first = false) {
        e = this.nameAt(buf, p, end, ++pos, first && tags ? 3 : 2)
        if (e === INCOMPLETE) return INCOMPLETE
        // a tag-only line with a timestamp: `t,a=b 123`
        if (e === TAG_ONLY) break
        const nameStart = p, nameEnd = e
        p = e + 1
        if (p >= end) return INCOMPLETE
        b = buf[p]!
        if (b === QUOTE) p = this.quoted(buf, p + 1, end)
        else if (b === EQ) p = this.binary(buf, p + 1, end)
        else {
          e = this.scanValue(buf, p, end)
          if (e === INCOMPLETE) return INCOMPLETE
          if (e === p) sink.nul()
          else this.value(buf, p, e, nameStart, nameEnd)
          p = e
        }
        if (p === INCOMPLETE) return INCOMPLETE
        if (p >= end) return INCOMPLETE
        b = buf[p]!
        if (b === COMMA) { p++; continue }
        if (b === NL || b === CR) { sink.endLine(NaN); return p + 1 }
        if (b !== SP) throw new LineError('INVALID_FIELD_SEPARATOR')
        p++
        break
      }
      if (p >= end) return INCOMPLETE
      b = buf[p]!
    } else if (!tags) {
      throw new LineError('No fields were provided')
    } else if (b === SP) {
      p++
      if (p >= end) return INCOMPLETE
      b = buf[p]!
    }
    // optional timestamp
    if (b === NL || b === CR) { sink.endLine(NaN); return p + 1 }
    let q = p
    while (q < end) { const c = buf[q]!; if (c === NL || c === CR) break; if (c === SP) throw new LineError('INVALID_FIELD_SEPARATOR'); q++ }
    if (q >= end) return INCOMPLETE
    let unit = this.unit
    let te = q
    const last = buf[q - 1]!
    if (last === 110 /* n */) { unit = 'n'; te-- } else if (last === 116 /* t */) { unit = 'u'; te-- } else if (last === 109 /* m */) { unit = 'ms'; te-- }
    const micros = timestampToMicros(buf, p, te, unit)
    if (micros === undefined) throw new LineError(`Could not parse timestamp: ${buf.toString('utf8', p, q)}`)
    sink.endLine(micros, te === q ? undefined : unit)
    return q + 1
  }

  /**
   * The end of a name from `p` (table name when `table`, else a tag or field key); sets
   * {@link esc} when it holds escapes. Returns INCOMPLETE at the buffer's end.
   */
  private scanName(buf: Buffer, p: number, end: number, table: boolean): number {
    this.esc = false
    let hi = 0
    while (p < end) {
      const b = buf[p]!
      hi |= b
      if (b === BS) {
        if (p + 1 >= end) return INCOMPLETE
        if (buf[p + 1] === BS) throw new LineError(table ? 'INVALID_TABLE_NAME' : 'INVALID_COLUMN_NAME')
        this.esc = true
        hi |= buf[p + 1]!
        p += 2
        continue
      }
      if (b === COMMA || b === SP || b === NL || b === CR) { this.ascii = hi < 0x80; return p }
      if (b === EQ) { if (table) { p++; continue } this.ascii = hi < 0x80; return p }
      if (b === 0) throw new LineError(table ? 'INVALID_TABLE_NAME' : 'INVALID_COLUMN_NAME')
      p++
    }
    return INCOMPLETE
  }

  /** The end of an unquoted value (tag value or field value) from `p`; sets {@link esc}. */
  private scanValue(buf: Buffer, p: number, end: number): number {
    this.esc = false
    let hi = 0
    while (p < end) {
      const b = buf[p]!
      hi |= b
      if (b === BS) {
        if (p + 1 >= end) return INCOMPLETE
        this.esc = true
        hi |= buf[p + 1]!
        p += 2
        continue
      }
      if (b === COMMA || b === SP || b === NL || b === CR) { this.ascii = hi < 0x80; return p }
      p++
    }
    return INCOMPLETE
  }

  /**
   * The tag (kind 1) or field (2; 3: the first after tags, which may be the timestamp of a line
   * without fields) name at position `pos` of the line, from `p`: matched against the previous
   * line's or scanned, checked, handed to the sink, remembered. Returns where it ends (at its
   * `=`), INCOMPLETE, or TAG_ONLY.
   */
  private nameAt(buf: Buffer, p: number, end: number, pos: number, kind: number): number {
    if (this.same) {
      const e = this.again(buf, p, end, pos)
      if (e >= 0 && buf[e] === EQ) { this.sink.column(buf, p, e, kind === 1, true); return e }
      this.same = false
    }
    const e = this.scanName(buf, p, end, false)
    if (e === INCOMPLETE) return INCOMPLETE
    if (kind === 3) {
      if (buf[e] === NL || buf[e] === CR) return TAG_ONLY
      kind = 2
    }
    if (kind === 1) {
      if (buf[e] !== EQ) throw new LineError(e === p ? 'Could not parse entire line. Symbol value is missing' : 'INVALID_FIELD_SEPARATOR')
      if (e === p) throw new LineError('INVALID_COLUMN_NAME')
    } else {
      if (buf[e] !== EQ) throw new LineError(e === p ? 'INVALID_COLUMN_NAME' : `Could not parse entire line. Field value is missing: ${buf.toString('utf8', p, e)}`)
      if (e === p) throw new LineError('INVALID_COLUMN_NAME')
    }
    this.name(buf, p, e, this.sink, kind)
    this.remember(buf, p, e, pos)
    return e
  }

  /** Hands a table (kind 0), tag (1) or field (2) name to the sink, unescaped. */
  private name(buf: Buffer, s: number, e: number, sink: LineSink, kind: number): void {
    let b: Uint8Array = buf
    if (this.esc) { e = this.unescape(buf, s, e); s = 0; b = this.scratch }
    if (!this.ascii && !isUtf8(b.subarray(s, e))) throw new LineError(kind === 0 ? 'INVALID_TABLE_NAME' : 'INVALID_COLUMN_NAME')
    if (kind === 0) sink.table(b, s, e, false)
    else sink.column(b, s, e, kind === 1, false)
  }

  /** Copies `buf[s, e)` into the scratch buffer without its escaping backslashes; returns the length. */
  private unescape(buf: Uint8Array, s: number, e: number): number {
    if (this.scratch.length < e - s) this.scratch = Buffer.allocUnsafe(Math.max(e - s, this.scratch.length * 2))
    const out = this.scratch
    let n = 0
    for (let i = s; i < e; i++) {
      let b = buf[i]!
      if (b === BS && i + 1 < e) b = buf[++i]!
      out[n++] = b
    }
    return n
  }

  private checkUtf8(buf: Uint8Array, s: number, e: number): void {
    for (let i = s; i < e; i++) {
      if (buf[i]! >= 0x80) { if (!isUtf8(buf.subarray(s, e))) throw new LineError('invalid UTF-8 sequence'); return }
    }
  }

  /** A quoted string from `p` (after the quote); returns the position after the closing quote. */
  private quoted(buf: Buffer, p: number, end: number): number {
    let esc = false
    let q = p
    while (q < end) {
      const b = buf[q]!
      if (b === BS) { if (q + 1 >= end) return INCOMPLETE; esc = true; q += 2; continue }
      if (b === QUOTE) break
      if (b === NL || b === CR) throw new LineError('INVALID_FIELD_VALUE')
      q++
    }
    if (q >= end) return INCOMPLETE
    let text: string
    if (esc) {
      const n = this.unescape(buf, p, q)
      this.checkUtf8(this.scratch, 0, n)
      text = this.scratch.toString('utf8', 0, n)
    } else {
      this.checkUtf8(buf, p, q)
      text = buf.toString('utf8', p, q)
    }
    this.sink.string(text)
    q++
    if (q >= end) return INCOMPLETE
    checkFieldEnd(buf[q]!)
    return q
  }

  /** A binary value (protocol v2) from `p`, the type byte; returns the position after it. */
  private binary(buf: Buffer, p: number, end: number): number {
    if (p >= end) return INCOMPLETE
    const type = buf[p]!
    let size: number
    switch (type) {
      case 0x10: case 15: size = 8; break
      case 3: case 2: size = 4; break
      case 6: size = 1; break
      case 13: size = 9; break
      case 14: return this.array(buf, p + 1, end)
      case 23: return this.decimal(buf, p + 1, end)
      default: throw new LineError('UNSUPPORTED_BINARY_FORMAT')
    }
    const v = p + 1
    // the value's bytes and the separator after them
    if (v + size >= end) return INCOMPLETE
    const sink = this.sink
    switch (type) {
      case 0x10: sink.float(this.view.getFloat64(v, true)); break
      case 15: { const x = buf.readBigInt64LE(v); sink.integer(x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x); break }
      case 3: sink.integer(buf.readInt32LE(v)); break
      case 2: sink.float(buf.readFloatLE(v)); break
      case 6: sink.boolean(buf[v] !== 0); break
      case 13: {
        const unit = BINARY_UNITS[buf[v]!]
        if (unit === undefined) throw new LineError('UNSUPPORTED_BINARY_FORMAT')
        const raw = buf.readBigInt64LE(v + 1)
        const micros = unit === 'n' ? raw / 1000n : raw * BigInt(MICROS_PER[unit])
        LAST_SUB_MICROS.nanos = unit === 'n' && raw > 0n ? Number(raw % 1000n) : 0
        LAST_SUB_MICROS.negative = raw < 0n
        LAST_SUB_MICROS.negativeNanos = unit === 'n' && raw < 0n ? Number(-raw % 1000n) : 0
        sink.timestamp(Number(micros), unit)
        break
      }
    }
    const q = v + size
    checkFieldEnd(buf[q]!)
    return q
  }

  /**
   * A protocol-2 array from `p` (after its type byte): element type (10 = DOUBLE; 33 or 41, the
   * NULL codes of Node clients and of QuestDB, = a null array), dimension count (0 = null),
   * each dimension as int32 LE, the doubles row-major. Returns the position after it.
   */
  private array(buf: Buffer, p: number, end: number): number {
    if (p >= end) return INCOMPLETE
    const elem = buf[p]!
    let q = p + 1
    let value: DoubleArray | null = null
    if (elem !== 33 && elem !== 41) {
      if (elem !== 10) throw new LineError('ARRAY_INVALID_TYPE')
      if (q >= end) return INCOMPLETE
      const dims = buf[q++]!
      if (dims > 32) throw new LineError('ARRAY_TOO_LARGE')
      if (q + 4 * dims > end) return INCOMPLETE
      const shape: number[] = []
      let size = 1
      for (let d = 0; d < dims; d++) {
        const n = buf.readInt32LE(q)
        q += 4
        if (n < 0) throw new LineError('ARRAY_INVALID_TYPE')
        shape.push(n)
        size *= n
      }
      if (size * 8 > 0x7fffffff) throw new LineError('ARRAY_TOO_LARGE')
      if (q + size * 8 >= end) return INCOMPLETE
      if (dims > 0) {
        const values = new Float64Array(size)
        for (let i = 0; i < size; i++) values[i] = buf.readDoubleLE(q + 8 * i)
        value = new DoubleArray(shape, values)
      }
      q += size * 8
    }
    if (q >= end) return INCOMPLETE
    checkFieldEnd(buf[q]!)
    this.sink.array(value)
    return q
  }

  /**
   * A protocol-3 binary decimal from `p` (after its type byte): scale (0..76), byte length
   * (0 = null, at most 32), the unscaled value big-endian two's complement. Returns the position
   * after it.
   */
  private decimal(buf: Buffer, p: number, end: number): number {
    if (p + 1 >= end) return INCOMPLETE
    const scale = buf[p]!
    const len = buf[p + 1]!
    if (scale > 76) throw new LineError('DECIMAL_INVALID_SCALE')
    if (len > 32) throw new LineError('DECIMAL_OVERFLOW')
    const q = p + 2 + len
    if (q >= end) return INCOMPLETE
    checkFieldEnd(buf[q]!)
    this.sink.decimal(len === 0 ? null : { unscaled: twosComplementBE(buf, p + 2, len), scale })
    return q
  }

  /** A text field value in `buf[s, e)` (unquoted, not empty). */
  private value(buf: Buffer, s: number, e: number, nameStart: number, nameEnd: number): void {
    const sink = this.sink
    if (this.esc) throw this.invalid(buf, s, e, nameStart, nameEnd)
    const last = buf[e - 1]!
    const first = buf[s]!
    const numeric = (first >= 48 && first <= 57) || first === 45 || first === 43 || first === 46
    if (numeric) {
      if (last === 105 /* i */) {
        if (first === 48 && e - s > 3 && (buf[s + 1] === 120 || buf[s + 1] === 88)) {
          for (let i = s + 2; i < e - 1; i++) if (!isHex(buf[i]!)) throw this.invalid(buf, s, e, nameStart, nameEnd)
          sink.long256(buf.toString('latin1', s, e - 1))
          return
        }
        const v = parseIntegerBytes(buf, s, e - 1)
        if (v === undefined) throw this.invalid(buf, s, e, nameStart, nameEnd)
        sink.integer(v)
        return
      }
      if (last === 100 /* d: a protocol-3 decimal */) {
        const v = parseDecimalBytes(buf, s, e - 1)
        if (v === undefined) throw this.invalid(buf, s, e, nameStart, nameEnd)
        sink.decimal(v)
        return
      }
      if (last === 116 || last === 110 || last === 109) {
        const unit = last === 116 ? 'u' : last === 110 ? 'n' : 'ms'
        const v = timestampToMicros(buf, s, e - 1, unit)
        if (v === undefined) throw this.invalid(buf, s, e, nameStart, nameEnd)
        sink.timestamp(v, unit)
        return
      }
    } else if (e - s <= 5) {
      const w = buf.toString('latin1', s, e).toLowerCase()
      if (w === 't' || w === 'true') { sink.boolean(true); return }
      if (w === 'f' || w === 'false') { sink.boolean(false); return }
    }
    const v = parseFloatBytes(buf, s, e)
    if (v === undefined) throw this.invalid(buf, s, e, nameStart, nameEnd)
    sink.float(v)
  }

  private invalid(buf: Buffer, s: number, e: number, nameStart: number, nameEnd: number): LineError {
    return new LineError(`Could not parse entire line, field value is invalid. Field: ${buf.toString('utf8', nameStart, nameEnd)}; value: ${buf.toString('utf8', s, e)}`)
  }
}

/** Units of protocol-2 binary timestamps by their code. */
const BINARY_UNITS: readonly (TimeUnit | undefined)[] = [undefined, 'n', 'u', 'ms', 's', 'm', 'h']

const MICROS_PER: Record<Exclude<TimeUnit, 'n'>, number> = { u: 1, ms: 1000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000 }

function isHex(b: number): boolean {
  return (b >= 48 && b <= 57) || (b >= 97 && b <= 102) || (b >= 65 && b <= 70)
}
