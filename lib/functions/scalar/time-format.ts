/**
 * QuestDB timestamp format patterns for `to_str`, `to_timestamp` and `to_date`. Supported
 * letters: y yy yyyy, M MM MMM MMMM, d dd, H HH, h hh (with a), k, K, m mm, s ss, S SSS
 * (millis; a short fraction pads right, `.S` on ".12" is 120 ms), U UUU (micros of the milli),
 * U+ (micros of the second, 1-6 digits), N+, E EE (day
 * names), a, Z z x (offsets; printed as Z). Any other character is literal, so `T` passes
 * through. A compiled pattern is cached per call site.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { dayOfMonth, dayOfWeek, hourOf, microsOf, millisOf, minuteOf, monthOf, secondOf, yearOf } from '../../types/calendar.js'
import { daysFromCivil, MICROS_PER_DAY } from '../../types/civil.js'
import { parseUtcOffset } from '../../types/utc-offset.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { RE2JS } from 're2js'

const LETTERS = 'yMdHhkKmsSUNEaZzx'
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

type Tok = { readonly lit: string } | { readonly letter: string; readonly n: number; readonly plus: boolean }

function tokenize(fmt: string): Tok[] {
  const out: Tok[] = []
  for (let i = 0; i < fmt.length;) {
    const c = fmt[i]!
    if (!LETTERS.includes(c)) { out.push({ lit: c }); i++; continue }
    let j = i
    while (fmt[j] === c) j++
    const plus = fmt[j] === '+'
    out.push({ letter: c, n: j - i, plus })
    i = plus ? j + 1 : j
  }
  return out
}

const two = (x: number) => String(x).padStart(2, '0')

/** Formats micros (plus `nanos`, 0–999, of a TIMESTAMP_NS) with a QuestDB pattern. */
export function formatWith(fmt: string, ts: number, nanos = 0): string {
  let s = ''
  for (const t of tokenize(fmt)) {
    if ('lit' in t) { s += t.lit; continue }
    const { letter, n } = t
    switch (letter) {
      case 'y': { const y = yearOf(ts); s += n === 2 ? two(y % 100) : n === 4 ? String(y).padStart(4, '0') : String(y); break }
      case 'M': { const m = monthOf(ts); s += n >= 4 ? MONTHS[m - 1]! : n === 3 ? MONTHS[m - 1]!.slice(0, 3) : n === 2 ? two(m) : String(m); break }
      case 'd': s += n === 2 ? two(dayOfMonth(ts)) : String(dayOfMonth(ts)); break
      case 'H': case 'k': case 'K': s += n === 2 ? two(hourOf(ts)) : String(hourOf(ts)); break
      case 'h': { const h = hourOf(ts) % 12 || 12; s += n === 2 ? two(h) : String(h); break }
      case 'm': s += n === 2 ? two(minuteOf(ts)) : String(minuteOf(ts)); break
      case 's': s += n === 2 ? two(secondOf(ts)) : String(secondOf(ts)); break
      case 'S': s += n === 3 ? String(millisOf(ts)).padStart(3, '0') : String(millisOf(ts)); break
      case 'U': s += t.plus ? String(millisOf(ts) * 1000 + microsOf(ts)).padStart(6, '0') : n === 3 ? String(microsOf(ts)).padStart(3, '0') : String(microsOf(ts)); break
      case 'N': s += t.plus ? String((millisOf(ts) * 1000 + microsOf(ts)) * 1000 + nanos).padStart(9, '0') : String(nanos).padStart(3, '0'); break
      case 'E': { const d = DAYS[dayOfWeek(ts) - 1]!; s += n >= 2 ? d : d.slice(0, 3); break }
      case 'a': s += hourOf(ts) < 12 ? 'AM' : 'PM'; break
      default: s += 'Z'
    }
  }
  return s
}

/** A compiled parse format: an RE2 pattern (linear-time, so no format string can make a parse backtrack) and the field of each group. */
export interface Parser { readonly re: RE2JS; readonly fields: readonly string[] }

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

function compileParser(fmt: string): Parser {
  let src = '^'
  const fields: string[] = []
  const toks = tokenize(fmt)
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!
    if ('lit' in t) { src += escape(t.lit); continue }
    const { letter, n } = t
    const unitFollows = toks[i + 1] !== undefined && !('lit' in toks[i + 1]!)
    let g: string
    switch (letter) {
      case 'M': g = n >= 3 ? '([A-Za-z]+)' : n === 2 ? '(\\d{2})' : '(\\d{1,2})'; break
      case 'y': g = n === 4 ? '(\\d{4})' : n === 2 ? '(\\d{2})' : '(-?\\d{1,9})'; break
      // a single S, U or N reads one digit before another unit, else up to three (QuestDB docs)
      case 'S': case 'U': g = t.plus ? '(\\d{1,6})' : n === 3 ? '(\\d{3})' : unitFollows ? '(\\d)' : '(\\d{1,3})'; break
      case 'N': g = t.plus ? '(\\d{1,9})' : n === 3 ? '(\\d{3})' : unitFollows ? '(\\d)' : '(\\d{1,3})'; break
      case 'E': g = '([A-Za-z]+)'; break
      case 'a': g = '([AaPp][Mm])'; break
      case 'Z': case 'z': case 'x': g = '(Z|UTC|GMT|[+-]\\d{2}(?::?\\d{2})?)'; break
      default: g = n === 2 ? '(\\d{2})' : '(\\d{1,2})'
    }
    src += g
    fields.push(t.plus ? letter + '+' : n === 2 && letter === 'y' ? 'yy' : letter)
  }
  return { re: RE2JS.compile(src + '$'), fields }
}

