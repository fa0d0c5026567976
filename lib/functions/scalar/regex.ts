/**
 * Regular-expression match operators `x ~ re` and `x !~ re` (a match anywhere in the value,
 * like Java's `Matcher.find`). A constant pattern is compiled once in `init`; an invalid
 * pattern is a SqlError 22023 pointing at the pattern. A null value or pattern gives false.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { boolConst, boolOut, textAt } from '../kernel-helpers.js'
import { type Matcher, type SymMatchCache, matchVector, newSymMatchCache } from './text-match.js'

/**
 * Compiles a regular expression, throwing SqlError 22023 at `position` when it is invalid.
 * Java's inline `(?i)` prefix is accepted and turned into the `i` flag.
 */
export function compileRegex(pattern: string, position: number): RegExp {
  let src = pattern
  let flags = 'u'
  if (src.startsWith('(?i)')) { src = src.slice(4); flags += 'i' }
  try {
    return new RegExp(src, flags)
  } catch (e) {
    try {
      return new RegExp(src, flags.replace('u', ''))
    } catch {
      throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid regular expression: ${(e as Error).message}`, position)
    }
  }
}

interface RegexState {
  readonly constant: Matcher | undefined
  readonly cache: SymMatchCache
  readonly position: number
  lastPattern: string | undefined
  lastMatcher: Matcher | undefined
}

function toMatcher(re: RegExp): Matcher {
  return (s) => re.test(s)
}

function initRegex(site: CallSite): RegexState {
  const c = site.constants[1]
  const position = site.argPositions[1] ?? site.pos
  return {
    constant: typeof c === 'string' ? toMatcher(compileRegex(c, position)) : undefined,
    cache: newSymMatchCache(), position, lastPattern: undefined, lastMatcher: undefined,
  }
}

function regexKernel(negate: boolean) {
  return (args: readonly Vector[], n: number, _ctx: unknown, state: unknown): Vector => {
    const st = (state as RegexState | undefined) ?? { constant: undefined, cache: newSymMatchCache(), position: -1, lastPattern: undefined, lastMatcher: undefined }
    const v = args[0]!, pv = args[1]!
    const matcherFor = (p: string): Matcher => {
      if (st.lastPattern !== p) { st.lastMatcher = toMatcher(compileRegex(p, st.position)); st.lastPattern = p }
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
