/**
 * Facts about a parsed statement that the protocol needs before running it: how many `$n`
 * parameters it has, whether it returns rows, and the CommandComplete tag (reference §4.7).
 */
import type { Database } from '../../lib/index.js'
import { aclReturnsRows } from '../../lib/index.js'

/** A parsed statement, as `Database.parse` returns it. */
export type Statement = ReturnType<Database['parse']>[number]

/** What one walk over a statement's AST finds about its parameters. */
interface ParamFacts {
  /** the highest `$n` (0 when there is none) */
  readonly count: number
  /** the `n` of every `$n` that is the whole list of an IN */
  readonly inList: ReadonlySet<number>
}

/** Parameter facts of parsed statements (the engine caches parsed statements per text). */
const PARAM_FACTS = new WeakMap<Statement, ParamFacts>()

function paramFacts(stmt: Statement): ParamFacts {
  let facts = PARAM_FACTS.get(stmt)
  if (facts === undefined) {
    let count = 0
    const inList = new Set<number>()
    // an explicit stack, not recursion: a tree as deep as the parse limits allow cannot overflow it
    const stack: unknown[] = [stmt]
    while (stack.length > 0) {
      const node = stack.pop()
      if (node === null || typeof node !== 'object') continue
      if (Array.isArray(node)) { for (const x of node) stack.push(x); continue }
      const o = node as Record<string, unknown>
      if (o['kind'] === 'param' && typeof o['index'] === 'number') count = Math.max(count, o['index'])
      const list = o['list']
      if (o['kind'] === 'in' && Array.isArray(list) && list.length === 1) {
        const p = list[0] as Record<string, unknown>
        if (p['kind'] === 'param' && typeof p['index'] === 'number') inList.add(p['index'])
      }
      for (const k in o) stack.push(o[k])
    }
    PARAM_FACTS.set(stmt, facts = { count, inList })
  }
  return facts
}

/** The highest `$n` in the statement (0 when it has no parameters); worked out once per statement. */
export function paramCount(stmt: Statement): number {
  return paramFacts(stmt).count
}

/**
 * The `n` of every `$n` that is the whole list of an IN (`x IN ($n)`): such a parameter may be an
 * array, and a driver that sends arrays untyped (node `pg`: `{a,b}` with OID 0) means one.
 */
export function inListParams(stmt: Statement): ReadonlySet<number> {
  return paramFacts(stmt).inList
}

/** True when the statement answers with a row set (RowDescription + DataRows). */
export function returnsRows(stmt: Statement): boolean {
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': case 'show': case 'explain': return true
    case 'create_table': case 'create_table_as': case 'create_table_like': case 'drop_table': case 'truncate_table':
    case 'rename_table': case 'alter_table': case 'insert': case 'update': case 'transaction': case 'set': case 'unsupported':
      return false
    case 'acl': return aclReturnsRows(stmt)
  }
}

/** The CommandComplete tag of a finished statement; `rows` is rows sent or affected. */
export function commandTag(stmt: Statement, rows: number): string {
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': case 'show': return `SELECT ${rows}`
    case 'explain': return 'EXPLAIN'
    case 'insert': return `INSERT 0 ${rows}`
    case 'update': return `UPDATE ${rows}`
    case 'create_table': case 'create_table_like': return 'CREATE TABLE'
    case 'create_table_as': return `SELECT ${rows}`
    case 'drop_table': return 'DROP TABLE'
    case 'truncate_table': return 'TRUNCATE TABLE'
    case 'rename_table': case 'alter_table': return 'ALTER TABLE'
    case 'transaction': return stmt.action.toUpperCase()
    case 'set': return 'SET'
    case 'unsupported': return stmt.feature.toUpperCase()
    case 'acl': return aclReturnsRows(stmt) ? `SELECT ${rows}` : stmt.action.replace(/_/g, ' ').toUpperCase()
  }
}
