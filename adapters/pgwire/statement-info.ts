/**
 * Facts about a parsed statement that the protocol needs before running it: how many `$n`
 * parameters it has, whether it returns rows, and the CommandComplete tag (reference §4.7).
 */
import type { Database } from '../../lib/index.js'

/** A parsed statement, as `Database.parse` returns it. */
export type Statement = ReturnType<Database['parse']>[number]

/** Parameter counts of parsed statements (the engine caches parsed statements per text). */
const PARAM_COUNTS = new WeakMap<Statement, number>()

/** The highest `$n` in the statement (0 when it has no parameters); worked out once per statement. */
export function paramCount(stmt: Statement): number {
  let n = PARAM_COUNTS.get(stmt)
  if (n === undefined) PARAM_COUNTS.set(stmt, n = highestParam(stmt))
  return n
}

function highestParam(stmt: Statement): number {
  let max = 0
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return
    if (Array.isArray(node)) { for (const x of node) walk(x); return }
    const o = node as Record<string, unknown>
    if (o['kind'] === 'param' && typeof o['index'] === 'number') max = Math.max(max, o['index'])
    for (const k in o) walk(o[k])
  }
  walk(stmt)
  return max
}

/** The lone-IN parameters of parsed statements. */
const IN_LIST_PARAMS = new WeakMap<Statement, ReadonlySet<number>>()

/**
 * The `n` of every `$n` that is the whole list of an IN (`x IN ($n)`): such a parameter may be an
 * array, and a driver that sends arrays untyped (node `pg`: `{a,b}` with OID 0) means one.
 */
export function inListParams(stmt: Statement): ReadonlySet<number> {
  let found = IN_LIST_PARAMS.get(stmt)
  if (found === undefined) {
    const out = new Set<number>()
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return
      if (Array.isArray(node)) { for (const x of node) walk(x); return }
      const o = node as Record<string, unknown>
      const list = o['list']
      if (o['kind'] === 'in' && Array.isArray(list) && list.length === 1) {
        const p = list[0] as Record<string, unknown>
        if (p['kind'] === 'param' && typeof p['index'] === 'number') out.add(p['index'])
      }
      for (const k in o) walk(o[k])
    }
    walk(stmt)
    IN_LIST_PARAMS.set(stmt, found = out)
  }
  return found
}

/** True when the statement answers with a row set (RowDescription + DataRows). */
export function returnsRows(stmt: Statement): boolean {
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': case 'show': case 'explain': return true
    case 'create_table': case 'create_table_as': case 'create_table_like': case 'drop_table': case 'truncate_table':
    case 'rename_table': case 'alter_table': case 'insert': case 'update': case 'transaction': case 'set': case 'unsupported':
      return false
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
  }
}
