/**
 * QuestDB 9's TICK interval syntax (Temporal Interval Calendar Kit) for `ts IN '...'`:
 * `date [T time] [@timezone] [#dayFilter] [;duration]`, where the date part is
 *
 * - a literal, with numeric bracket expansions in any field (`2024-01-[10..15]`,
 *   `2024-[01,06]-[10,15]` is their Cartesian product, `T[09,14]:30`), or a time list
 *   (`T[09:00,14:30]`, each item may carry its own `@zone`);
 * - a date list `[2024-01-15, $today, 2025-01-[01..05]]` followed by a common suffix (`T09:30`);
 * - an ISO week `2024-W01`, `2024-W01-5`, `2024-W[01..04]-[1,5]`;
 * - a date variable `$today`, `$yesterday`, `$tomorrow` (whole days) or `$now` (an instant), with
 *   arithmetic (`$now - 2h`, `$today + 5bd`: units y M w d bd h m s T u) and ranges
 *   (`$now - 2h..$now` one interval; `[$today - 5bd..$today - 1bd]T09:30` one per day, weekends
 *   skipped when `bd` is used).
 *
 * `@zone` (IANA name, `+02:00`, `+0200`, `+02`, `UTC`, `Z`) reads the times as local in that
 * zone; `#workday`/`#wd`, `#weekend` or `#Mon,Wed,Fri` keep the days (of the local date) named;
 * `;6h30m` extends the end of each period as the plain form does (interval.ts). Results merge.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import { parseTimestampParts, periodOf, periodSubs } from './timestamp.js'
import { addUnits, isTimeUnit } from './calendar.js'
import { localToUtc } from './time-zone.js'
import { type IntervalSet, normalizeIntervals } from './interval-set.js'

/** Upper bound on the intervals one TICK expression may expand to. */
export const MAX_TICK_INTERVALS = 100_000

const DAY = 86_400_000_000

