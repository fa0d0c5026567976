/**
 * The access-control catalog on disk: one msgpack file, `_acl`, in the data directory, replaced
 * atomically (temporary file, fsync, rename, fsync of the directory) after every change, the way
 * table metadata is. A crash leaves the previous or the new catalog, never a torn one; a
 * statement that changed it returns only once the new file is durable.
 */
import { Packr } from 'msgpackr'
import { SqlError, SqlState } from '../../errors.js'
import type { AclSnapshot } from './acl-catalog.js'

/** Where the catalog is kept (a data directory's `_acl`; absent for an in-memory database). */
export interface AclStorage {
  /** the saved catalog, or undefined when none was saved yet */
  read(): Uint8Array | undefined
  /** saves the catalog durably (throws 58030 / 53100 when the write fails) */
  write(bytes: Uint8Array): void
}

/** The file name in the data directory. */
export const ACL_FILE = '_acl'

const packr = new Packr({ useRecords: false, moreTypes: false })

/** The bytes of a snapshot. */
export function encodeSnapshot(s: AclSnapshot): Uint8Array {
  return packr.pack(s)
}

/** A snapshot from its bytes; XX001 when they are not one. */
export function decodeSnapshot(bytes: Uint8Array): AclSnapshot {
  let s: AclSnapshot
  try { s = packr.unpack(bytes) as AclSnapshot } catch (e) {
    throw new SqlError(SqlState.DATA_CORRUPTED, `access-control catalog ${ACL_FILE} is unreadable`, -1, { cause: e })
  }
  if (s === null || typeof s !== 'object' || s.version !== 1 || !Array.isArray(s.entities)) {
    throw new SqlError(SqlState.DATA_CORRUPTED, `access-control catalog ${ACL_FILE} has an unknown format`)
  }
  return s
}
