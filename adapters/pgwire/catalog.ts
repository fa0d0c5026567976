/**
 * Statements the adapter answers itself, before the engine sees them: session no-ops that
 * drivers send on reset (asyncpg's `SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *;
 * RESET ALL`, `DISCARD ALL`), the catalog queries of psql's `\dt` / `\d table`
 * (see `psql-catalog.ts`), which use PostgreSQL syntax the engine does not parse, and every
 * other query that reads pg_catalog / information_schema (run over a shadow catalog database:
 * catalog-db.ts, catalog-rewrite.ts, catalog-empty.ts).
 */
import type { Execution } from '../../lib/index.js'
import { buildCatalogDb, readsCatalog } from './catalog-db.js'
import { emptyCatalogAnswer } from './catalog-empty.js'
import { rewriteCatalogSql } from './catalog-rewrite.js'
import { type Prepared, type RunContext, enginePrepared } from './prepared.js'
import { psqlCatalog } from './psql-catalog.js'
import { asyncpgTypeInfo } from './asyncpg-typeinfo.js'
import { resultExecution } from './synthetic.js'

const NO_OPS: readonly [RegExp, string][] = [
  [/^close\s+all$/i, 'CLOSE CURSOR ALL'],
  [/^unlisten\s+\*$/i, 'UNLISTEN'],
  [/^reset\s+all$/i, 'RESET'],
  [/^discard\s+all$/i, 'DISCARD ALL'],
  [/^deallocate\s+all$/i, 'DEALLOCATE ALL'],
]

/** A statement with a fixed tag and no rows. */
function noOp(tag: string): Prepared {
  return {
    paramCount: 0, returnsRows: false, empty: false, statement: undefined,
    start: () => Promise.resolve(resultExecution([], [], tag)),
    tag: () => tag,
  }
}

function advisoryUnlockAll(): Prepared {
  return {
    paramCount: 0, returnsRows: true, empty: false, statement: undefined,
    start: () => Promise.resolve(resultExecution([{ name: 'pg_advisory_unlock_all', type: 'STRING' }], [[null]])),
    tag: (n) => `SELECT ${n}`,
  }
}

function one(ctx: RunContext, text: string): Prepared | undefined {
  const t = text.trim().replace(/\s+/g, ' ')
  for (const [re, tag] of NO_OPS) if (re.test(t)) return noOp(tag)
  if (/^select pg_advisory_unlock_all\(\)$/i.test(t)) return advisoryUnlockAll()
  return psqlCatalog(ctx, text) ?? asyncpgTypeInfo(text)
}

/** An execution whose end (or early stop) also runs `after`. */
function finallyClose(ex: Execution, after: () => Promise<void>): Execution {
  const inner = ex.batches
  return {
    ...ex,
    batches: { [Symbol.asyncIterator]: async function* () { try { yield* inner } finally { await after() } } },
  }
}

/**
 * A query over the emulated catalogs, run by the engine in a shadow database (catalog-db.ts)
 * after the rewrites of catalog-rewrite.ts. When the engine cannot parse or bind it and the
 * query inner-joins a catalog that is always empty, the answer is its columns and no row
 * (catalog-empty.ts).
 */
function catalogQuery(ctx: RunContext, sql: string): Prepared[] {
  const text = rewriteCatalogSql(sql, ctx.session.principal.name)
  let stmts: ReturnType<RunContext['db']['parse']>
  try {
    stmts = ctx.db.parse(text)
  } catch (e) {
    const empty = emptyCatalogAnswer(sql)
    if (empty === undefined) throw e
    return [empty]
  }
  return stmts.map((stmt) => ({
    paramCount: ctx.db.statementInfo(stmt).params.length, returnsRows: ctx.db.statementInfo(stmt).returnsRows, empty: false, statement: undefined,
    start: async (params, signal) => {
      const shadow = await buildCatalogDb(ctx)
      try {
        return finallyClose(await shadow.execute(stmt, params, { signal }), () => shadow.close())
      } catch (e) {
        await shadow.close()
        const empty = stmts.length === 1 ? emptyCatalogAnswer(sql) : undefined
        if (empty === undefined) throw e
        return empty.start(params, signal)
      }
    },
    tag: (n: number) => `SELECT ${n}`,
  }))
}

/** The longest text looked at as a possible catalog query (the longest drivers send are a few KiB). */
const MAX_CATALOG_SQL = 64 * 1024

/** The adapter's own statements for `sql`, or undefined to let the engine parse it. */
export function interceptQuery(ctx: RunContext, sql: string): Prepared[] | undefined {
  // catalog queries are short; a text of megabytes goes straight to the engine, which refuses
  // it by its length before scanning it (a regex pass over 5 MB is milliseconds nobody needs)
  if (sql.length > MAX_CATALOG_SQL) return undefined
  if (!/pg_|close|unlisten|reset|discard|deallocate|information_schema|current_setting|current_schema|current_user/i.test(sql)) return undefined
  const whole = one(ctx, sql.replace(/;\s*$/, ''))
  if (whole !== undefined) return [whole]
  if (readsCatalog(sql)) return catalogQuery(ctx, sql)
  if (/\bcurrent_setting\s*\(|\bcurrent_schema\s*\(|\bcurrent_user\b|\bpg_catalog\s*\./i.test(sql)) {
    return ctx.db.parse(rewriteCatalogSql(sql, ctx.session.principal.name)).map((stmt) => enginePrepared(ctx, stmt))
  }
  if (sql.includes("'")) return undefined
  const parts = sql.split(';').map((p) => p.trim()).filter((p) => p !== '')
  if (parts.length < 2) return undefined
  const out: Prepared[] = []
  for (const p of parts) {
    const x = one(ctx, p)
    if (x === undefined) return undefined
    out.push(x)
  }
  return out
}
