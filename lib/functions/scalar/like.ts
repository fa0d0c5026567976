/**
 * `x LIKE pattern` and `x ILIKE pattern`: `%` matches any run of characters, `_` exactly one,
 * `\` escapes the next character. The whole value must match. A constant pattern is compiled
 * once per statement, to a `startsWith` / `endsWith` / `includes` / equality test when it is
 * that simple, else to a linear-time segment matcher (never a backtracking RegExp). A null
 * value or pattern gives false.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Vector } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { boolConst, boolOut, textAt } from '../kernel-helpers.js'
import { type Matcher, type SymMatchCache, matchVector, newSymMatchCache } from './text-match.js'

type Token = { readonly kind: 'lit'; readonly text: string } | { readonly kind: 'any' } | { readonly kind: 'one' }

function tokenize(p: string): Token[] {
  const out: Token[] = []
  let lit = ''
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!
    if (c === '\\' && i + 1 < p.length) { lit += p[++i]!; continue }
    if (c === '%' || c === '_') {
      if (lit !== '') { out.push({ kind: 'lit', text: lit }); lit = '' }
      if (c === '_') out.push({ kind: 'one' })
      else if (out[out.length - 1]?.kind !== 'any') out.push({ kind: 'any' })
      continue
    }
    lit += c
  }
  if (lit !== '') out.push({ kind: 'lit', text: lit })
  return out
}

/** `_` inside a segment: any one character. */
const ONE = -1

/** A run of the pattern between `%`s: characters (code points) and {@link ONE}. */
type Segment = readonly (string | typeof ONE)[]

/** The characters of `s`, code point by code point (a surrogate pair is one character, as `_` sees it). */
function chars(s: string): readonly string[] | string {
  return /[\uD800-\uDFFF]/.test(s) ? Array.from(s) : s
}

/** True when `seg` matches `text` at `at`. */
function matchesAt(seg: Segment, text: readonly string[] | string, at: number): boolean {
  for (let k = 0; k < seg.length; k++) {
    const c = seg[k]!
    if (c !== ONE && text[at + k] !== c) return false
  }
  return true
}

/** The first position >= `from` where `seg` matches `text`, or -1. */
function find(seg: Segment, literal: string | undefined, text: readonly string[] | string, from: number): number {
  if (literal !== undefined && typeof text === 'string') return text.indexOf(literal, from)
  for (let at = from; at + seg.length <= text.length; at++) if (matchesAt(seg, text, at)) return at
  return -1
}

/**
 * A linear-time LIKE matcher: the pattern is split at `%` into segments; the first must match at
 * the start, the last at the end, and each one between at its leftmost place after the previous
 * one (leftmost is always right for `%`, so nothing is retried). The cost is at most the value's
 * length times the pattern's, whatever the pattern (a RegExp of `%a%a%a...%b` backtracks).
 */
function segmentMatcher(t: readonly Token[], fold: (s: string) => string): Matcher {
  const segs: Segment[] = [[]]
  for (const x of t) {
    if (x.kind === 'any') { segs.push([]); continue }
    const seg = segs[segs.length - 1] as (string | typeof ONE)[]
    if (x.kind === 'one') seg.push(ONE)
    else seg.push(...Array.from(x.text))
  }
  const literals = segs.map((seg) => (seg.includes(ONE) ? undefined : seg.join('')))
  const first = segs[0]!, last = segs[segs.length - 1]!
  if (segs.length === 1) return (s) => { const text = chars(fold(s)); return text.length === first.length && matchesAt(first, text, 0) }
  return (s) => {
    const text = chars(fold(s))
    if (text.length < first.length || !matchesAt(first, text, 0)) return false
    let pos = first.length
    for (let k = 1; k < segs.length - 1; k++) {
      const seg = segs[k]!
      if (seg.length === 0) continue
      const at = find(seg, literals[k], text, pos)
      if (at < 0) return false
      pos = at + seg.length
    }
    const end = text.length - last.length
    return end >= pos && matchesAt(last, text, end)
  }
}

/** Compiles a LIKE pattern into a predicate (case-insensitive for ILIKE). */
export function compileLike(pattern: string, caseInsensitive: boolean): Matcher {
  const p = caseInsensitive ? pattern.toLowerCase() : pattern
  const t = tokenize(p)
  const fold = caseInsensitive ? (s: string) => s.toLowerCase() : (s: string) => s
  const lit = (k: number): string | undefined => { const x = t[k]; return x?.kind === 'lit' ? x.text : undefined }
  if (t.length === 0) return (s) => s === ''
  if (t.length === 1) {
    const only = lit(0)
    if (only !== undefined) return (s) => fold(s) === only
    if (t[0]!.kind === 'any') return () => true
  }
  if (t.length === 2) {
    const a = lit(0), b = lit(1)
    if (a !== undefined && t[1]!.kind === 'any') return (s) => fold(s).startsWith(a)
    if (b !== undefined && t[0]!.kind === 'any') return (s) => fold(s).endsWith(b)
  }
  if (t.length === 3 && t[0]!.kind === 'any' && t[2]!.kind === 'any') {
    const mid = lit(1)
    if (mid !== undefined) return (s) => fold(s).includes(mid)
  }
  return segmentMatcher(t, fold)
}

interface LikeState {
  readonly constant: Matcher | undefined
  readonly cache: SymMatchCache
  lastPattern: string | undefined
  lastMatcher: Matcher | undefined
}

function likeKernel(ci: boolean) {
  return (args: readonly Vector[], n: number, _ctx: unknown, state: unknown) => {
    const st = (state as LikeState | undefined) ?? { constant: undefined, cache: newSymMatchCache(), lastPattern: undefined, lastMatcher: undefined }
    const v = args[0]!, pv = args[1]!
    if (pv.isConst === true) {
      const p = textAt(pv, 0)
      if (p === null) return boolConst(false, n)
      let m = st.constant
      if (m === undefined) {
        if (st.lastPattern !== p) { st.lastPattern = p; st.lastMatcher = compileLike(p, ci) }
        m = st.lastMatcher!
      }
      return matchVector(v, n, m, false, st.cache)
    }
    const out = boolOut(n), o = out.data
    for (let i = 0; i < n; i++) {
      const s = textAt(v, i), p = textAt(pv, i)
      if (s === null || p === null) continue
      if (st.lastPattern !== p) { st.lastPattern = p; st.lastMatcher = compileLike(p, ci) }
      o[i] = st.lastMatcher!(s) ? 1 : 0
    }
    return out
  }
}

function def(name: string, ci: boolean, description: string, example: string): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'pattern', description, example,
    signatures: [{ args: ['TEXT', 'TEXT'], returns: 'BOOLEAN' }],
    init: (site): LikeState => {
      const c = site.constants[1]
      return { constant: typeof c === 'string' ? compileLike(c, ci) : undefined, cache: newSymMatchCache(), lastPattern: undefined, lastMatcher: undefined }
    },
    vector: likeKernel(ci),
  }
}

/** LIKE and ILIKE. */
export const LIKE_OPERATORS: readonly ScalarFunctionDef[] = [
  def('like', false, 'Case-sensitive pattern match: % is any run of characters, _ one character, \\ escapes.', "SELECT * FROM trades WHERE symbol LIKE 'BTC%'"),
  def('ilike', true, 'Case-insensitive LIKE.', "SELECT * FROM trades WHERE symbol ILIKE '%usd'"),
]
