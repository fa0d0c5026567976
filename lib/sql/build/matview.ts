/**
 * Builders of the materialized-view statements (grammar/matview.ne): CREATE, REFRESH, DROP and
 * ALTER MATERIALIZED VIEW. Words that are not keywords of the lexer (`BASE`, `IMMEDIATE`,
 * `MANUAL`, `EVERY`, `DEFERRED`, `INCREMENTAL`, `PERIOD`, `LENGTH`, `DELAY`, `INTERVAL`) arrive as
 * names and are checked here: the rule rejects (returns null) when the word is not the one it reads.
 */
import type { CreateMatView, MatViewPeriod, MatViewRefresh, Query, TableOptions } from '../ast.js'
import { syntaxError } from '../../errors.js'
import type { Token } from '../lexer.js'
import { unquoteString } from '../lexer.js'
import type { Name } from './tokens.js'
import { isBare } from './query.js'
import type { partitionOpt } from './ddl.js'

/** True when name `n` is the word `word` (case-insensitive). */
export function isWord(n: Name | null, word: string): boolean {
  return n !== null && n.name.toLowerCase() === word
}

/** `REFRESH IMMEDIATE | MANUAL [DEFERRED] [PERIOD (...)]`, or null (the rule rejects) for another word. */
export function refreshKind(kind: Name, deferred: Name | null, period: MatViewPeriod | null = null): MatViewRefresh | null {
  const k = kind.name.toLowerCase()
  if (k !== 'immediate' && k !== 'manual') return null
  if (deferred !== null && !isWord(deferred, 'deferred')) return null
  return { kind: k, deferred: deferred !== null, ...(period === null ? {} : { period }) }
}

/** Units of a period's LENGTH and DELAY (QuestDB: minutes, hours, days). */
const PERIOD_UNITS: Record<string, number> = { m: 1, h: 60, d: 24 * 60 }

/** One `<n><unit>` of a PERIOD clause (`text` at `pos`): QuestDB's errors for a zero count and a unit other than m, h, d. */
function periodInterval(text: string, pos: number, what: 'length' | 'delay'): { count: number; unit: 'm' | 'h' | 'd'; pos: number } {
  const m = /^(\d+)([a-zA-Z]+)$/.exec(text)
  if (m === null) throw syntaxError(`Invalid unit: ${text}`, pos)
  const count = Number(m[1])
  if (count <= 0) throw syntaxError(`positive number expected: ${text}`, pos)
  if (PERIOD_UNITS[m[2]!] === undefined) throw syntaxError(`unsupported ${what} unit: ${text}, supported units are 'm', 'h', 'd'`, pos)
  return { count, unit: m[2] as 'm' | 'h' | 'd', pos }
}

/**
 * A period's LENGTH `<n><unit>` (as written, at `pos`) with QuestDB's checks: a positive count,
 * units `m`, `h`, `d`, at most 24 hours. Also checks the SAMPLE BY stride of `PERIOD (SAMPLE BY INTERVAL)`.
 */
export function periodLength(text: string, pos: number): { count: number; unit: 'm' | 'h' | 'd'; pos: number } {
  const len = periodInterval(text, pos, 'length')
  if (len.count * PERIOD_UNITS[len.unit]! > 24 * 60) throw syntaxError(`maximum supported length interval is 24 hours: ${text}`, pos)
  return len
}

/**
 * `PERIOD (LENGTH <n><unit> [TIME ZONE 'z'] [DELAY <n><unit>])` with QuestDB's checks: the length
 * at most 24 hours, the delay shorter than the length; null (the rule rejects) for other words.
 */
export function period(kw: Name, lengthKw: Name, length: Token, zone: [Token, Token, Token] | null, delay: [Name, Token] | null): MatViewPeriod | null {
  if (!isWord(kw, 'period')) return null
  if (!isWord(lengthKw, 'length')) throw syntaxError("'length' expected", lengthKw.pos)
  if (delay !== null && !isWord(delay[0], 'delay')) throw syntaxError("'delay' or ')' expected", delay[0].pos)
  const len = periodLength(length.text, length.offset)
  const minutes = len.count * PERIOD_UNITS[len.unit]!
  const d = delay === null ? undefined : periodInterval(delay[1].text, delay[1].offset, 'delay')
  if (d !== undefined && d.count * PERIOD_UNITS[d.unit]! >= minutes) throw syntaxError('delay cannot be equal to or greater than length', d.pos)
  return {
    pos: kw.pos, length: len,
    ...(zone === null ? {} : { timeZone: { value: unquoteString(zone[2].text), pos: zone[2].offset } }),
    ...(d === undefined ? {} : { delay: d }),
  }
}

