/**
 * Compiled line matchers: a {@link LineTemplate} that keeps matching lines gets a function of its
 * own, generated from its literals and value forms, that does what `LineTemplate.match` does in
 * straight-line code — each literal compared as constant 32-bit words, each value read by code of
 * its form into locals, the row stored only once the whole line matched. No loop over steps, no
 * per-step table lookups, no second pass to store: about a third less CPU per line than the
 * interpreted walk over the template (test/bench/ilp-parse.ts).
 *
 * Safety: the generated source holds only integers (literal words and bytes, step numbers) and
 * fixed code; nothing of the input's text becomes code. Functions are shared by every template
 * with the same source (a small cache), so a steady stream of one shape compiles once and stays
 * optimized across requests; a template compiles only after {@link compileAfter} matched lines,
 * so lines of ever new shapes never cost a compilation each.
 */
import { isUtf8 } from 'node:buffer'
import { LAST_SUB_MICROS, parseFloatBytes, parseIntegerBytes, timestampToMicros } from './number-bytes.js'
import { internalError } from '../errors.js'

/** A compiled matcher: `LineTemplate.match` of one template shape (the template passed as `st`). */
export type CompiledMatch = (buf: Uint8Array, p: number, end: number, view: DataView, st: MatcherState) => number

/** What a compiled matcher reads and writes of its template. @internal */
export interface MatcherState {
  /** the table's rows: `rows` (the next row), `cap` (room in every builder) */
  readonly t: { rows: number; cap: number }
  /** the builders' room when {@link arrays} were taken */
  readonly cap: number
  /** per numeric step: the builder's array */
  readonly arrays: Float64Array[]
  /** per step: the builder (the code of SYMBOL steps calls its `setHashed`) */
  readonly builders: readonly object[]
  readonly tsArray: Float64Array
  readonly tsSub: Uint16Array | undefined
  readonly ctx: { readonly unit: string; readonly clock: () => number; readonly grow: (t: never) => void }
  /** takes the builders' arrays again after a growth */
  refresh(): void
}

/** The shape a matcher is generated from (the template's fields of the same names). */
export interface MatcherShape {
  /** the literal bytes; literal k (before value k) is `lit[litEnd[k-1], litEnd[k])`, the last one ends the line or precedes its timestamp */
  readonly lit: Uint8Array
  readonly litEnd: Int32Array
  /** per value: its step kind (line-template.ts: SYM 0, BIN_F64 1, TEXT_F64 2, INT_I64 3, INT_F64 4) */
  readonly kinds: Uint8Array
  readonly hasTs: boolean
}

/** Matched lines after which a template is compiled (tests set 0 to compile at once). @internal */
export let compileAfter = 256

/** Sets {@link compileAfter} (tests). @internal */
export function setCompileAfter(n: number): void {
  compileAfter = n
}

/** Most distinct compiled sources kept; when full the cache starts again (templates keep their function). */
const MAX_CACHED = 64

const cache = new Map<string, CompiledMatch>()

/** What generated code calls besides its arguments. */
const HELPERS = { isUtf8, parseFloatBytes, parseIntegerBytes, timestampToMicros, LAST_SUB_MICROS, textKind: undefined as unknown }

/**
 * The matcher of `shape`: from the cache when a template of the same literals and forms compiled
 * it before. `textKind` is line-template.ts's classifier of unquoted values (passed in: the two
 * modules would otherwise import each other).
 */
export function compiledMatcher(shape: MatcherShape, textKind: (buf: Uint8Array, s: number, e: number) => number): CompiledMatch {
  HELPERS.textKind = textKind
  const src = matcherSource(shape)
  let fn = cache.get(src)
  if (fn === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear()
    // integers and fixed code only (see the module comment)
    fn = new Function('h', src)(HELPERS) as CompiledMatch
    cache.set(src, fn)
  }
  return fn
}

const SYM = 0, BIN_F64 = 1, TEXT_F64 = 2, INT_I64 = 3

/** An integer as source text, refusing anything else (nothing but integers is ever spliced into code). */
function int(n: number): string {
  if (!Number.isInteger(n)) throw internalError(`line matcher: not an integer: ${n}`)
  return String(n)
}

/**
 * Code comparing `lit[from, to)` with the input at `p`, then moving `p` past it. `last` is the
 * literal before the timestamp or line end: it may reach `end` (the others must leave a byte).
 */
function literalCode(lit: Uint8Array, from: number, to: number, last: boolean): string {
  const len = to - from
  if (len === 0) return last ? '' : 'if (p >= end) return -1;\n'
  const view = new DataView(lit.buffer, lit.byteOffset, lit.length)
  const tests: string[] = []
  let i = 0
  for (; i + 4 <= len; i += 4) tests.push(`view.getInt32(p + ${int(i)}, true) !== ${int(view.getInt32(from + i, true))}`)
  if (i < len) {
    if (len >= 4) tests.push(`view.getInt32(p + ${int(len - 4)}, true) !== ${int(view.getInt32(to - 4, true))}`)
    else for (; i < len; i++) tests.push(`buf[p + ${int(i)}] !== ${int(lit[from + i]!)}`)
  }
  return `if (p + ${int(len)} ${last ? '>' : '>='} end || ${tests.join(' || ')}) return -1;\np += ${int(len)};\n`
}

