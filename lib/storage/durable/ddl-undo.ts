/**
 * The undo journal of a DDL statement that rewrites several tables at once (TRUNCATE TABLE t, u):
 * all of them or none. Each table commits its own rewrite by replacing its `_meta`; this file,
 * written before the first of them, holds every table's `_meta` as it was. While it exists the
 * files the old `_meta` names are kept (the store removes nothing a rewrite replaced). Removing it
 * is the statement's commit point: a crash before that leaves it in place, and the next open puts
 * every table's old `_meta` back ({@link rollBackDdl}) before reading the tables, so a restart
 * sees each table as before the statement; a crash after it sees them all rewritten.
 */
import { SqlError, SqlState } from '../../errors.js'
import { io } from './io.js'
import { fsyncDir, replaceFileAtomic } from './durable-steps.js'
import { packr } from './wal-codec.js'
import { isTableDirName } from '../names.js'

/** The journal's name in the data directory (not a table directory: no `~`). */
export const DDL_UNDO_FILE = '_ddl_undo'

/** One table's entry: its directory's name in the data directory and its `_meta` bytes before the statement. */
export interface UndoEntry {
  readonly dir: string
  readonly meta: Uint8Array
}

/** Writes the journal durably (atomically replaced: a crash leaves it whole or absent). */
export function writeDdlUndo(root: string, entries: readonly UndoEntry[]): void {
  replaceFileAtomic(root, DDL_UNDO_FILE, packr.pack({ version: 1, tables: entries.map((e) => ({ dir: e.dir, meta: e.meta })) }))
}

/** Removes the journal durably: the statement is committed once this returns. */
export function removeDdlUndo(root: string): void {
  io.rmSync(`${root}/${DDL_UNDO_FILE}`)
  fsyncDir(root)
}

/** Puts back each table's `_meta` as the journal holds it (in process, after a failed statement, or at open). */
export function restoreMetas(root: string, entries: readonly UndoEntry[]): void {
  for (const e of entries) {
    if (io.existsSync(`${root}/${e.dir}`)) replaceFileAtomic(`${root}/${e.dir}`, '_meta', e.meta)
  }
}

/**
 * At open, before the tables are read: when a journal is there (a crash during a statement that
 * rewrote several tables), every table it names gets its old `_meta` back, then the journal is
 * removed. The files the new `_meta` named are left to the usual clean-up of unreferenced files.
 */
export function rollBackDdl(root: string): void {
  const file = `${root}/${DDL_UNDO_FILE}`
  if (!io.existsSync(file)) return
  let entries: UndoEntry[]
  try {
    const d = packr.unpack(io.readFileSync(file)) as { tables?: { dir?: unknown; meta?: unknown }[] }
    entries = (d.tables ?? []).map((e) => {
      if (typeof e.dir !== 'string' || !(e.meta instanceof Uint8Array) || !/^[^/\\]+$/.test(e.dir) || !isTableDirName(e.dir)) throw new RangeError('malformed entry')
      return { dir: e.dir, meta: e.meta }
    })
  } catch (e) {
    throw new SqlError(SqlState.DATA_CORRUPTED, `the DDL undo journal ${DDL_UNDO_FILE} is unreadable: ${e instanceof Error ? e.message : String(e)}`)
  }
  restoreMetas(root, entries)
  removeDdlUndo(root)
}
