/**
 * POST /imp: a multipart upload (`schema` part optional, then the `data` part) parsed as a
 * stream with busboy and imported batch by batch, so a large file never sits in memory.
 * Import errors answer 200 with the message as QuestDB does; a malformed request answers 400.
 */
import busboy from 'busboy'
import type { Readable } from 'node:stream'
import { type RequestContext, KNOWN_PARAMS, checkParams } from '../context.js'
import { describe, statusOf } from '../http-error.js'
import { isTrue } from '../request.js'
import { JSON_TYPE, TEXT_TYPE, sendBody } from '../response.js'
import { jsonString } from '../json/json-string.js'
import { CsvReader, detectDelimiter } from './csv-reader.js'
import { type ImportRequest, type SchemaColumn, Importer } from './importer.js'
import { importJson, importText } from './imp-response.js'

const PARTITIONS = new Set(['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'])

/** A failure of the request itself (400), not of the import (200). */
class BadUpload extends Error {}

/** Answers one /imp request; resolves to the number of rows imported. */
export async function handleImp(ctx: RequestContext): Promise<number> {
  const p = ctx.target.params
  const json = p.get('fmt') === 'json'
  const answer = (status: number, message: string): void => {
    if (json || status !== 200) sendBody(ctx.res, status, JSON_TYPE, `{"status":${jsonString(message)}}`)
    else sendBody(ctx.res, status, TEXT_TYPE, message + '\r\n')
  }
  try {
    checkParams(ctx, KNOWN_PARAMS.imp)
  } catch (err) {
    answer(400, describe(err).message)
    return 0
  }
  if (!(ctx.req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    answer(400, 'expected a multipart/form-data upload with a "data" part')
    return 0
  }
  if (ctx.options.readOnly) { answer(403, 'Write permission denied'); return 0 }
  try {
    const result = await receive(ctx)
    if (json) sendBody(ctx.res, 200, JSON_TYPE, importJson(result))
    else sendBody(ctx.res, 200, TEXT_TYPE, importText(result))
    return result.rowsImported
  } catch (err) {
    ctx.req.unpipe()
    ctx.req.resume()
    // a permission denial (42501) is 403 as on /exec; other failures keep QuestDB's 200 + status
    answer(err instanceof BadUpload ? 400 : statusOf(err) === 403 ? 403 : 200, describe(err).message)
    return 0
  }
}

function request(ctx: RequestContext, fileName: string | undefined, schema: readonly SchemaColumn[]): ImportRequest {
  const p = ctx.target.params
  const table = p.get('name') ?? fileName
  if (table === undefined || table.length === 0) throw new BadUpload('table name missing: give name= or a file name')
  const partitionBy = (p.get('partitionBy') ?? 'NONE').toUpperCase()
  if (!PARTITIONS.has(partitionBy)) throw new BadUpload(`invalid partitionBy [value=${p.get('partitionBy')}]`)
  const atomicity = p.get('atomicity') ?? 'skipCol'
  if (atomicity !== 'skipCol' && atomicity !== 'skipRow' && atomicity !== 'abort') throw new BadUpload(`invalid atomicity [value=${atomicity}]`)
  return {
    table, partitionBy, atomicity, schema,
    timestamp: p.get('timestamp'),
    overwrite: isTrue(p.get('overwrite')),
    forceHeader: isTrue(p.get('forceHeader')),
  }
}

function parseSchema(text: string): SchemaColumn[] {
  let v: unknown
  try { v = JSON.parse(text) } catch { throw new BadUpload('schema part is not valid JSON') }
  if (!Array.isArray(v) || v.some((c) => typeof c?.name !== 'string' || typeof c?.type !== 'string')) throw new BadUpload('schema must be [{"name":..,"type":..}, ...]')
  return v as SchemaColumn[]
}

async function readAll(stream: Readable): Promise<string> {
  let s = ''
  for await (const c of stream) s += String(c)
  return s
}

/** Parses the upload and imports its `data` part. */
function receive(ctx: RequestContext): Promise<import('./importer.js').ImportResult> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy
    try {
      bb = busboy({ headers: ctx.req.headers, limits: { files: 2, fields: 4, fieldSize: 1 << 20 } })
    } catch (e) {
      reject(new BadUpload(`malformed multipart request: ${(e as Error).message}`))
      return
    }
    let schema: SchemaColumn[] = []
    let work: Promise<import('./importer.js').ImportResult> | undefined
    let failed = false
    const fail = (e: unknown): void => { if (!failed) { failed = true; reject(e) } }
    bb.on('field', (name, value) => {
      if (name === 'schema') { try { schema = parseSchema(value) } catch (e) { fail(e) } }
    })
    bb.on('file', (name, stream, info) => {
      if (name === 'schema') { readAll(stream).then((t) => { schema = parseSchema(t) }).catch(fail); return }
      if (name !== 'data' || work !== undefined) { stream.resume(); return }
      work = importStream(ctx, stream, info.filename, () => schema)
      work.catch((e) => { stream.resume(); fail(e) })
    })
    bb.on('error', (e) => fail(new BadUpload(`malformed multipart request: ${(e as Error).message}`)))
    bb.on('close', () => {
      if (failed) return
      if (work === undefined) fail(new BadUpload('no "data" part in the upload'))
      else work.then(resolve, fail)
    })
    ctx.req.pipe(bb)
  })
}

async function importStream(ctx: RequestContext, stream: Readable, fileName: string | undefined, schema: () => SchemaColumn[]): Promise<import('./importer.js').ImportResult> {
  const decoder = new TextDecoder('utf-8')
  let reader: CsvReader | undefined
  let importer: Importer | undefined
  for await (const chunk of stream) {
    const text = decoder.decode(chunk as Buffer, { stream: true })
    if (reader === undefined) {
      reader = new CsvReader(ctx.target.params.get('delimiter') ?? detectDelimiter(text))
      importer = new Importer(ctx.db, ctx.session, request(ctx, fileName, schema()))
    }
    await importer!.add(reader.push(text))
    if (ctx.signal.cancelled) throw new Error('client disconnected')
  }
  if (reader === undefined || importer === undefined) throw new Error('no data in the upload')
  await importer.add(reader.push(decoder.decode()))
  await importer.add(reader.end())
  return importer.finish()
}
