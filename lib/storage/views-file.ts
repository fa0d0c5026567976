/**
 * The views of a data directory: the internal file `_views` (JSON `{ version, views: [{ id,
 * name, sql }] }`), replaced atomically by every CREATE / ALTER / DROP VIEW, so a crash leaves
 * the views of before the statement or of after it, never a mix.
 */
import { SqlError, SqlState } from '../errors.js'
import type { ViewDef } from './catalog.js'

/** The internal file that holds the views. */
export const VIEWS_FILE = '_views'
/** Its format version. */
const VERSION = 1

/** The file's bytes for `views`. */
export function encodeViews(views: readonly ViewDef[]): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ version: VERSION, views: views.map((v) => ({ id: v.id, name: v.name, sql: v.sql })) }))
}

/** The views in the file's bytes (none when there is no file); XX001 when they do not read. */
export function decodeViews(bytes: Uint8Array | undefined): ViewDef[] {
  if (bytes === undefined) return []
  let doc: unknown
  try { doc = JSON.parse(new TextDecoder().decode(bytes)) } catch (e) {
    throw new SqlError(SqlState.DATA_CORRUPTED, `the views file ${VIEWS_FILE} is unreadable`, -1, { cause: e })
  }
  const d = doc as { version?: unknown; views?: unknown }
  if (d.version !== VERSION || !Array.isArray(d.views)) throw new SqlError(SqlState.DATA_CORRUPTED, `the views file ${VIEWS_FILE} has an unknown format [version=${String(d.version)}]`)
  return d.views.map((v: { id?: unknown; name?: unknown; sql?: unknown }) => {
    if (typeof v.id !== 'number' || typeof v.name !== 'string' || typeof v.sql !== 'string') throw new SqlError(SqlState.DATA_CORRUPTED, `the views file ${VIEWS_FILE} holds a malformed view`)
    return { id: v.id, name: v.name, sql: v.sql }
  })
}
