/**
 * A fast path for simple regular expressions: V8's own engine (several times faster than RE2JS
 * on short values) for the patterns where it provably cannot backtrack more than linearly, and
 * where it means exactly what RE2 means. Everything else stays with RE2 (regex-compile.ts).
 *
 * Accepted: literal characters, escaped punctuation, `\d \D \w \W`, `.`, character classes
 * (`[a-z0-9_]`, `[^,]`; no POSIX `[:...:]`, no `\s`), `^` first and `$` last, and either
 *   - no quantifier at all (alternation `|` allowed): each start position costs at most the
 *     pattern's length, or
 *   - exactly one quantifier (`*`, `+` or `?`) on a single character or class, the pattern
 *     anchored with `^` and without `|`: one start position, and the quantifier gives back at
 *     most one character per step, each step checking a quantifier-free rest.
 * No groups, braces, backreferences or lookaround (they contain `(` or `{`). `.` is written
 * `[^\n]` (RE2's `.`; V8's also stops at `\r` and U+2028/9) and the `u` flag makes both count
 * code points.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** Characters that end a literal run: the syntax this checker understands. */
const SAFE_ESCAPES = /^[dDwW!-/:-@[-`{-~]$/

/** A V8 RegExp for `pattern` when it is linear-safe and means the same as in RE2, else undefined. */
export function fastRegex(pattern: string): RegExp | undefined {
  let out = ''
  let quantifiers = 0
  let alternation = false
  let atoms = 0
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\') {
      const e = pattern[i + 1]
      if (e === undefined || !SAFE_ESCAPES.test(e)) return undefined
      out += c + e
      i++
      atoms++
    } else if (c === '[') {
      const end = classEnd(pattern, i)
      if (end < 0) return undefined
      out += pattern.slice(i, end + 1)
      i = end
      atoms++
    } else if (c === '.') {
      out += '[^\\n]'
      atoms++
    } else if (c === '*' || c === '+' || c === '?') {
      // a quantifier on a quantifier (lazy `*?`, possessive `*+`) or on nothing
      if (atoms === 0 || /[*+?]/.test(pattern[i - 1]!)) return undefined
      quantifiers++
      out += c
    } else if (c === '^') {
      if (i !== 0) return undefined
      out += c
    } else if (c === '$') {
      if (i !== pattern.length - 1) return undefined
      out += c
    } else if (c === '|') {
      alternation = true
      out += c
    } else if (c === '(' || c === ')' || c === '{' || c === '}' || c === ']') {
      return undefined
    } else {
      out += c
      atoms++
    }
  }
  if (quantifiers > 1 || (quantifiers === 1 && (alternation || pattern[0] !== '^'))) return undefined
  try {
    return new RegExp(out, 'u')
  } catch {
    return undefined
  }
}

/** Index of the `]` closing the class that opens at `start`, or -1 when it holds syntax we do not vet. */
function classEnd(p: string, start: number): number {
  let i = start + 1
  if (p[i] === '^') i++
  if (p[i] === ']') return -1 // a literal `]` in RE2, an empty class in JS
  for (; i < p.length; i++) {
    const c = p[i]!
    if (c === ']') return i
    if (c === '[' || c === '&') return -1 // nested classes, POSIX [:alpha:], intersection
    if (c === '\\') {
      const e = p[i + 1]
      if (e === undefined || !SAFE_ESCAPES.test(e)) return -1
      i++
    }
  }
  return -1
}
