/**
 * Compiles user regular expressions with RE2 (re2js), which matches in time linear in the
 * input: no pattern can make a match backtrack exponentially (`(a+)+$` on `aaa...!` answers at
 * once instead of freezing the server). The syntax is Java's (QuestDB's) where RE2 has it:
 * classes, `\d \w \s \b`, `\p{L}`, POSIX `[[:alpha:]]`, `\Q...\E`, inline flags `(?i) (?s) (?m)`,
 * named groups. What RE2 cannot do in linear time — backreferences, lookahead and lookbehind,
 * atomic groups, possessive quantifiers — and Java-only syntax (class intersection `&&`, `\Z`,
 * `\h`, `\R`) is a SqlError 22023 at the pattern, never a silently different match.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { RE2JS } from 're2js'
import { SqlError, SqlState } from '../../errors.js'

/** Constructs RE2 lacks, recognised in a pattern RE2 refused, with the name used in the error. */
const UNSUPPORTED: readonly (readonly [RegExp, string])[] = [
  [/\\[1-9]|\\k</, 'backreferences'],
  [/\(\?<?[=!]/, 'lookahead and lookbehind'],
  [/\(\?>/, 'atomic groups'],
  [/[*+?}]\+/, 'possessive quantifiers'],
]

/** Java syntax RE2 would read differently without an error (class intersection). */
const JAVA_ONLY = /\[[^\]]*&&/

/**
 * Compiles `pattern`, throwing SqlError 22023 at `position` when it is invalid or uses a
 * construct that has no linear-time match.
 */
export function compileRe2(pattern: string, position: number): RE2JS {
  if (JAVA_ONLY.test(pattern)) throw regexError('character class intersection (&&) is not supported', position)
  try {
    return RE2JS.compile(pattern)
  } catch (e) {
    const found = UNSUPPORTED.find(([re]) => re.test(pattern))
    if (found !== undefined) {
      throw regexError(`${found[1]} are not supported (regular expressions match in linear time; see docs/sql.md)`, position)
    }
    throw regexError((e as Error).message.replace(/^error parsing regexp: /, ''), position)
  }
}

function regexError(detail: string, position: number): SqlError {
  return new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid regular expression: ${detail}`, position)
}

/** `pattern` as an RE2 pattern that matches the same text literally. */
export function quoteRe2(text: string): string {
  return RE2JS.quote(text)
}
