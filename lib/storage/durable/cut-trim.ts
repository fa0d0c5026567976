/**
 * Reclaims the bytes an out-of-order merge's cut left behind (`FilePart.cut`): the first part of a
 * partition in parts keeps its directory's files as they were, holding also the rows after its
 * end, which the partition's next part (another directory) holds again. Until the checkpoint's
 * `_meta` replaces the one naming them, and while a statement of before holds the partition as it
 * was, those bytes are read; when the data directory is opened, nothing can read them any more,
 * and each such part's column files are cut to its recorded rows (the bytes past a part's rows are
 * ignored by readers anyway: after an interrupted append too). Array columns are left as they are:
 * their data part starts with every row's header, so it cannot be cut to its first rows.
 */
import type { PartitionEntry, TableFileMeta } from './table-files.js'
import { columnFileBytes, varDataEnd } from './table-files.js'
import { fixedWidth, isVarSize } from './column-codec.js'
import { physicalOf } from '../../types/column-type.js'
import { io } from './io.js'

/**
 * The partition entries of `m` (a table's `_meta`, in directory `tableDir`), a part followed by
 * another of the same partition with its column files cut to its rows and its `bytes` counted
 * again (the others as they are). Best effort: a file that cannot be read or cut stays as it is.
 */
export function trimCutParts(tableDir: string, m: TableFileMeta): PartitionEntry[] {
  return m.partitions.map((e, i) => {
    const next = m.partitions[i + 1]
    if (next === undefined || next.name !== e.name || next.lo !== e.lo || e.format === 'parquet' || e.parquetFrom !== undefined) return e
    const path = `${tableDir}/${e.dir}`
    const names = e.files ?? m.meta.columns.map((c) => c.name)
    let trimmed = false
    names.forEach((name, c) => {
      const type = m.meta.columns[c]?.type
      if (type === undefined) return
      const base = `${path}/${name}`
      try {
        if (isVarSize(type)) {
          if (physicalOf(type) === 'arr') return
          const end = varDataEnd(base, e.rows)
          trimmed = cutTo(`${base}.o`, e.rows * 8) || trimmed
          trimmed = cutTo(`${base}.d`, end) || trimmed
        } else {
          const w = fixedWidth(type)
          if (w > 0) trimmed = cutTo(`${base}.d`, e.rows * w) || trimmed
        }
      } catch { /* left as it is: readers ignore the bytes past the rows */ }
    })
    if (!trimmed) return e
    let bytes = 0
    for (const name of names) bytes += columnFileBytes(path, name)
    return { ...e, bytes }
  })
}

/** Cuts file `file` to `size` bytes when it is longer; true when it was cut. */
function cutTo(file: string, size: number): boolean {
  if (io.statSize(file) <= size) return false
  const fd = io.openSync(file, 'r+')
  try {
    io.ftruncateSync(fd, size)
    io.fsyncSync(fd)
  } finally {
    io.closeSync(fd)
  }
  return true
}
