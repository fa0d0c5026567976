/**
 * Text functions (QuestDB's text.md): concat, length, length_bytes, lower/upper, substring,
 * left, right, strpos/position, replace, trim/ltrim/rtrim, split_part, starts_with, lpad/rpad,
 * regexp_replace, quote_ident. A function over text returns VARCHAR when its text argument is
 * VARCHAR and STRING otherwise (SYMBOL gives STRING). Most are row kernels: the work per row
 * is string building, which a vector loop would not speed up.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from '../../types/column-type.js'
import type { Scalar, Vector } from '../../types/vector.js'
import type { ScalarFunctionDef, Signature } from '../registry-types.js'
import { strOut, textResultType } from '../kernel-helpers.js'
import { textOf } from './misc-operators.js'
import type { RE2JS } from 're2js'
import { SqlError, SqlState } from '../../errors.js'
import { compileRegex } from './regex.js'

/** The result type of a text function: VARCHAR for a VARCHAR first argument, else STRING. */
const sameText = (t: readonly ColumnType[]): ColumnType => (t[0] === 'VARCHAR' ? 'VARCHAR' : 'STRING')

const utf8 = new TextEncoder()

function s(x: Scalar): string {
  return String(x)
}

function text(name: string, args: readonly (Signature['args'][number])[], body: (a: readonly Scalar[]) => Scalar, description: string, example: string, extra: Partial<ScalarFunctionDef> = {}): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'string', description, example,
    signatures: [{ args, returns: sameText }],
    row: body,
    ...extra,
  }
}

/** `substring(s, start[, len])`, 1-based, with PostgreSQL's handling of a start before 1. */
export function substring(str: string, start: number, len?: number): string | null {
  if (len !== undefined && len < 0) return null
  const end = len === undefined ? Infinity : start + len
  if (end < 0) return null
  const from = Math.max(start, 1) - 1
  const to = Math.min(end - 1, str.length)
  return to <= from ? '' : str.slice(from, to)
}

/** `split_part(s, delim, n)`: the n-th field (1-based; negative counts from the end), '' when absent. */
export function splitPart(str: string, delim: string, n: number): string | null {
  if (n === 0) return null
  const parts = delim === '' ? [str] : str.split(delim)
  const i = n > 0 ? n - 1 : parts.length + n
  return parts[i] ?? ''
}

/** `lpad` / `rpad`: pads with `fill` to `len` characters, truncating a longer value. */
export function pad(str: string, len: number, fill: string, left: boolean): string | null {
  if (len <= str.length) return str.slice(0, Math.max(len, 0))
  if (fill === '') return str
  return left ? str.padStart(len, fill) : str.padEnd(len, fill)
}

/** `quote_ident`: double-quotes a name unless it is a plain identifier. */
export function quoteIdent(str: string): string {
  return /^[A-Za-z_][A-Za-z0-9_$]*$/.test(str) ? str : `"${str.replace(/"/g, '""')}"`
}

function concat(args: readonly Vector[], n: number): Vector {
  const out = strOut(textResultType(args.map((a) => a.type)), n)
  for (let i = 0; i < n; i++) {
    let r = ''
    for (const a of args) r += textOf(a, i) ?? ''
    out.data[i] = r
  }
  return out
}

interface RegexpReplaceState { re: RE2JS | undefined; src: string | undefined; pos: number; replPos: number }

