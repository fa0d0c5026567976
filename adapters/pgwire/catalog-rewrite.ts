/**
 * Rewrites a catalog query in PostgreSQL syntax into SQL the engine runs over the shadow catalog
 * database (catalog-db.ts). Each rule is named, says which client sends the shape, and keeps
 * the query's meaning: `information_schema.tables` → `information_schema_tables`, E'' strings,
 * casts to PostgreSQL-only types (`::regclass`, `::oid`, `::name`), `= ANY(ARRAY[...])`,
 * `(current_schemas(b))[1]`, Grafana's search-path and `parse_ident` constraints, and scalar
 * subqueries over catalogs that are always empty in EpochDB (column defaults, sequences,
 * comments, constraints), whose value is therefore NULL. The rules run in order.
 */
import { EMPTY_CATALOGS, settingValue } from './catalog-db.js'

/** One rewrite rule. */
interface Rule {
  readonly name: string
  readonly apply: (sql: string, user: string) => string
}

const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`

/** OIDs of catalog tables, for `'pg_class'::regclass` */
const REGCLASS: Readonly<Record<string, number>> = { pg_class: 1259, pg_type: 1247, pg_attribute: 1249, pg_proc: 1255, pg_namespace: 2615, pg_database: 1262 }

/** The schemas of `search_path` in order, `"$user"` resolved. */
function searchPath(user: string): string[] {
  return (settingValue('search_path') ?? 'public').split(',').map((s) => s.trim()).map((s) => (s === '"$user"' ? user : s))
}

/** PostgreSQL's parse_ident of a literal: dot-separated parts, unquoted ones lower-cased. */
function parseIdent(text: string): string[] {
  const parts: string[] = []
  const re = /\s*(?:"((?:[^"]|"")*)"|([^."]+))\s*(?:\.|$)/gy
  let m: RegExpExecArray | null
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) parts.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!.trim().toLowerCase())
  return parts
}

/** A text literal's value, from its SQL form's inside (`''` → `'`). */
const unquote = (inside: string): string => inside.replace(/''/g, "'")

/** Index of the parenthesis closing the one at `open`, skipping string literals; -1 if none. */
export function closingParen(sql: string, open: number): number {
  let depth = 0
  for (let i = open; i < sql.length; i++) {
    const c = sql[i]
    if (c === "'") { i = sql.indexOf("'", i + 1); if (i < 0) return -1; continue }
    if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i
  }
  return -1
}

/** The first table named in the top-level FROM of a SELECT body, lower-cased. */
function firstFromTable(body: string): string | undefined {
  let depth = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === "'") { i = body.indexOf("'", i + 1); if (i < 0) return undefined; continue }
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (depth === 0 && /^from\s/i.test(body.slice(i, i + 5)) && /\W/.test(body[i - 1] ?? ' ')) {
      return /^from\s+(\w+)/i.exec(body.slice(i))?.[1]?.toLowerCase()
    }
  }
  return undefined
}

/**
 * `(SELECT ... FROM <always empty catalog> ...)` in an expression: NULL, or false after EXISTS.
 * Derived tables (after FROM / JOIN) and subqueries with an aggregate (count() of nothing is 0)
 * are kept.
 */
