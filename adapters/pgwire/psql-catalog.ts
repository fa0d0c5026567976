/**
 * Answers the catalog queries that psql (`\dt`, `\d table`, `\l`, `\du`, `\dp`, `\df`,
 * `\dT`) and the `postgres` client (its array-type lookup at connect) send in PostgreSQL syntax
 * the engine does not parse (`OPERATOR(pg_catalog.~)`, `::regtype`, correlated catalog
 * subqueries). Each handler recognises one query shape and computes the rows from the engine's
 * `tables()` and `table_columns()`. Catalogs of things EpochDB does not have (indexes, constraints,
 * policies, publications, inheritance, triggers) are answered as empty, which is the truth.
 */
import type { Execution, JsValue } from '../../lib/index.js'
import { PG_ARRAY_TYPES } from '../../lib/internal.js'
import { emptyCatalogAnswer, selectListNames } from './catalog-empty.js'
import type { Prepared, RunContext } from './prepared.js'
import { type SyntheticColumn, type SyntheticValue, resultExecution } from './synthetic.js'

/** OID of the first table: table `id` from `tables()` is added to it. */
const TABLE_OID_BASE = 16384

const s = (name: string): SyntheticColumn => ({ name, type: 'STRING' })
const i = (name: string): SyntheticColumn => ({ name, type: 'INT' })
const b = (name: string): SyntheticColumn => ({ name, type: 'BOOLEAN' })

interface TableRow { readonly oid: number; readonly name: string }

async function tables(ctx: RunContext): Promise<TableRow[]> {
  const r = await ctx.db.query("select id, table_name from tables() where table_type = 'T' order by table_name", [], { session: ctx.session })
  return r.rows.map((row: JsValue[]) => ({ oid: TABLE_OID_BASE + Number(row[0]), name: String(row[1]) }))
}

/** psql's `^(name)$` pattern on the relation name as a RegExp, or undefined when the query has none. */
function namePattern(sql: string): RegExp | undefined {
  return patternOf(sql, 'c.relname')
}

/** A parameterless query the adapter answers with the execution `run` makes. */
function answered(run: () => Promise<Execution>): Prepared {
  return { paramCount: 0, returnsRows: true, empty: false, statement: undefined, start: run, tag: (n) => `SELECT ${n}` }
}

function rowsPrepared(columns: readonly SyntheticColumn[], compute: () => Promise<SyntheticValue[][]>): Prepared {
  return answered(async () => resultExecution(columns, await compute()))
}