/** Parses text with a QuestDB pattern to micros (UTC), or null when it does not match. */
export function parseWith(p: Parser, text: string): number | null {
  return parseWithNanos(p, text)?.micros ?? null
}

/**
 * Parses text with a QuestDB pattern to micros (UTC) and the nanoseconds past them (0-999), or
 * null when it does not match. The nanoseconds come from the pattern's own fields: `N` is the
 * nanoseconds of the microsecond (a short one pads right: `.SSSUUUN` on `.1234567` is 700 ns),
 * `N+` the nanoseconds of the second (1-9 digits, padded right: `.N+` on `.12` is 120 ms).
 */
export function parseWithNanos(p: Parser, text: string): { micros: number; nanos: number } | null {
  const m = p.re.exec(text)
  if (m === null) return null
  let y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0, micros = 0, nanos = 0, pm = -1, off = 0
  for (let k = 0; k < p.fields.length; k++) {
    const v = m[k + 1]!
    switch (p.fields[k]) {
      // a two-digit year written for `y` is a year of this century, as `yy`
      case 'y': y = /^\d{2}$/.test(v) ? 2000 + Number(v) : Number(v); break
      case 'yy': y = 2000 + Number(v); break
      case 'M': {
        if (/^\d+$/.test(v)) mo = Number(v)
        else { mo = MONTHS.findIndex((x) => x.toLowerCase().startsWith(v.toLowerCase()) && v.length >= 3) + 1; if (mo === 0) return null }
        break
      }
      case 'd': d = Number(v); break
      case 'H': case 'k': case 'K': case 'h': h = Number(v); break
      case 'm': mi = Number(v); break
      case 's': s = Number(v); break
      // short fractions pad with zeros on the right: `.S` on ".12" is 120 ms
      case 'S': micros += Number(v.padEnd(3, '0')) * 1000; break
      case 'U': micros += Number(v.padEnd(3, '0')); break
      case 'S+': case 'U+': micros += Number(v.padEnd(6, '0')); break
      case 'N': nanos += Number(v.padEnd(3, '0')); break
      case 'N+': { const ns = Number(v.padEnd(9, '0')); micros += Math.floor(ns / 1000); nanos += ns % 1000; break }
      case 'a': pm = v.toLowerCase() === 'pm' ? 1 : 0; break
      case 'Z': case 'z': case 'x': {
        const z = parseUtcOffset(v)
        if (z !== null) off = z
        break
      }
      default: break
    }
  }
  if (pm === 1 && h < 12) h += 12
  if (pm === 0 && h === 12) h = 0
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null
  return { micros: daysFromCivil(y, mo, d) * MICROS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1_000_000 + micros - off, nanos }
}

/** The compiled parser of a QuestDB pattern (to parse with {@link parseWithNanos}). */
export function timeParser(fmt: string): Parser {
  return compileParser(fmt)
}

interface FormatState { fmt: string | undefined; parser: Parser | undefined }

function parserFor(st: FormatState, fmt: string): Parser {
  if (st.fmt !== fmt || st.parser === undefined) { st.parser = compileParser(fmt); st.fmt = fmt }
  return st.parser
}

const newState = (): FormatState => ({ fmt: undefined, parser: undefined })

/** to_timestamp, to_date and to_str. */
export const TIME_FORMAT_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'to_timestamp', family: 'time',
    description: 'Parses text with a format pattern; null when the text does not match.',
    example: "SELECT to_timestamp('2020-03-01:15:43:21.127329', 'yyyy-MM-dd:HH:mm:ss.SSSUUU')",
    signatures: [{ args: ['TEXT', 'TEXT'], returns: 'TIMESTAMP' }],
    init: newState,
    row: (a, _ctx, st) => parseWith(parserFor((st as FormatState | undefined) ?? newState(), String(a[1])), String(a[0])),
  },
  {
    kind: 'scalar', name: 'to_date', family: 'time',
    description: 'Parses text with a format pattern to a DATE; null when the text does not match.',
    example: "SELECT to_date('2020-03-01', 'yyyy-MM-dd')",
    signatures: [{ args: ['TEXT', 'TEXT'], returns: 'DATE' }],
    init: newState,
    row: (a, _ctx, st) => {
      const us = parseWith(parserFor((st as FormatState | undefined) ?? newState(), String(a[1])), String(a[0]))
      return us === null ? null : Math.floor(us / 1000)
    },
  },
  {
    kind: 'scalar', name: 'to_str', family: 'time',
    description: 'Formats a timestamp with a format pattern; unknown letters pass through.',
    example: "SELECT to_str(now(), 'yyyy-MM-dd')",
    signatures: [{ args: ['TIMESTAMP', 'TEXT'], returns: 'STRING' }],
    row: (a) => formatWith(String(a[1]), typeof a[0] === 'number' ? a[0] : Number(a[0])),
  },
]
