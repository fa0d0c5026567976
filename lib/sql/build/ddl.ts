/**
 * AST builders for DDL: type names, column definitions, table options, TTL.
 */
import type { ColumnDef, CreateTable, CreateView, PartitionUnit, Query, TableOptions } from '../ast.js'
import { SqlError, SqlState, syntaxError } from '../../errors.js'
import type { Token } from '../lexer.js'
import { unquoteString } from '../lexer.js'
import type { Name } from './tokens.js'
import { valueText } from './tokens.js'
import { isBare } from './query.js'

/** A type name as written: `geohash(8c)`, `decimal(18,3)`, `double[]`. */
export function typeName(n: Name, args: readonly (Token | Name)[] | null, dims: number): Name {
  let text = n.name
  if (args !== null) text += `(${args.map((a) => ('offset' in a ? a.text : a.name)).join(',')})`
  return { name: text + '[]'.repeat(dims), pos: n.pos }
}

/** A column definition with its SYMBOL options. */
export function columnDef(n: Name, type: Name, cap: [Token, Token] | null, cache: Token | null, idx: [Token, [Token, Token] | null] | null): ColumnDef {
  return {
    name: n.name, pos: n.pos, type: type.name, typePos: type.pos,
    ...(cap === null ? {} : { symbolCapacity: Number(cap[1].text.replace(/_/g, '')) }),
    ...(cache === null ? {} : { symbolCache: cache.type === 'CACHE' }),
    ...(idx === null ? {} : { indexed: true }),
    ...(idx?.[1] ? { indexCapacity: indexCapacity(idx[1][1]) } : {}),
  }
}

/** QuestDB's bounds of an index's value block capacity (TableUtils.MIN/MAX_INDEX_VALUE_BLOCK_SIZE). */
const MIN_INDEX_CAPACITY = 4
const MAX_INDEX_CAPACITY = 8 * 1024 * 1024

/**
 * The capacity of `INDEX CAPACITY n`: checked as QuestDB does (22023 `min index block capacity
 * is 4` / `max index block capacity is 8388608` at the number) and rounded up to a power of 2.
 */
export function indexCapacity(tok: Token): number {
  const n = Number(tok.text.replace(/_/g, ''))
  if (n < MIN_INDEX_CAPACITY) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `min index block capacity is ${MIN_INDEX_CAPACITY}`, tok.offset)
  if (n > MAX_INDEX_CAPACITY) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `max index block capacity is ${MAX_INDEX_CAPACITY}`, tok.offset)
  return 2 ** Math.ceil(Math.log2(n))
}

/** `CREATE TABLE`; `, INDEX(col [CAPACITY n])` clauses mark their columns indexed. */
export function createTable(tok: Token, ine: unknown, n: Name, cols: ColumnDef[], idx: { name: Name; capacity: Token | null }[], options: TableOptions): CreateTable {
  const columns = cols.map((c) => {
    const i = idx.find((x) => x.name.name.toLowerCase() === c.name.toLowerCase())
    if (i === undefined) return c
    return { ...c, indexed: true, ...(i.capacity === null ? {} : { indexCapacity: indexCapacity(i.capacity) }) }
  })
  for (const i of idx) {
    if (!cols.some((c) => c.name.toLowerCase() === i.name.name.toLowerCase())) throw syntaxError(`INDEX names an unknown column '${i.name.name}'`, i.name.pos)
  }
  return { kind: 'create_table', pos: tok.offset, name: n.name, namePos: n.pos, ifNotExists: ine !== null, columns, options }
}

type Unit = Exclude<PartitionUnit, 'NONE'>
const UNIT_WORDS: Record<string, Unit> = {
  hour: 'HOUR', hours: 'HOUR', h: 'HOUR', day: 'DAY', days: 'DAY', d: 'DAY', week: 'WEEK', weeks: 'WEEK', w: 'WEEK',
  month: 'MONTH', months: 'MONTH', m: 'MONTH', year: 'YEAR', years: 'YEAR', y: 'YEAR',
}