/** The adapter's answer to a recognised catalog query, or undefined. */
export function psqlCatalog(ctx: RunContext, sql: string): Prepared | undefined {
  if (!sql.includes('pg_catalog.') && !sql.includes('pg_type')) return undefined
  const user = ctx.session.principal.name
  // postgres (porsager): array types
  if (/from pg_catalog\.pg_type a\s+left join pg_catalog\.pg_type b on b\.oid = a\.typelem/i.test(sql)) {
    return rowsPrepared([i('oid'), i('typarray')], async () => PG_ARRAY_TYPES.map((t) => [t.elementOid, t.oid]))
  }
  // \dt [pattern]
  if (/c\.relname as "Name"/.test(sql) && /c\.relkind IN \('r','p'/.test(sql)) {
    const re = namePattern(sql)
    return rowsPrepared([s('Schema'), s('Name'), s('Type'), s('Owner')], async () =>
      (await tables(ctx)).filter((t) => re === undefined || re.test(t.name)).map((t) => ['public', t.name, 'table', user]))
  }
  // \d name: find the relation
  if (/^SELECT c\.oid,\s+n\.nspname,\s+c\.relname\s+FROM pg_catalog\.pg_class c/.test(sql)) {
    const re = namePattern(sql)
    return rowsPrepared([i('oid'), s('nspname'), s('relname')], async () =>
      (await tables(ctx)).filter((t) => re === undefined || re.test(t.name)).map((t) => [t.oid, 'public', t.name]))
  }
  const oidMatch = /c\.oid = '(\d+)'|attrelid = '(\d+)'/.exec(sql)
  const oid = oidMatch === null ? undefined : Number(oidMatch[1] ?? oidMatch[2])
  // \d name: relation flags
  if (oid !== undefined && /SELECT c\.relchecks, c\.relkind/.test(sql)) {
    return rowsPrepared(
      [i('relchecks'), s('relkind'), b('relhasindex'), b('relhasrules'), b('relhastriggers'), b('relrowsecurity'), b('relforcerowsecurity'),
        b('relhasoids'), b('relispartition'), s('reloptions'), i('reltablespace'), s('reloftype'), s('relpersistence'), s('relreplident'), s('amname')],
      async () => [[0, 'r', false, false, false, false, false, false, false, '', 0, '', 'p', 'd', null]])
  }
  // \d name: columns
  if (oid !== undefined && /FROM pg_catalog\.pg_attribute a\s+WHERE a\.attrelid = '\d+' AND a\.attnum > 0/.test(sql)) {
    return rowsPrepared([s('attname'), s('format_type'), s('default'), b('attnotnull'), s('attcollation'), s('attidentity'), s('attgenerated')], async () => {
      const t = (await tables(ctx)).find((x) => x.oid === oid)
      if (t === undefined) return []
      const cols = await ctx.db.query(`select "column", type from table_columns('${t.name.replace(/'/g, "''")}')`, [], { session: ctx.session })
      return cols.rows.map((r: JsValue[]) => [String(r[0]), String(r[1]).toLowerCase(), null, false, null, '', ''])
    })
  }
  // \dp [pattern]: tables, none with privileges granted through the catalog
  if (/AS "Access privileges"/.test(sql) && /FROM pg_catalog\.pg_class c/.test(sql)) {
    const re = namePattern(sql)
    return namedRows(sql, async () => (await tables(ctx)).filter((t) => re === undefined || re.test(t.name)).map((t) => ({ Schema: 'public', Name: t.name, Type: 'table' })))
  }
  // \l [pattern]: the one database
  if (/FROM pg_catalog\.pg_database d/.test(sql) && /d\.datname as "Name"/.test(sql)) {
    const re = patternOf(sql, 'd.datname')
    return namedRow(sql, re === undefined || re.test('qdb')
      ? { Name: 'qdb', Owner: user, Encoding: 'UTF8', Collate: 'C', Ctype: 'C', 'Locale Provider': 'libc' }
      : undefined)
  }
  // \du [pattern]: the connected role
  if (/FROM pg_catalog\.pg_roles r/.test(sql) && /r\.rolsuper/.test(sql)) {
    const re = patternOf(sql, 'r.rolname')
    const admin = ctx.session.principal.admin === true
    return namedRow(sql, re === undefined || re.test(user)
      ? {
        rolname: user, rolsuper: admin, rolinherit: true, rolcreaterole: admin, rolcreatedb: admin, rolcanlogin: true,
        rolconnlimit: -1, memberof: '{}', rolreplication: false, rolbypassrls: false,
      }
      : undefined)
  }
  // \df and \dT: user-defined functions and types (every function and type is built in)
  if ((/FROM pg_catalog\.pg_proc p/.test(sql) && /pg_function_is_visible/.test(sql)) ||
    (/FROM pg_catalog\.pg_type t/.test(sql) && /pg_type_is_visible/.test(sql) && /n\.nspname <> 'pg_catalog'/.test(sql))) {
    return namedRow(sql, undefined)
  }
  // catalogs of objects EpochDB does not have
  return emptyCatalogAnswer(sql)
}

/** psql's `^(name)$` pattern on `column` as a RegExp, or undefined when the query has none. */
function patternOf(sql: string, column: string): RegExp | undefined {
  const at = sql.indexOf(`${column} OPERATOR(pg_catalog.~) '`)
  if (at < 0) return undefined
  const m = /^'((?:[^']|'')*)'/.exec(sql.slice(sql.indexOf("'", at)))
  if (m === null) return undefined
  try { return new RegExp(m[1]!.replace(/''/g, "'"), 'i') } catch { return /$^/ }
}

/**
 * The query's own select list (psql's column set differs between versions) with one row whose
 * cells are looked up by column name (null for the rest), or no row when `values` is undefined.
 */
function namedRow(sql: string, values: Readonly<Record<string, SyntheticValue>> | undefined): Prepared | undefined {
  return namedRows(sql, async () => (values === undefined ? [] : [values]))
}

/** {@link namedRow} for rows computed when the statement runs (every row has the same keys). */
function namedRows(sql: string, compute: () => Promise<readonly Readonly<Record<string, SyntheticValue>>[]>): Prepared | undefined {
  const names = selectListNames(sql)
  if (names === undefined) return undefined
  return answered(async () => {
    const rows = await compute()
    const columns = names.map((name): SyntheticColumn => {
      const v = rows[0]?.[name] ?? null
      return { name, type: typeof v === 'boolean' ? 'BOOLEAN' : typeof v === 'number' ? 'INT' : 'STRING' }
    })
    return resultExecution(columns, rows.map((r) => names.map((n) => r[n] ?? null)))
  })
}
