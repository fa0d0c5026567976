/**
 * Regular-expression match operators `x ~ re` and `x !~ re` (a match anywhere in the value,
 * like Java's `Matcher.find`), in linear time (RE2; see regex-compile.ts). A constant pattern is compiled once in `init`; an invalid
 * pattern is a SqlError 22023 pointing at the pattern. A null value or pattern gives false.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { RE2JS } from 're2js'
import { compileRe2 } from './regex-compile.js'
import { fastRegex } from './regex-fast.js'
import type { Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { boolConst, boolOut, textAt } from '../kernel-helpers.js'
import { type Matcher, type SymMatchCache, matchVector, newSymMatchCache } from './text-match.js'

/**
 * Compiles a regular expression (RE2: linear-time, Java syntax where RE2 has it; see
 * regex-compile.ts), throwing SqlError 22023 at `position` when it is invalid or unsupported.
 */
export function compileRegex(pattern: string, position: number): RE2JS {
  return compileRe2(pattern, position)
}

interface RegexState {
  readonly constant: Matcher | undefined
  readonly cache: SymMatchCache
  readonly position: number
  lastPattern: string | undefined
  lastMatcher: Matcher | undefined
}

/** The matcher for `pattern` (already compiled and checked by RE2): V8's engine where that is provably linear and equal (regex-fast.ts), else RE2. */
function toMatcher(re: RE2JS, pattern: string): Matcher {
  const fast = fastRegex(pattern)
  return fast !== undefined ? (s) => fast.test(s) : (s) => re.test(s)
}

function initRegex(site: CallSite): RegexState {
  const c = site.constants[1]
  const position = site.argPositions[1] ?? site.pos
  return {
    constant: typeof c === 'string' ? toMatcher(compileRegex(c, position), c) : undefined,
    cache: newSymMatchCache(), position, lastPattern: undefined, lastMatcher: undefined,
  }
}

function regexKernel(negate: boolean) {
  return (args: readonly Vector[], n: number, _ctx: unknown, state: unknown): Vector => {
    const st = (state as RegexState | undefined) ?? { constant: undefined, cache: newSymMatchCache(), position: -1, lastPattern: undefined, lastMatcher: undefined }
    const v = args[0]!, pv = args[1]!
    const matcherFor = (p: string): Matcher => {
      if (st.lastPattern !== p) { st.lastMatcher = toMatcher(compileRegex(p, st.position), p); st.lastPattern = p }
      return st.lastMatcher!
    }
    if (pv.isConst === true) {
      const p = textAt(pv, 0)
      if (p === null) return boolConst(false, n)
      return matchVector(v, n, st.constant ?? matcherFor(p), negate, st.cache)
    }
    const out = boolOut(n), o = out.data
    for (let i = 0; i < n; i++) {
      const s = textAt(v, i), p = textAt(pv, i)
      if (s === null || p === null) continue
      o[i] = matcherFor(p)(s) !== negate ? 1 : 0
    }
    return out
  }
}

/** `~` and `!~`. */
export const REGEX_OPERATORS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: '~', family: 'pattern',
    description: 'True when the value contains a match of the regular expression.',
    example: "SELECT * FROM trades WHERE symbol ~ '^BTC'",
    signatures: [{ args: ['TEXT', 'TEXT'], returns: 'BOOLEAN' }],
    init: initRegex, vector: regexKernel(false),
  },
  {
    kind: 'scalar', name: '!~', family: 'pattern',
    description: 'True when the value contains no match of the regular expression (null stays false).',
    example: "SELECT * FROM trades WHERE symbol !~ 'USD$'",
    signatures: [{ args: ['TEXT', 'TEXT'], returns: 'BOOLEAN' }],
    init: initRegex, vector: regexKernel(true),
  },
]