/** The body of `function (h) { return function match(buf, p, end, view, st) { ... } }` for `shape`. */
function matcherSource(shape: MatcherShape): string {
  const { lit, litEnd, kinds, hasTs } = shape
  const n = kinds.length
  let code = '"use strict";\nconst isUtf8 = h.isUtf8, parseFloatBytes = h.parseFloatBytes, parseIntegerBytes = h.parseIntegerBytes, timestampToMicros = h.timestampToMicros, SUB = h.LAST_SUB_MICROS, textKind = h.textKind;\n'
  code += 'return function match(buf, p, end, view, st) {\n'
  const store: string[] = []
  for (let k = 0; k < n; k++) {
    code += literalCode(lit, k === 0 ? 0 : litEnd[k - 1]!, litEnd[k]!, false)
    const kind = kinds[k]!
    const K = int(k)
    if (kind === BIN_F64) {
      code += `if (p + 8 >= end) return -1;\nconst v${K} = view.getFloat64(p, true);\np += 8;\n`
      store.push(`A[${K}][row] = v${K};`)
    } else if (kind === SYM) {
      code += `let h${K} = 0x811c9dc5 | 0, hi${K} = 0;\nconst s${K} = p;\n`
      code += `for (;; p++) {\n  if (p >= end) return -1;\n  const c = buf[p];\n  if (c === 44 || c === 32) break;\n  if (c === 10 || c === 13 || c === 92) return -1;\n  hi${K} |= c;\n  h${K} = Math.imul(h${K} ^ c, 16777619);\n}\n`
      code += `if (p === s${K} || (hi${K} >= 0x80 && !isUtf8(buf.subarray(s${K}, p)))) return -1;\nconst e${K} = p;\n`
      store.push(`B[${K}].setHashed(row, buf, s${K}, e${K}, h${K});`)
    } else {
      // the value's end: the general parser's separators; an escape is not taken
      code += `const s${K} = p;\nfor (;; p++) {\n  if (p >= end) return -1;\n  const c = buf[p];\n  if (c === 44 || c === 32 || c === 10 || c === 13) break;\n  if (c === 92) return -1;\n}\n`
      if (kind === TEXT_F64) {
        code += `if (textKind(buf, s${K}, p) !== ${int(TEXT_F64)}) return -1;\nconst v${K} = parseFloatBytes(buf, s${K}, p);\nif (typeof v${K} !== 'number') return -1;\n`
      } else {
        // `123i`: up to 15 plain digits are summed here; anything else (a sign, more digits, `0x`) as the template reads it
        code += `let v${K} = 0;\nif (p - s${K} >= 2 && p - s${K} <= 16 && buf[p - 1] === 105) {\n  for (let i = s${K}; i < p - 1; i++) { const d = buf[i] - 48; if (d < 0 || d > 9) { v${K} = -1; break } v${K} = v${K} * 10 + d }\n} else v${K} = -1;\n`
        code += `if (v${K} < 0) {\n  if (textKind(buf, s${K}, p) !== ${int(INT_I64)}) return -1;\n  const x = parseIntegerBytes(buf, s${K}, p - 1);\n  if (typeof x !== 'number') return -1;\n  v${K} = x;\n}\n`
      }
      store.push(`A[${K}][row] = v${K};`)
    }
  }
  code += literalCode(lit, n === 0 ? 0 : litEnd[n - 1]!, litEnd[n]!, true)
  if (hasTs) {
    code += 'let q = p;\nfor (;; q++) {\n  if (q >= end) return -1;\n  const c = buf[q];\n  if (c === 10 || c === 13) break;\n  if (c === 32) return -1;\n}\n'
    code += 'let unit = st.ctx.unit, te = q;\nconst last = buf[q - 1];\n'
    code += "if (last === 110) { unit = 'n'; te-- } else if (last === 116) { unit = 'u'; te-- } else if (last === 109) { unit = 'ms'; te-- }\n"
    // µs (the clients' `t`): the digits summed here; other units and signs by timestampToMicros
    // (in int32 halves: the leading digits, then the last 8; a multiply-add chain of doubles is slower)
    code += "let micros = 0, sub = 0;\nif (unit === 'u' && te > p && te - p <= 16 && buf[p] !== 45) {\n  const mid = te - 8 > p ? te - 8 : p;\n  let hi = 0, lo = 0;\n  for (let i = p; i < mid; i++) { const d = buf[i] - 48; if ((d >>> 0) > 9) return -1; hi = (hi * 10 + d) | 0 }\n  for (let i = mid; i < te; i++) { const d = buf[i] - 48; if ((d >>> 0) > 9) return -1; lo = (lo * 10 + d) | 0 }\n  micros = hi * 100000000 + lo;\n  if (micros > 9007199254740991) return -1;\n} else {\n  const v = timestampToMicros(buf, p, te, unit);\n  if (v === undefined) return -1;\n  micros = v;\n  sub = SUB.nanos;\n}\np = q + 1;\n"
  } else code += 'const micros = st.ctx.clock(), sub = 0;\n'
  code += 'if (!(micros >= 0) || micros === Infinity || Object.is(micros, -0)) return -1;\n'
  code += 'const t = st.t, row = t.rows;\nif (row >= t.cap) st.ctx.grow(t);\nif (t.cap !== st.cap) st.refresh();\nconst A = st.arrays, B = st.builders;\n'
  code += store.join('\n') + '\n'
  code += 'st.tsArray[row] = micros;\nconst ts = st.tsSub;\nif (ts !== undefined) ts[row] = sub;\nt.rows = row + 1;\nreturn p;\n}'
  return code
}