/** Replaces every match of `re` in `text` with `replacement` (Java syntax: `$1` is group 1, `\\$` a dollar). */
function regexpReplace(re: RE2JS, text: string, replacement: string, pos: number): string {
  try {
    return re.matcher(text).replaceAll(replacement, true)
  } catch (e) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid replacement: ${(e as Error).message}`, pos)
  }
}

/** The text functions. */
export const STRING_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'concat', family: 'string',
    description: 'Concatenates the text forms of its arguments; nulls count as empty text.',
    example: "SELECT concat(firstName, ' ', lastName) FROM names",
    signatures: [{ args: ['ANY'], variadic: 'ANY', returns: (t) => textResultType(t) }],
    vector: concat,
  },
  {
    kind: 'scalar', name: 'length', family: 'string', nullStrict: false,
    description: 'Length in characters (bytes for BINARY); -1 for null.', example: 'SELECT length(name) FROM names',
    signatures: [{ args: ['TEXT'], returns: 'INT' }, { args: ['BINARY'], returns: 'LONG' }],
    row: (a) => { const v = a[0]!; return v === null ? -1 : v instanceof Uint8Array ? v.length : s(v).length },
  },
  {
    kind: 'scalar', name: 'length_bytes', family: 'string', nullStrict: false,
    description: 'Length of a VARCHAR in UTF-8 bytes; -1 for null.', example: 'SELECT length_bytes(name) FROM names',
    signatures: [{ args: ['VARCHAR'], returns: 'INT' }],
    row: (a) => (a[0] === null ? -1 : utf8.encode(s(a[0]!)).length),
  },
  text('lower', ['TEXT'], (a) => s(a[0]!).toLowerCase(), 'Converts to lower case.', "SELECT lower('questDB')", { aliases: ['to_lowercase'] }),
  text('upper', ['TEXT'], (a) => s(a[0]!).toUpperCase(), 'Converts to upper case.', "SELECT upper('questDB')", { aliases: ['to_uppercase'] }),
  {
    kind: 'scalar', name: 'substring', family: 'string',
    description: 'Characters from 1-based `start`, `len` of them (to the end when omitted).', example: "SELECT substring('Lorem ipsum', -5, 9)",
    signatures: [{ args: ['TEXT', 'INT', 'INT'], returns: sameText }, { args: ['TEXT', 'INT'], returns: sameText }],
    row: (a) => substring(s(a[0]!), Number(a[1]), a.length > 2 ? Number(a[2]) : undefined),
  },
  text('left', ['TEXT', 'INT'], (a) => { const v = s(a[0]!), k = Number(a[1]); return k >= 0 ? v.slice(0, k) : v.slice(0, Math.max(v.length + k, 0)) },
    'The first `n` characters (all but the last -n when negative).', "SELECT left('Thompson', 3)"),
  text('right', ['TEXT', 'INT'], (a) => { const v = s(a[0]!), k = Number(a[1]); return k >= 0 ? (k === 0 ? '' : v.slice(-k)) : v.slice(Math.min(-k, v.length)) },
    'The last `n` characters (all but the first -n when negative).', "SELECT right('Thompson', 2)"),
  {
    kind: 'scalar', name: 'strpos', aliases: ['position'], family: 'string',
    description: '1-based position of the first occurrence of `sub`, 0 when absent.', example: "SELECT strpos(name, 'Thompson') FROM full_names",
    signatures: [{ args: ['TEXT', 'TEXT'], returns: 'INT' }],
    row: (a) => s(a[0]!).indexOf(s(a[1]!)) + 1,
  },
  text('replace', ['TEXT', 'TEXT', 'TEXT'], (a) => { const f = s(a[1]!); return f === '' ? s(a[0]!) : s(a[0]!).split(f).join(s(a[2]!)) },
    'Replaces every occurrence of `from` with `to`.', "SELECT replace('Hello World', 'World', 'QuestDB')"),
  text('trim', ['TEXT'], (a) => s(a[0]!).replace(/^ +| +$/g, ''), 'Removes leading and trailing spaces.', "SELECT trim('   QuestDB   ')"),
  text('ltrim', ['TEXT'], (a) => s(a[0]!).replace(/^ +/, ''), 'Removes leading spaces.', "SELECT ltrim('   QuestDB   ')"),
  text('rtrim', ['TEXT'], (a) => s(a[0]!).replace(/ +$/, ''), 'Removes trailing spaces.', "SELECT rtrim('Hello QuestDB   ')"),
  text('split_part', ['TEXT', 'TEXT', 'INT'], (a) => splitPart(s(a[0]!), s(a[1]!), Number(a[2])),
    'The n-th field of the text split by the delimiter (1-based).', "SELECT split_part('Hello,QuestDB,SQL', ',', 2)"),
  {
    kind: 'scalar', name: 'starts_with', family: 'string',
    description: 'True when the text starts with the prefix.', example: "SELECT starts_with('Hello QuestDB', 'Hello')",
    signatures: [{ args: ['TEXT', 'TEXT'], returns: 'BOOLEAN' }],
    nullStrict: false,
    row: ([x = null, p = null]) => x !== null && p !== null && s(x).startsWith(s(p)),
  },
  {
    kind: 'scalar', name: 'lpad', family: 'string',
    description: 'Pads on the left with `fill` (default space) to `len` characters; truncates longer text.', example: "SELECT lpad('QuestDB', 10, '0')",
    signatures: [{ args: ['TEXT', 'INT', 'TEXT'], returns: sameText }, { args: ['TEXT', 'INT'], returns: sameText }],
    row: (a) => pad(s(a[0]!), Number(a[1]), a.length > 2 ? s(a[2]!) : ' ', true),
  },
  {
    kind: 'scalar', name: 'rpad', family: 'string',
    description: 'Pads on the right with `fill` (default space) to `len` characters; truncates longer text.', example: "SELECT rpad('QuestDB', 10, '0')",
    signatures: [{ args: ['TEXT', 'INT', 'TEXT'], returns: sameText }, { args: ['TEXT', 'INT'], returns: sameText }],
    row: (a) => pad(s(a[0]!), Number(a[1]), a.length > 2 ? s(a[2]!) : ' ', false),
  },
  {
    kind: 'scalar', name: 'regexp_replace', family: 'pattern',
    description: 'Replaces every match of the regular expression; $1.. refer to groups.', example: "SELECT regexp_replace('a1b22', '[0-9]+', '#')",
    signatures: [{ args: ['TEXT', 'TEXT', 'TEXT'], returns: sameText }],
    init: (site): RegexpReplaceState => {
      const c = site.constants[1]
      const pos = site.argPositions[1] ?? site.pos
      const replPos = site.argPositions[2] ?? site.pos
      return typeof c === 'string' ? { re: compileRegex(c, pos), src: c, pos, replPos } : { re: undefined, src: undefined, pos, replPos }
    },
    row: (a, _ctx, state) => {
      const st = (state as RegexpReplaceState | undefined) ?? { re: undefined, src: undefined, pos: -1, replPos: -1 }
      const p = s(a[1]!)
      if (st.src !== p || st.re === undefined) {
        st.re = compileRegex(p, st.pos)
        st.src = p
      }
      return regexpReplace(st.re, s(a[0]!), s(a[2]!), st.replPos)
    },
  },
  text('quote_ident', ['TEXT'], (a) => quoteIdent(s(a[0]!)), 'Double-quotes the text when it is not a plain identifier.', 'SELECT quote_ident(\'a b\')'),
]