/** `TTL n UNIT` or `TTL 3H`. */
export function ttl(tok: Token, text: string, unit: Name | null): { count: number; unit: Unit; pos: number } {
  const m = unit === null ? /^(\d+)([a-zA-Z]+)$/.exec(text) : [text, text, unit.name]
  const u = m === null ? undefined : UNIT_WORDS[String(m[2]).toLowerCase()]
  if (m === null || u === undefined) throw syntaxError('invalid TTL unit, expected HOUR(S), DAY(S), WEEK(S), MONTH(S) or YEAR(S)', unit?.pos ?? tok.offset)
  return { count: Number(m[1]), unit: u, pos: tok.offset }
}

const PARTITION_UNITS = new Set(['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'])

/** `PARTITION BY unit [TTL ...] [WAL | BYPASS WAL]`. */
export function partitionOpt(tok: Token, unit: Name, ttlValue: TableOptions['ttl'] | null, wal: boolean | null): Pick<TableOptions, 'partitionBy' | 'partitionByPos' | 'ttl' | 'wal'> {
  const u = unit.name.toUpperCase()
  if (!PARTITION_UNITS.has(u)) throw syntaxError(`unexpected '${unit.name}', expected NONE, HOUR, DAY, WEEK, MONTH or YEAR`, unit.pos)
  return {
    partitionBy: u as PartitionUnit, partitionByPos: tok.offset,
    ...(ttlValue === null ? {} : { ttl: ttlValue }), ...(wal === null ? {} : { wal }),
  }
}

/** The table options after the column list or query. */
export function tableOptions(ts: { name: Name; partition: ReturnType<typeof partitionOpt> | null } | null, dedup: Name[] | null, params: { name: string; value: string }[] | null): TableOptions {
  return {
    ...(ts === null ? {} : { timestamp: { name: ts.name.name, pos: ts.name.pos }, ...(ts.partition ?? {}) }),
    ...(dedup === null ? {} : { dedupKeys: dedup }),
    ...(params === null ? {} : { params }),
  }
}

/** The text of a `WITH k = v` / `SET PARAM k = v` value. */
export function paramValue(v: Token | Name): string {
  return 'offset' in v ? valueText(v) : v.name
}

/** A string literal's value with its position. */
export function stringValue(t: Token): { value: string; pos: number } {
  return { value: unquoteString(t.text), pos: t.offset }
}

/**
 * `CREATE [OR REPLACE] VIEW [IF NOT EXISTS] name AS (query)` / `ALTER VIEW name AS (query)`; the
 * query's text (`sql`) is filled in by the parser from the tokens between the parentheses.
 */
export function createView(tok: Token, orReplace: boolean, ifNotExists: boolean, alter: boolean, n: Name, lparen: Token, query: Query, rparen: Token): CreateView {
  return { kind: 'create_view', pos: tok.offset, name: n.name, namePos: n.pos, orReplace, ifNotExists, alter, query, bodyStart: lparen.offset + 1, bodyEnd: rparen.offset, sql: '' }
}

/**
 * `ALTER VIEW v AS query` / `CREATE VIEW v AS query` without parentheses (QuestDB accepts both):
 * the text runs to the end of the statement. Null (the rule rejects) when the query is one in
 * parentheses, which the parenthesised rule reads.
 */
export function bareView(tok: Token, alterOrCreate: boolean, n: Name, as: Token, query: Query, orReplace = false, ifNotExists = false): CreateView | null {
  if (isBare(query)) return null
  const alter = alterOrCreate && tok.type === 'ALTER'
  return { kind: 'create_view', pos: tok.offset, name: n.name, namePos: n.pos, orReplace, ifNotExists, alter, query, bodyStart: as.offset + as.text.length, bodyEnd: Number.MAX_SAFE_INTEGER, sql: '' }
}