/** True when `text` uses TICK syntax (brackets, `$` variables, `@zone`, `#filter`, ISO weeks). */
export function isTick(text: string): boolean {
  return /[[$@#]/.test(text) || /^\s*\d{4}-W/i.test(text)
}

/**
 * A period before the duration: local [lo, hi] in microseconds, the nanoseconds past each bound's
 * microsecond (`loSub`, `hiSub`, 0-999: what a TIMESTAMP_NS column compares to), and whether it is
 * an instant (a duration extends `lo`).
 */
interface Period { lo: number; hi: number; loSub: number; hiSub: number; instant: boolean; zone: string | undefined }

function fail(position: number, message: string): SqlError {
  return new SqlError(SqlState.INVALID_DATETIME_FORMAT, message, position)
}

/** Index of the first `ch` outside brackets, or -1; an unclosed `[` fails. */
function findTop(s: string, ch: string, position: number, from = 0): number {
  let depth = 0
  for (let i = from; i < s.length; i++) {
    const c = s[i]!
    if (c === '[') depth++
    else if (c === ']') depth--
    else if (c === ch && depth === 0) return i
  }
  if (depth > 0) throw fail(position, "Unclosed '[' in interval")
  return -1
}

function splitTop(s: string, ch: string, position: number): string[] {
  const out: string[] = []
  let at = 0
  for (;;) {
    const i = findTop(s, ch, position, at)
    if (i < 0) { out.push(s.slice(at)); return out }
    out.push(s.slice(at, i))
    at = i + 1
  }
}

/**
 * Parses a TICK expression to an {@link IntervalSet}; `nowMicros` anchors `$now` and `$today`.
 * Raises 22007 with QuestDB's messages (`Unclosed '[' in interval`, `Empty bracket expansion`,
 * `Range must be ascending: 15..10`, `Invalid timezone: xyz`, `Unknown date variable: $x`,
 * `Invalid day name: xyz`) or `Invalid date`.
 */
export function parseTick(text: string, position: number, nowMicros: number): IntervalSet {
  return normalizeIntervals(microPairs(tickQuads(text, position, nowMicros, 0)))
}

/** Each quad's microsecond bounds, as pairs. */
export function microPairs(quads: ArrayLike<number>): Float64Array {
  const out = new Float64Array(quads.length / 2)
  for (let k = 0, j = 0; k < quads.length; k += 4, j += 2) { out[j] = quads[k]!; out[j + 1] = quads[k + 2]! }
  return out
}

/**
 * The intervals of a TICK expression before merging, four numbers each: low microseconds, low
 * nanoseconds past it (0-999), high microseconds, high nanoseconds (see
 * `timestamp-ns-interval.ts`). `$now` is `nowMicros` and `nowSub` nanoseconds; a literal with
 * more than six fraction digits starts at its nanosecond; a period's end covers its last
 * microsecond (999); a duration moves an end by whole units and keeps its nanoseconds.
 */
export function tickQuads(text: string, position: number, nowMicros: number, nowSub: number): number[] {
  let head = text.trim()
  let duration: Array<[number, string]> | undefined
  const semi = findTop(head, ';', position)
  if (semi >= 0) {
    duration = parseTerms(head.slice(semi + 1).trim(), position, false)
    head = head.slice(0, semi).trim()
  }
  let days: Set<number> | undefined
  const hash = findTop(head, '#', position)
  if (hash >= 0) {
    days = dayFilter(head.slice(hash + 1).trim(), position)
    head = head.slice(0, hash).trim()
  }
  const periods: Period[] = []
  const now: Now = { micros: nowMicros, sub: nowSub }
  for (const el of elements(head, position)) expandElement(el, position, now, periods)
  const out: number[] = []
  for (const p of periods) {
    if (days !== undefined && !days.has(weekday(p.lo))) continue
    let lo = p.lo
    let hi = p.hi
    let hiSub = p.hiSub
    if (p.zone !== undefined) { lo = localToUtc(p.zone, lo); hi = localToUtc(p.zone, hi + 1) - 1 }
    if (duration !== undefined) {
      let end = p.instant ? lo : hi
      if (p.instant) hiSub = p.loSub
      for (const [n, u] of duration) end = addUnits(end, u as never, n)
      hi = end
    }
    out.push(lo, p.loSub, hi, hiSub)
  }
  return out
}

/** `$now`: microseconds and the nanoseconds past them. */
interface Now { readonly micros: number; readonly sub: number }

/** The element strings of a head: a date list's items each with the common suffix, or the head. */
function elements(head: string, position: number): string[] {
  if (!head.startsWith('[')) return [head]
  // the `]` matching the opening one
  let depth = 0
  let end = -1
  for (let i = 0; i < head.length; i++) {
    if (head[i] === '[') depth++
    else if (head[i] === ']' && --depth === 0) { end = i; break }
  }
  if (end < 0) throw fail(position, "Unclosed '[' in interval")
  const inner = head.slice(1, end).trim()
  const suffix = head.slice(end + 1).trim()
  // `[2024-01]` or `[2024-01-15]`-style single item or a list; a bracket of bare numbers
  // (`[2024,2025]-01`) is a numeric expansion of the first field instead
  if (/^[\d\s,.]+$/.test(inner) && suffix.startsWith('-')) return [head]
  if (inner === '') throw fail(position, 'Empty bracket expansion')
  return splitTop(inner, ',', position).flatMap((item) => daysOf(item.trim(), suffix)).map((item) => {
    const t = item.trim()
    const at = findTop(t, '@', position)
    // a per-item zone goes after the common suffix (`[2024-01-15@Europe/London]T08:00`)
    // a variable keeps its suffix apart (`$today - 5bd..$today`, then `T09:30` for each day)
    if (t.startsWith('$')) return suffix === '' ? t : `${t}${SUFFIX}${suffix}`
    return at >= 0 && suffix !== '' ? `${t.slice(0, at)}${suffix}@${t.slice(at + 1)}` : `${t}${suffix}`
  })
}

/**
 * A month (`2025-01`) or year (`2025`) item of a date list followed by a suffix stands for each
 * of its days (`[2025-01]T09:30` is 09:30 on every day of January); other items are kept.
 */
function daysOf(item: string, suffix: string): string[] {
  const m = /^(\d{4})(?:-(\d{2}))?$/.exec(item)
  if (m === null || suffix === '') return [item]
  const year = Number(m[1]!)
  const from = m[2] === undefined ? Date.UTC(year, 0, 1) : Date.UTC(year, Number(m[2]) - 1, 1)
  const to = m[2] === undefined ? Date.UTC(year + 1, 0, 1) : Date.UTC(year, Number(m[2]), 1)
  const out: string[] = []
  for (let d = from; d < to; d += 86_400_000) out.push(new Date(d).toISOString().slice(0, 10))
  return out
}

/** Separates a date-list variable from the list's common suffix. */
const SUFFIX = '\u0001'

/** Expands one element (numeric brackets, zone, variable or literal) into periods. */
function expandElement(el: string, position: number, now: Now, out: Period[]): void {
  const cut = el.indexOf(SUFFIX)
  if (cut >= 0) {
    // `$var` from a date list, with the list's suffix: `T09:30`, `@zone`, both
    const suffix = el.slice(cut + 1)
    const at = suffix.indexOf('@')
    const time = (at >= 0 ? suffix.slice(0, at) : suffix).trim()
    if (time !== '' && !/^T\d/.test(time)) throw fail(position, 'Invalid date')
    variablePeriods(el.slice(0, cut).trim(), position, now, at >= 0 ? zoneOf(suffix.slice(at + 1).trim(), position) : undefined, out, time === '' ? undefined : time.slice(1))
    return
  }
  for (const concrete of expandBrackets(el.trim(), position)) {
    if (out.length >= MAX_TICK_INTERVALS) throw fail(position, `interval expands to more than ${MAX_TICK_INTERVALS} intervals`)
    const at = concrete.indexOf('@')
    const body = (at >= 0 ? concrete.slice(0, at) : concrete).trim()
    const zone = at >= 0 ? zoneOf(concrete.slice(at + 1).trim(), position) : undefined
    if (body.startsWith('$')) variablePeriods(body, position, now, zone, out)
    else out.push({ ...literalPeriod(body, position), zone })
  }
}

/** The Cartesian product of the numeric bracket expansions in `s` (time lists substitute whole items). */
function expandBrackets(s: string, position: number, context = ''): string[] {
  // a variable (`$now - 2h..$now`) has no numeric fields to expand
  if (s.startsWith('$') && !s.includes('[')) return [s]
  const open = s.indexOf('[')
  if (open < 0) return [s]
  let depth = 0
  let close = -1
  for (let i = open; i < s.length; i++) {
    if (s[i] === '[') depth++
    else if (s[i] === ']' && --depth === 0) { close = i; break }
  }
  if (close < 0) throw fail(position, "Unclosed '[' in interval")
  const inner = s.slice(open + 1, close).trim()
  if (inner === '') throw fail(position, 'Empty bracket expansion')
  const before = s.slice(0, open)
  const after = s.slice(close + 1)
  // a variable range in brackets followed by a suffix: `[$today - 5bd..$today]T09:30`
  if (inner.startsWith('$')) return splitTop(inner, ',', position).flatMap((v) => expandBrackets(`${before}${v.trim()}${after}`, position))
  const weekdayField = /W\d{2}-$/i.test(context + before)
  // QuestDB pads time and date fields to two digits, but not a fraction of a second: its values
  // are written as plain numbers (`.00000000[1,5]` is .000000001 and .000000005)
  const fraction = (context + before).includes('.')
  const items: string[] = []
  for (const raw of splitTop(inner, ',', position)) {
    const item = raw.trim()
    if (item.includes(':') || !/^\d+(\s*\.\.\s*\d+)?$/.test(item)) { items.push(item); continue }
    const range = /^(\d+)\s*\.\.\s*(\d+)$/.exec(item)
    const width = weekdayField || fraction ? 1 : Math.max(2, item.split('..')[0]!.trim().length)
    if (range === null) { items.push(fraction ? String(Number(item)) : item.padStart(width, '0')); continue }
    const a = Number(range[1]!)
    const b = Number(range[2]!)
    if (b < a) throw fail(position, `Range must be ascending: ${range[1]}..${range[2]}`)
    if (b - a > MAX_TICK_INTERVALS) throw fail(position, `interval expands to more than ${MAX_TICK_INTERVALS} intervals`)
    for (let k = a; k <= b; k++) items.push(String(k).padStart(width, '0'))
  }
  const rest = expandBrackets(after, position, `${context}${before}${items[0] ?? ''}`)
  const out: string[] = []
  for (const item of items) for (const r of rest) out.push(`${before}${item}${r}`)
  if (out.length > MAX_TICK_INTERVALS) throw fail(position, `interval expands to more than ${MAX_TICK_INTERVALS} intervals`)
  return out
}

/** A literal date/time (or ISO week) as a local period. */
function literalPeriod(body: string, position: number): Omit<Period, 'zone'> {
  const week = /^(\d{4})-W(\d{2})(?:-(\d))?(T.*)?$/i.exec(body)
  if (week !== null) {
    const year = Number(week[1]!)
    const w = Number(week[2]!)
    if (w < 1 || w > 53) throw fail(position, 'Invalid date')
    // ISO week 1 holds January 4th; weeks start on Monday
    const jan4 = Date.UTC(year, 0, 4) * 1000
    const monday = jan4 - weekdayIndex(jan4) * DAY + (w - 1) * 7 * DAY
    if (week[3] === undefined) {
      if (week[4] !== undefined) throw fail(position, 'Invalid date')
      return { lo: monday, hi: monday + 7 * DAY - 1, loSub: 0, hiSub: 999, instant: false }
    }
    const d = Number(week[3])
    if (d < 1 || d > 7) throw fail(position, 'Invalid date')
    const day = monday + (d - 1) * DAY
    return week[4] === undefined ? { lo: day, hi: day + DAY - 1, loSub: 0, hiSub: 999, instant: false } : timeOnDay(day, week[4].slice(1), position)
  }
  const p = parseTimestampParts(body)
  if (p === null) throw fail(position, 'Invalid date')
  const period = periodOf(p)
  return { lo: period.lo, hi: period.hi, ...periodSubs(p), instant: p.precision === 'fraction' }
}

/** `HH:mm[:ss[.fff]]` on the day starting at `day`. */
function timeOnDay(day: number, time: string, position: number): Omit<Period, 'zone'> {
  const d = new Date(day / 1000).toISOString().slice(0, 10)
  return literalPeriod(`${d}T${time}`, position)
}

/** `$today`, `$now - 2h`, `$todayT09:30`, `$a..$b`. */
function variablePeriods(body: string, position: number, now: Now, zone: string | undefined, out: Period[], time?: string): void {
  const dots = body.indexOf('..')
  if (dots >= 0) {
    const a = variable(body.slice(0, dots).trim(), position, now)
    const b = variable(body.slice(dots + 2).trim(), position, now)
    if (time !== undefined && !a.instant && !b.instant) {
      const skip = a.businessDays || b.businessDays
      for (let d = a.lo; d <= b.lo; d += DAY) {
        if (skip && weekday(d) >= 6) continue
        out.push({ ...timeOnDay(d, time, position), zone })
        if (out.length >= MAX_TICK_INTERVALS) throw fail(position, `interval expands to more than ${MAX_TICK_INTERVALS} intervals`)
      }
      return
    }
    if (a.instant || b.instant || a.time !== undefined || b.time !== undefined) {
      out.push({ lo: a.lo, loSub: a.loSub, hi: b.instant ? b.lo : b.hi, hiSub: b.instant ? b.loSub : 999, instant: false, zone })
      return
    }
    // whole days from a to b, one period each (merged unless a suffix splits them)
    const skipWeekends = a.businessDays || b.businessDays
    for (let d = a.lo; d <= b.lo; d += DAY) {
      if (skipWeekends && weekday(d) >= 6) continue
      out.push({ lo: d, hi: d + DAY - 1, loSub: 0, hiSub: 999, instant: false, zone })
      if (out.length >= MAX_TICK_INTERVALS) throw fail(position, `interval expands to more than ${MAX_TICK_INTERVALS} intervals`)
    }
    return
  }
  const v = variable(body, position, now)
  if (time !== undefined && !v.instant) out.push({ ...timeOnDay(v.lo, time, position), zone })
  else if (v.time !== undefined) out.push({ ...timeOnDay(v.lo, v.time, position), zone })
  else out.push({ lo: v.lo, hi: v.hi, loSub: v.loSub, hiSub: v.instant ? v.loSub : 999, instant: v.instant, zone })
}

interface Variable { lo: number; hi: number; loSub: number; instant: boolean; businessDays: boolean; time: string | undefined }

function variable(text: string, position: number, nowAt: Now): Variable {
  const now = nowAt.micros
  const m = /^\$(today|yesterday|tomorrow|now)(?:T(\d[\d:.]*))?\s*(.*)$/i.exec(text)
  if (m === null) throw fail(position, `Unknown date variable: ${/^\$[a-zA-Z]*/.exec(text)?.[0] ?? text}`)
  const name = m[1]!.toLowerCase()
  const today = Math.floor(now / DAY) * DAY
  let lo: number
  let instant = false
  switch (name) {
    case 'now': lo = now; instant = true; break
    case 'today': lo = today; break
    case 'yesterday': lo = today - DAY; break
    case 'tomorrow': lo = today + DAY; break
    default: throw fail(position, `Unknown date variable: $${m[1]}`)
  }
  const terms = m[3]!.trim() === '' ? [] : parseTerms(m[3]!.replace(/\s+/g, ''), position, true)
  let businessDays = false
  for (const [n, u] of terms) {
    if (u === 'bd') { businessDays = true; lo = addBusinessDays(lo, n) } else lo = addUnits(lo, u as never, n)
  }
  return { lo, hi: instant ? lo : lo + DAY - 1, loSub: instant ? nowAt.sub : 0, instant, businessDays, time: m[2] }
}

/** `+5d-2h`, `6h30m`, `-3d`: signed terms (arithmetic: each term may carry its own sign). */
function parseTerms(text: string, position: number, arithmetic: boolean): Array<[number, string]> {
  const out: Array<[number, string]> = []
  const re = arithmetic ? /([+-])(\d+)(bd|[a-zA-Z])/gy : /([+-]?)(\d+)([a-zA-Z])/gy
  let at = 0
  let sign = 1
  if (!arithmetic && text.startsWith('-')) { sign = -1; text = text.slice(1) }
  while (at < text.length) {
    re.lastIndex = at
    const m = re.exec(text)
    if (m === null) throw fail(position, 'Invalid date')
    let unit = m[3]!
    if (unit === 'D') unit = 'd'
    if (unit !== 'bd' && (!isTimeUnit(unit) || unit === 'n')) throw fail(position, 'Invalid date')
    out.push([(m[1] === '-' ? -1 : 1) * sign * Number(m[2]!), unit])
    at = re.lastIndex
  }
  if (out.length === 0) throw fail(position, 'Invalid date')
  return out
}

function addBusinessDays(ts: number, n: number): number {
  let t = ts
  const step = n < 0 ? -1 : 1
  for (let left = Math.abs(n); left > 0;) {
    t += step * DAY
    if (weekday(t) <= 5) left--
  }
  return t
}

/** ISO day of week of a (local) instant: 1 = Monday ... 7 = Sunday. */
function weekday(ts: number): number {
  return weekdayIndex(ts) + 1
}

function weekdayIndex(ts: number): number {
  const days = Math.floor(ts / DAY)
  return (((days + 3) % 7) + 7) % 7 // 1970-01-01 was a Thursday (index 3)
}

const DAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
const FULL_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

function dayFilter(text: string, position: number): Set<number> {
  const t = text.toLowerCase()
  if (t === 'workday' || t === 'wd') return new Set([1, 2, 3, 4, 5])
  if (t === 'weekend') return new Set([6, 7])
  const out = new Set<number>()
  for (const raw of text.split(',')) {
    const name = raw.trim().toLowerCase()
    let i = DAY_NAMES.indexOf(name)
    if (i < 0) i = FULL_NAMES.indexOf(name)
    if (i < 0) throw fail(position, `Invalid day name: ${raw.trim()}`)
    out.add(i + 1)
  }
  return out
}

/** A zone as `localToUtc` takes it: IANA names as written, offsets normalised to `+hh:mm`. */
function zoneOf(text: string, position: number): string {
  const upper = text.toUpperCase()
  if (upper === 'Z' || upper === 'UTC' || upper === 'GMT') return 'UTC'
  const off = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(text)
  const zone = off !== null ? `${off[1]}${off[2]}:${off[3] ?? '00'}` : text
  try {
    localToUtc(zone, 0)
  } catch {
    throw fail(position, `Invalid timezone: ${text}`)
  }
  return zone
}
