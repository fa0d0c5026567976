/**
 * The small endpoints: GET /ping, /chk, /settings and /api/v1/sql/validate.
 */
import type { ServerResponse } from 'node:http'
import type { Database } from '../../lib/index.js'
import { type RequestContext, KNOWN_PARAMS, checkParams } from './context.js'
import { HttpError, describe, statusOf } from './http-error.js'
import { JSON_TYPE, TEXT_TYPE, errorBody, sendBody, sendJson } from './response.js'
import { jsonString } from './json/json-string.js'
import type { ResolvedOptions } from './options.js'
import { parseOne, queryType, returnsRows } from './statement.js'

/** GET /ping: 204 with the InfluxDB version header line-protocol clients look for. */
export function handlePing(res: ServerResponse, version = 'v2.7.4'): void {
  res.writeHead(204, { 'X-Influxdb-Version': version })
  res.end()
}

/**
 * GET /settings: what the Web Console reads at start-up (unauthenticated, as QuestDB): the
 * protocols that accept writes and the longest table name, as configured. `acl.enabled` is true
 * when requests need credentials: access control on in the engine, `http.user` Basic auth, or an
 * `authenticate` hook; the console then signs in. `options.settings` adds keys (an OIDC guard's
 * `acl.oidc.*`).
 */
export function handleSettings(res: ServerResponse, options: ResolvedOptions, db: Database): void {
  const acl = (db.aclEnabled || options.basicAuth !== undefined || options.authenticate !== undefined) && options.settings['acl.enabled'] === undefined ? ',"acl.enabled":true' : ''
  const extra = Object.entries(options.settings).map(([k, v]) => `,${jsonString(k)}:${typeof v === 'string' ? jsonString(v) : String(v)}`).join('')
  const writes = options.acceptingWrites.map(jsonString).join(', ')
  // ILP: protocol versions 1 (text), 2 (binary doubles, arrays) and 3 (decimals); clients pick the highest listed
  const ilp = options.lineProtocol.enabled !== false
  const transports = (options.lineProtocol.transports ?? (ilp ? ['http'] : [])).map(jsonString).join(', ')
  const config = `{"release.type":"OSS","release.version":${jsonString(options.releaseVersion)},"http.settings.readonly":true,` +
    `"accepting.writes":[${writes}],"line.proto.support.versions":[${ilp ? '1,2,3' : ''}],"ilp.proto.transports":[${transports}],` +
    `"posthog.enabled":false,"posthog.api.key":null,"cairo.max.file.name.length":${db.maxNameLength}${acl}${extra}}`
  sendJson(res, 200, `{"config":${config},"preferences.version":0,"preferences":{}}`)
}

/** Names QuestDB reserves for itself (`/chk` answers "Reserved name"). */
const RESERVED = new Set(['telemetry', 'telemetry_config', 'sys.telemetry', 'sys.telemetry_config'])

/** GET /chk?j=table[&f=json]: table existence as QuestDB words it. */
export async function handleChk(ctx: RequestContext): Promise<void> {
  checkParams(ctx, KNOWN_PARAMS.chk)
  const name = ctx.target.params.get('j')
  if (name === undefined) {
    sendBody(ctx.res, 200, TEXT_TYPE, 'table name missing\r\n')
    return
  }
  const status = RESERVED.has(name.toLowerCase()) ? 'Reserved name' : (await tableExists(ctx.db, name)) ? 'Exists' : 'Does not exist'
  if (ctx.target.params.get('f') === 'json') sendBody(ctx.res, 200, 'application/json', `{"status":"${status}"}`)
  else sendBody(ctx.res, 200, TEXT_TYPE, status + '\r\n')
}

/** True when a table named `name` (case-insensitive) exists. */
export async function tableExists(db: Database, name: string): Promise<boolean> {
  const lower = name.toLowerCase()
  const r = await db.query('select table_name from tables()')
  return r.rows.some((row) => String(row[0]).toLowerCase() === lower)
}

/**
 * GET /api/v1/sql/validate: compiles without executing. Queries answer their metadata
 * (`{"query","columns","timestamp"}`); other statements `{"queryType":"CREATE TABLE"}`. Only
 * queries are bound against the catalog; other statements are checked for syntax only.
 */
export async function handleValidate(ctx: RequestContext): Promise<void> {
  const query = ctx.target.params.get('query') ?? ''
  try {
    checkParams(ctx, KNOWN_PARAMS.validate)
    if (ctx.target.badUtf8.has('query')) throw new HttpError(400, 'Bad UTF8 encoding in query text')
    const stmt = await parseOne(ctx.db, query, { session: ctx.session, signal: ctx.signal })
    if (stmt === undefined) {
      sendJson(ctx.res, 200, `{"error":"empty query","query":${jsonString(query)},"position":"0"}`)
      return
    }
    if (!returnsRows(ctx.db, stmt)) {
      sendJson(ctx.res, 200, `{"queryType":${jsonString(queryType(ctx.db, stmt))}}`)
      return
    }
    // binding a query starts no scan until its batches are read; they never are here
    const ex = await ctx.db.execute(stmt, [], { session: ctx.session, signal: ctx.signal })
    const cols = ex.columns.map((c) => `{"name":${jsonString(c.name)},"type":${jsonString(c.type)}}`).join(',')
    sendBody(ctx.res, 200, JSON_TYPE, `{"query":${jsonString(query)},"columns":[${cols}],"timestamp":${ex.timestampIndex}}`)
  } catch (err) {
    const { message, position } = describe(err)
    sendJson(ctx.res, statusOf(err), errorBody(query, message, position))
  }
}
