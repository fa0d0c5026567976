/**
 * Row-less answers for catalog queries over catalogs that are always empty in EpochDB (indexes,
 * constraints, column defaults, sequences, ...; see `EMPTY_CATALOGS`) when their PostgreSQL
 * syntax is beyond the engine: pgJDBC's getPrimaryKeys / getIndexInfo
 * (`(information_schema._pg_expandarray(i.indkey)).n`, `indoption[...]`), SQLAlchemy's
 * get_pk_constraint (`unnest(ix.indkey)`), psql's `\d table` footers. A query that inner-joins
 * such a catalog has no rows, so the answer is the query's own column names (read from its
 * outermost select list, folded to lower case as PostgreSQL folds unquoted names) and no row.
 */
import { EMPTY_CATALOGS } from './catalog-db.js'
import { closingParen } from './catalog-rewrite.js'
import type { Prepared } from './prepared.js'
import { resultExecution } from './synthetic.js'

/** Splits `text` at top-level occurrences of `sep` (outside parentheses and quotes). */
function splitTopLevel(text: string, sep: RegExp): string[] {
  const parts: string[] = []
  let depth = 0
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "'" || c === '"') { const end = text.indexOf(c, i + 1); i = end < 0 ? text.length : end; continue }
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (depth === 0) {
      const m = sep.exec(text.slice(i))
      if (m !== null && m.index === 0 && (/\W/.test(m[0][0]!) || /\W/.test(text[i - 1] ?? ' '))) {
        parts.push(text.slice(from, i))
        from = i + m[0].length
        i = from - 1
      }
    }
  }
  parts.push(text.slice(from))
  return parts
}

/** The output name PostgreSQL gives a select-list item. */
function itemName(item: string): string {
  const t = item.trim()
  const alias = /(?:\bAS\s+|[\w)"']\s+)("(?:[^"]|"")+"|[A-Za-z_]\w*)$/i.exec(t)
  const named = alias !== null && !/^(?:AND|OR|NOT|IS|NULL|TRUE|FALSE|END)$/i.test(alias[1]!) ? alias[1]! : undefined
  const last = named ?? /("(?:[^"]|"")+"|[A-Za-z_]\w*)\s*$/.exec(t)?.[1] ?? /^([A-Za-z_]\w*)\s*\(/.exec(t)?.[1] ?? '?column?'
  return last.startsWith('"') ? last.slice(1, -1).replace(/""/g, '"') : last.toLowerCase()
}

/** Column names of the outermost SELECT of `sql` (through `SELECT *` of a derived table), or undefined. */
export function selectListNames(sql: string): string[] | undefined {
  const body = /^\s*\(?\s*select\s+(?:distinct\s+)?/i.exec(sql)
  if (body === null) return undefined
  const rest = sql.slice(body[0].length)
  const [list, from] = splitTopLevel(rest, /^from\s/i)
  if (list === undefined || from === undefined) return undefined
  const items = splitTopLevel(list, /^,/).map((x) => x.trim())
  if (items.length === 1 && items[0] === '*') {
    const derived = /^\s*\(/.exec(from)
    return derived === null ? undefined : selectListNames(from.slice(derived[0].length))
  }
  return items.map(itemName)
}

/** `sql` without its subqueries in expressions (scalar, EXISTS, IN): only FROM-clause ones stay. */
function withoutExpressionSubqueries(sql: string): string {
  let out = sql
  const re = /\(\s*select\b/gi
  for (let m = re.exec(out); m !== null; m = re.exec(out)) {
    const close = closingParen(out, m.index)
    if (close < 0) break
    if (/\b(from|join)\s*$/i.test(out.slice(0, m.index))) continue
    out = `${out.slice(0, m.index)}(NULL)${out.slice(close + 1)}`
  }
  return out
}

/**
 * True when `sql` inner-joins (FROM, JOIN or a comma join) a catalog that is always empty, in
 * its own FROM clause or a derived table's (subqueries in expressions don't count); for a set
 * operation (psql's UNION of publications), every branch must.
 */
export function innerJoinsEmptyCatalog(sql: string): boolean {
  return splitTopLevel(withoutExpressionSubqueries(sql), /^(?:union(?:\s+all)?|intersect|except)\s/i).every((branch) => {
    for (const m of branch.matchAll(/(\bleft\s+(?:outer\s+)?join|\bfrom|\bjoin|,)\s+(?:pg_catalog\s*\.\s*)?(pg_\w+)\b(?!\s*\()/gi)) {
      if (!/^left/i.test(m[1]!) && EMPTY_CATALOGS.has(m[2]!.toLowerCase())) return true
    }
    return false
  })
}

/** A row-less answer for `sql` when it inner-joins an always-empty catalog, else undefined. */
export function emptyCatalogAnswer(sql: string): Prepared | undefined {
  if (!innerJoinsEmptyCatalog(sql)) return undefined
  const names = selectListNames(sql)
  if (names === undefined) return undefined
  const columns = names.map((name) => ({ name, type: 'STRING' as const }))
  return {
    paramCount: Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]))), returnsRows: true, empty: false, statement: undefined,
    start: () => Promise.resolve(resultExecution(columns, [])),
    tag: (n) => `SELECT ${n}`,
  }
}
