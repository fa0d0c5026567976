/**
 * Parameter type inference for a Parse that leaves `$n` types unspecified (OID 0). The engine
 * types a parameter from the JS value bound at execution and exposes no inference of its own,
 * so the adapter reads the parsed statement: a parameter compared with (or assigned to, or
 * inserted into) a column takes the column's type; compared with a literal, the literal's type;
 * `CAST($n AS t)` / `$n::t` takes `t`; LIMIT bounds are int8; LIKE patterns are varchar.
 * Anything else stays unknown, which Describe reports as varchar (QuestDB's answer).
 */
import type { RunContext } from './prepared.js'
import { Oid } from './pg-types.js'
import type { Statement } from './statement-info.js'

type Node = Record<string, unknown>

/** The parameter OID a column of engine type `type` accepts. */
export function oidOfEngineType(type: string): number {
  switch (type.toUpperCase()) {
    case 'BOOLEAN': return Oid.BOOL
    case 'BYTE': case 'SHORT': return Oid.INT2
    case 'INT': return Oid.INT4
    case 'LONG': return Oid.INT8
    case 'FLOAT': return Oid.FLOAT4
    case 'DOUBLE': return Oid.FLOAT8
    case 'TIMESTAMP': return Oid.TIMESTAMP
    case 'DATE': return Oid.DATE
    case 'CHAR': return Oid.BPCHAR
    case 'UUID': return Oid.UUID
    case 'BINARY': return Oid.BYTEA
    default: return Oid.VARCHAR
  }
}

const CAST_TYPES: Readonly<Record<string, string>> = {
  int: 'INT', integer: 'INT', int4: 'INT', long: 'LONG', bigint: 'LONG', int8: 'LONG', short: 'SHORT', smallint: 'SHORT', int2: 'SHORT',
  byte: 'BYTE', double: 'DOUBLE', float8: 'DOUBLE', 'double precision': 'DOUBLE', float: 'FLOAT', real: 'FLOAT', float4: 'FLOAT',
  boolean: 'BOOLEAN', bool: 'BOOLEAN', timestamp: 'TIMESTAMP', date: 'DATE', varchar: 'VARCHAR', string: 'STRING', text: 'STRING',
  symbol: 'SYMBOL', char: 'CHAR', uuid: 'UUID',
}

const LITERAL_TYPES: Readonly<Record<string, string>> = { int: 'INT', long: 'LONG', double: 'DOUBLE', string: 'VARCHAR', boolean: 'BOOLEAN' }

const TYPED_OPS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '%'])

const isParam = (n: unknown): n is Node => typeof n === 'object' && n !== null && (n as Node)['kind'] === 'param'

function tableNames(stmt: Statement): string[] {
  const out = new Set<string>()
  const walk = (n: unknown): void => {
    if (n === null || typeof n !== 'object') return
    if (Array.isArray(n)) { for (const x of n) walk(x); return }
    const o = n as Node
    if (o['kind'] === 'table' && typeof o['name'] === 'string') out.add(o['name'])
    if ((o['kind'] === 'insert' || o['kind'] === 'update') && typeof o['table'] === 'string') out.add(o['table'])
    for (const k in o) walk(o[k])
  }
  walk(stmt)
  return [...out]
}

async function columnsOf(ctx: RunContext, table: string): Promise<[string, string][]> {
  try {
    const r = await ctx.db.query(`select "column", type from table_columns('${table.replace(/'/g, "''")}')`, [], { session: ctx.session })
    return r.rows.map((row) => [String(row[0]), String(row[1])])
  } catch {
    return []
  }
}

/**
 * Inferred parameter OIDs of `stmt` (index 0 for `$1`); 0 where nothing tells the type.
 * `count` is the statement's parameter count.
 */
export async function inferParamOids(ctx: RunContext, stmt: Statement, count: number): Promise<number[]> {
  const out = new Array<number>(count).fill(0)
  if (count === 0) return out
  const tables = new Map<string, [string, string][]>()
  for (const name of tableNames(stmt)) tables.set(name.toLowerCase(), await columnsOf(ctx, name))
  const columnType = (name: string): string | undefined => {
    for (const cols of tables.values()) for (const [c, t] of cols) if (c.toLowerCase() === name.toLowerCase()) return t
    return undefined
  }
  const typeOf = (e: unknown): string | undefined => {
    if (e === null || typeof e !== 'object') return undefined
    const o = e as Node
    if (o['kind'] === 'column') return columnType(String(o['name']))
    if (o['kind'] === 'literal') return LITERAL_TYPES[String(o['type'])]
    if (o['kind'] === 'cast') return CAST_TYPES[String(o['type']).toLowerCase()]
    return undefined
  }
  const set = (p: unknown, type: string | undefined): void => {
    if (!isParam(p) || type === undefined) return
    const i = Number(p['index']) - 1
    if (i >= 0 && i < count && out[i] === 0) out[i] = oidOfEngineType(type)
  }
  const walk = (n: unknown): void => {
    if (n === null || typeof n !== 'object') return
    if (Array.isArray(n)) { for (const x of n) walk(x); return }
    const o = n as Node
    switch (o['kind']) {
      case 'binary':
        if (TYPED_OPS.has(String(o['op']))) { set(o['left'], typeOf(o['right'])); set(o['right'], typeOf(o['left'])) }
        break
      case 'in':
        if (Array.isArray(o['list'])) for (const x of o['list']) set(x, typeOf(o['expr']))
        break
      case 'between': set(o['low'], typeOf(o['expr'])); set(o['high'], typeOf(o['expr'])); break
      case 'like': set(o['pattern'], 'VARCHAR'); break
      case 'cast': set(o['expr'], CAST_TYPES[String(o['type']).toLowerCase()]); break
      case 'insert': inferInsert(o, tables, set); break
      case 'update':
        for (const s of o['set'] as Node[]) set(s['value'], columnType(String(s['column'])))
        break
    }
    const limit = o['limit'] as Node | undefined
    if (limit !== undefined && typeof limit === 'object' && limit !== null) { set(limit['lo'], 'LONG'); set(limit['hi'], 'LONG') }
    for (const k in o) walk(o[k])
  }
  walk(stmt)
  return out
}

function inferInsert(o: Node, tables: Map<string, [string, string][]>, set: (p: unknown, type: string | undefined) => void): void {
  const source = o['source'] as Node
  if (source['kind'] !== 'values') return
  const cols = tables.get(String(o['table']).toLowerCase()) ?? []
  const named = o['columns'] as { name: string }[] | undefined
  const types = named === undefined
    ? cols.map(([, t]) => t)
    : named.map((c) => cols.find(([n]) => n.toLowerCase() === c.name.toLowerCase())?.[1])
  for (const row of source['rows'] as unknown[][]) row.forEach((e, k) => set(e, types[k]))
}