function emptySubqueries(sql: string): string {
  const re = /\(\s*select\b/gi
  let out = sql
  for (let m = re.exec(out); m !== null; m = re.exec(out)) {
    const open = m.index
    const close = closingParen(out, open)
    if (close < 0) break
    const body = out.slice(open + 1, close)
    const before = out.slice(0, open)
    const table = firstFromTable(body.replace(/^\s*select\b/i, ' '))
    if (table === undefined || !EMPTY_CATALOGS.has(table) || /\b(from|join|in)\s*$/i.test(before) || /\b(count|sum|max|min|exists)\s*\(/i.test(body)) continue
    const exists = /\bexists\s*$/i.exec(before)
    out = exists !== null ? `${before.slice(0, exists.index)}false${out.slice(close + 1)}` : `${before}(NULL)${out.slice(close + 1)}`
    re.lastIndex = exists !== null ? exists.index : open
  }
  return out
}

/** The rules, in the order they run. */
const RULES: readonly Rule[] = [
  {
    // Grafana's PostgreSQL data source: the schemas of search_path, from string_to_array /
    // generate_series / array subscripts; becomes the list itself
    name: 'grafana-search-path',
    apply: (sql, user) => sql.replace(
      /\(\s*SELECT\s+CASE\s+WHEN\s+trim\(s\[i\]\)\s*=\s*'"\$user"'\s+THEN\s+user\s+ELSE\s+trim\(s\[i\]\)\s+END\s+FROM\s+generate_series\([\s\S]*?\)\s*as\s+i\s*,\s*string_to_array\(\s*current_setting\('search_path'\)\s*,\s*','\s*\)\s+s\s*\)/gi,
      () => `(${searchPath(user).map(lit).join(', ')})`),
  },
  {
    // Grafana's column picker: array_length(parse_ident('s.t'),1) and (parse_ident('s.t'))[n]
    name: 'grafana-parse-ident',
    apply: (sql) => sql
      .replace(/\barray_length\(\s*parse_ident\('((?:[^']|'')*)'\)\s*,\s*1\s*\)/gi, (_, t: string) => String(parseIdent(unquote(t)).length))
      .replace(/\(\s*parse_ident\('((?:[^']|'')*)'\)\s*\)\s*\[(\d+)\]/gi, (_, t: string, n: string) => {
        const v = parseIdent(unquote(t))[Number(n) - 1]
        return v === undefined ? 'NULL' : lit(v)
      }),
  },
  {
    // schema-qualified catalog names
    name: 'qualified-names',
    apply: (sql) => sql
      .replace(/\binformation_schema\s*\.\s*(\w+)/gi, (_, t: string) => `information_schema_${t.toLowerCase()}`)
      .replace(/\bpg_catalog\s*\.\s*/gi, ''),
  },
  {
    // pgJDBC: E'public' (escape string syntax)
    name: 'escape-strings',
    apply: (sql) => sql.replace(/(^|[^\w'])E'((?:[^'\\]|\\.|'')*)'/g, (_, pre: string, body: string) =>
      `${pre}'${body.replace(/\\(.)/g, (__, c: string) => (c === "'" ? "''" : c))}'`),
  },
  {
    // pgJDBC getTables: 'pg_class'::regclass
    name: 'regclass-literals',
    apply: (sql) => sql.replace(/'(pg_\w+)'::regclass/gi, (_, t: string) => String(REGCLASS[t.toLowerCase()] ?? 0)),
  },
  {
    // casts to PostgreSQL's object-identifier and name types: OIDs are INTs here, names text
    name: 'pg-only-casts',
    apply: (sql) => sql
      .replace(/::\s*(?:regclass|regproc|regprocedure|regtype|regnamespace|oid)\b/gi, '::int')
      .replace(/::\s*(?:name|"char"|information_schema_sql_identifier|information_schema_character_data)(?!\w)/gi, '::string')
      .replace(/::\s*(varchar|character varying|bpchar)\s*\(\s*\d+\s*\)/gi, '::varchar'),
  },
  {
    // pgJDBC getSchemas: (current_schemas(true))[1] is the first schema searched
    name: 'current-schemas',
    apply: (sql, user) => sql.replace(/\(\s*current_schemas\s*\(\s*(true|false)\s*\)\s*\)\s*\[\s*(\d+)\s*\]/gi, (_, implicit: string, n: string) => {
      const schemas = [...(implicit.toLowerCase() === 'true' ? ['pg_catalog'] : []), ...searchPath(user).filter((s) => s !== user)]
      const v = schemas[Number(n) - 1]
      return v === undefined ? 'NULL' : lit(v)
    }),
  },
  {
    // x = ANY(ARRAY[a, b]) / x = ANY('{a,b}') as IN lists, x <> ALL(...) as NOT IN
    name: 'any-array',
    apply: (sql) => sql
      .replace(/(?:=\s*(ANY)|(?:<>|!=)\s*ALL)\s*\(\s*ARRAY\s*\[([^\]]*)\]\s*(?:::\s*\w+(?:\[\])?\s*)?\)/gi, (_, any: string | undefined, items: string) =>
        `${any === undefined ? 'NOT ' : ''}IN (${items})`)
      .replace(/(?:=\s*(ANY)|(?:<>|!=)\s*ALL)\s*\(\s*'\{([^'}]*)\}'\s*(?:::\s*\w+(?:\[\])?\s*)?\)/gi, (_, any: string | undefined, items: string) =>
        `${any === undefined ? 'NOT ' : ''}IN (${items.split(',').map((x) => lit(x.trim().replace(/^"|"$/g, ''))).join(', ')})`),
  },
  {
    // settings and session facts the shadow database cannot know
    name: 'session-values',
    apply: (sql, user) => sql
      .replace(/\bcurrent_setting\s*\(\s*'([^']*)'\s*(?:,\s*\w+\s*)?\)/gi, (_, k: string) => lit(settingValue(k) ?? ''))
      .replace(/\bcurrent_schema\s*\(\s*\)/gi, "'public'")
      .replace(/\b(current_user|session_user)\b(?!\s*\()/gi, lit(user)),
  },
  {
    // SQLAlchemy get_columns: defaults and identity options come from scalar subqueries over
    // pg_attrdef / pg_sequence, which are empty here
    name: 'empty-subqueries',
    apply: (sql) => emptySubqueries(sql),
  },
]

/** `sql` rewritten for the shadow catalog database (see the module comment). */
export function rewriteCatalogSql(sql: string, user: string): string {
  return RULES.reduce((s, r) => r.apply(s, user), sql)
}
