/**
 * Builders of the materialized-view statements (grammar/matview.ne): CREATE, REFRESH, DROP and
 * ALTER MATERIALIZED VIEW. Words that are not keywords of the lexer (`BASE`, `IMMEDIATE`,
 * `MANUAL`, `EVERY`, `DEFERRED`, `INCREMENTAL`) arrive as names and are checked here: the rule
 * rejects (returns null) when the word is not the one it reads.
 */
import type { CreateMatView, MatViewRefresh, Query, TableOptions } from '../ast.js'
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

/** `REFRESH IMMEDIATE | MANUAL [DEFERRED]`, or null (the rule rejects) for another word. */
export function refreshKind(kind: Name, deferred: Name | null): MatViewRefresh | null {
  const k = kind.name.toLowerCase()
  if (k !== 'immediate' && k !== 'manual') return null
  if (deferred !== null && !isWord(deferred, 'deferred')) return null
  return { kind: k, deferred: deferred !== null }
}

/** `REFRESH EVERY <n><unit> [DEFERRED] [START 'ts']`, or null for a word other than EVERY. */
export function refreshEvery(every: Name, interval: Token, deferred: Name | null, start: [Token, Token] | null, zone: [Token, Token, Token] | null = null): MatViewRefresh | null {
  if (!isWord(every, 'every')) return null
  if (deferred !== null && !isWord(deferred, 'deferred')) return null
  const m = /^(\d+)([smhdwMy])$/.exec(interval.text)
  if (m === null) throw syntaxError(`invalid interval qualifier ${interval.text}`, interval.offset)
  const count = Number(m[1])
  if (count <= 0) throw syntaxError('positive number expected', interval.offset)
  return {
    kind: 'every', deferred: deferred !== null, every: { count, unit: m[2]!, pos: interval.offset },
    ...(start === null ? {} : { start: { value: unquoteString(start[1].text), pos: start[1].offset } }),
    ...(zone === null ? {} : { timeZone: { value: unquoteString(zone[2].text), pos: zone[2].offset } }),
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