/** `REFRESH EVERY <n><unit> [DEFERRED] [START 'ts' [TIME ZONE 'z']] [PERIOD (...)]`, or null for a word other than EVERY. */
export function refreshEvery(every: Name, interval: Token, deferred: Name | null, start: [Token, Token] | null, zone: [Token, Token, Token] | null = null, period: MatViewPeriod | null = null): MatViewRefresh | null {
  if (!isWord(every, 'every')) return null
  if (deferred !== null && !isWord(deferred, 'deferred')) return null
  // as QuestDB: a period view's timer starts at its period boundary, so START / TIME ZONE come inside PERIOD only
  if (period !== null && (start !== null || zone !== null)) throw syntaxError('unexpected token [PERIOD]', period.pos)
  const m = /^(\d+)([a-zA-Z])$/.exec(interval.text)
  if (m === null) throw syntaxError(`invalid interval qualifier ${interval.text}`, interval.offset)
  // QuestDB's SqlParser.validateMatViewEveryUnit
  if (!'mhdwMy'.includes(m[2]!)) throw syntaxError(`unsupported interval unit: ${m[2]}, supported units are 'm', 'h', 'd', 'w', 'y', 'M'`, interval.offset)
  const count = Number(m[1])
  if (count <= 0) throw syntaxError('positive number expected', interval.offset)
  // materialized_views().timer_interval is an INT, and SHOW CREATE must print the count back as digits
  if (count > 2_147_483_647) throw syntaxError(`interval count out of range: ${interval.text}`, interval.offset)
  return {
    kind: 'every', deferred: deferred !== null, every: { count, unit: m[2]!, pos: interval.offset },
    ...(start === null ? {} : { start: { value: unquoteString(start[1].text), pos: start[1].offset } }),
    ...(zone === null ? {} : { timeZone: { value: unquoteString(zone[2].text), pos: zone[2].offset } }),
    ...(period === null ? {} : { period }),
  }
}

/** The CREATE MATERIALIZED VIEW statement; `rparen` null for the compact form (text to the end). */
export function createMatView(
  tok: Token, ifNotExists: boolean, n: Name, base: Name | null, refresh: MatViewRefresh | null,
  bodyStartTok: Token, query: Query, rparen: Token | null, partition: ReturnType<typeof partitionOpt> | null,
): CreateMatView | null {
  // the compact form reads a query without parentheses; one in parentheses is the full form's
  if (rparen === null && isBare(query)) return null
  if (partition?.wal !== undefined) throw syntaxError("unexpected token [WAL]", partition.partitionByPos ?? tok.offset)
  const ttl: TableOptions['ttl'] | undefined = partition?.ttl
  return {
    kind: 'mat_view', op: 'create', pos: tok.offset, name: n.name, namePos: n.pos, ifNotExists,
    ...(base === null ? {} : { base: { name: base.name, pos: base.pos } }),
    refresh: refresh ?? { kind: 'immediate', deferred: false },
    query, queryPos: rparen === null ? bodyStartTok.offset + bodyStartTok.text.length : bodyStartTok.offset + 1,
    bodyStart: rparen === null ? bodyStartTok.offset + bodyStartTok.text.length : bodyStartTok.offset + 1,
    bodyEnd: rparen === null ? Number.MAX_SAFE_INTEGER : rparen.offset, sql: '',
    ...(partition === null ? {} : { partitionBy: partition.partitionBy, partitionByPos: partition.partitionByPos }),
    ...(ttl === undefined ? {} : { ttl }),
  }
}

/** `SET REFRESH LIMIT foobar`: QuestDB's message at the word (a limit is `<n> <unit>` or `<n><unit>`). */
export function badLimit(word: Name): never {
  throw syntaxError('invalid argument, should be <number> <unit> or <number_with_unit>', word.pos)
}
