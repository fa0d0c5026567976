/**
 * Keeps converted partitions Parquet. A checkpoint writes the rows it has in memory as column
 * files: after an out-of-order append (the partitions the merge moved to memory), an UPDATE or a
 * column ADD/DROP/RENAME (every partition), partitions converted to Parquet would come back
 * native. QuestDB keeps a Parquet partition Parquet after such writes, rewriting only the row
 * groups the new rows land in. Here:
 *
 * - a partition the out-of-order merge moved to memory but added no row to keeps its directory
 *   and file as they were ({@link unchangedEntry}, used by the checkpoint);
 * - a partition the checkpoint did write, that was Parquet, is recorded in the same `_meta` as
 *   column files with `parquetFrom` naming its old Parquet directory ({@link parquetOrigin}): the
 *   intent is in the checkpoint's commit point itself, so no crash can lose it;
 * - {@link ParquetKeep} then writes each such partition back to Parquet, copying the old file's
 *   row groups the new rows did not reach (parquet-merge.ts), off the append path: the file is
 *   written while appends and checkpoints go on, and the store swaps it in only if the partition
 *   is still the one it read (`DurableStore.parquetBack`), holding the table's write lock just
 *   for that swap. Recorded partitions are written back when the directory is next opened, too.
 *
 * Until then (or if it fails: best effort, the rows are the same either way) the partition reads
 * from its column files, and the old Parquet file stays in its directory (DuckDB reading the data
 * directory sees it without the new rows).
 *
 * Directories written before `parquetFrom` existed listed such partitions in the data directory's
 * {@link KEEP_FILE} instead (table id → partition names); it is still read, and its partitions
 * encoded whole.
 */
import type { Table, TableMeta } from '../table.js'
import type { PartitionEntry, TableFileMeta } from './table-files.js'

/** Writes partition `name` of `t` back to Parquet if it still needs it (the store's `parquetBack`). */
export type ToParquet = (t: Table, name: string) => Promise<void>

/** Most ranges {@link addDirty} keeps per table (beyond, the closest are joined: wider, still covering every row). */
export const MAX_DIRTY_RANGES = 256

/**
 * Records the designated timestamps (µs, `micros` of each of the `length` values of `ts`) of rows
 * appended to a DEDUP table since its last checkpoint, as ranges `[lo0, hi0, lo1, hi1, ...]` in
 * `ranges` (sorted, disjoint): a DEDUP append may replace rows with equal keys, which row counts
 * cannot tell, so the partitions and row groups it may have changed are known by these.
 */
export function addDirty(ranges: number[] | undefined, ts: { readonly data: ArrayLike<number | bigint>; readonly isConst?: boolean }, length: number, micros: (x: number | bigint) => number): number[] {
  const v = new Float64Array(length)
  for (let i = 0; i < length; i++) v[i] = micros(ts.data[ts.isConst === true ? 0 : i]!)
  v.sort()
  const out = ranges === undefined ? [] : [...ranges]
  // runs of values less than a minute apart are one range
  for (let i = 0; i < length;) {
    let j = i
    while (j + 1 < length && v[j + 1]! - v[j]! <= 60_000_000) j++
    out.push(v[i]!, v[j]!)
    i = j + 1
  }
  return normalize(out)
}

/** Sorts and joins ranges `[lo, hi, ...]` that overlap, then the closest ones until at most {@link MAX_DIRTY_RANGES} are left. */
function normalize(flat: readonly number[]): number[] {
  const pairs: [number, number][] = []
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!])
  pairs.sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const p of pairs) {
    const last = merged[merged.length - 1]
    if (last !== undefined && p[0] <= last[1]) last[1] = Math.max(last[1], p[1])
    else merged.push([p[0], p[1]])
  }
  while (merged.length > MAX_DIRTY_RANGES) {
    let k = 0
    for (let i = 1; i + 1 < merged.length; i++) if (merged[i + 1]![0] - merged[i]![1] < merged[k + 1]![0] - merged[k]![1]) k = i
    merged[k]![1] = merged[k + 1]![1]
    merged.splice(k + 1, 1)
  }
  return merged.flat()
}

/**
 * True when `file` has a partition that is Parquet or on its way back: a DEDUP table's appends are
 * tracked ({@link addDirty}) only then (between two `_meta` writes this does not change, but by a
 * statement that checkpoints first), and only such partitions are reused by {@link unchangedEntry}.
 */
export function hasParquet(file: TableFileMeta): boolean {
  return file.partitions.some((e) => e.format === 'parquet' || e.parquetFrom !== undefined)
}

/** True when some range of `ranges` meets `[lo, hi]`. */
export function touches(ranges: readonly number[] | undefined, lo: number, hi: number): boolean {
  if (ranges === undefined) return false
  for (let i = 0; i + 1 < ranges.length; i += 2) if (ranges[i]! <= hi && ranges[i + 1]! >= lo) return true
  return false
}

/** The parts of `ranges` within `[lo, hi)`. */
function clip(ranges: readonly number[] | undefined, lo: number, hi: number): number[] {
  const out: number[] = []
  if (ranges === undefined) return out
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const a = Math.max(ranges[i]!, lo)
    const b = Math.min(ranges[i + 1]!, hi - 1)
    if (a <= b) out.push(a, b)
  }
  return out
}

/**
 * For a checkpoint (not `full`) of a table now described by `meta`, whose `_meta` was `file`: the
 * entry of `file` a partition range can keep as it is, because the range holds exactly that
 * partition's rows. Without DEDUP a non-full checkpoint's partitions only ever gain rows (the
 * out-of-order merge adds rows; UPDATE and schema changes are full), so the same row count in the
 * same bounds means the same rows; with DEDUP, only a Parquet partition (or one on its way back)
 * with no appended row in its bounds (`dirty`: see {@link addDirty}). `kept`: entries the
 * checkpoint keeps anyway (cold).
 */
export function unchangedEntry(file: TableFileMeta, meta: TableMeta, full: boolean, kept: readonly PartitionEntry[], dirty: readonly number[] | undefined): (r: { name: string; lo: number; hi: number; start: number; end: number }) => PartitionEntry | undefined {
  if (full || JSON.stringify(file.meta.columns) !== JSON.stringify(meta.columns)) return () => undefined
  const dedup = meta.dedupKeys.length > 0
  const byName = new Map(file.partitions.map((e) => [e.name, e]))
  return (r) => {
    const e = byName.get(r.name)
    if (e === undefined || e.lo !== r.lo || e.hi !== r.hi || e.rows !== r.end - r.start || kept.includes(e)) return undefined
    // a DEDUP table's appends are tracked only while it has Parquet partitions: the others are rewritten as before
    return dedup && ((e.format !== 'parquet' && e.parquetFrom === undefined) || touches(dirty, e.lo, e.hi - 1)) ? undefined : e
  }
}

/**
 * The `parquetFrom` of partition `name` (bounds `[lo, hi)`) written anew by a checkpoint of a table
 * described by `meta` (`full`: every row rewritten), whose `_meta` was `file`: the Parquet
 * directory it came from, if it was Parquet or on its way back; `whole` when its rows may have
 * changed in place beyond what is known; for a DEDUP table, the ranges appended rows fell in
 * (`dirty`, with those recorded before), where rows may have been replaced.
 */
export function parquetOrigin(file: TableFileMeta, name: string, lo: number, hi: number, meta: TableMeta, full: boolean, dirty: readonly number[] | undefined): Pick<PartitionEntry, 'parquetFrom'> {
  const e = file.partitions.find((x) => x.name === name)
  const from = e?.format === 'parquet' ? { dir: e.dir } : e?.parquetFrom
  if (from === undefined) return {}
  const whole = full || from.whole === true || JSON.stringify(file.meta.columns) !== JSON.stringify(meta.columns)
  if (whole) return { parquetFrom: { dir: from.dir, whole } }
  if (meta.dedupKeys.length === 0 && from.dirty === undefined) return { parquetFrom: { dir: from.dir } }
  return { parquetFrom: { dir: from.dir, dirty: normalize([...(from.dirty ?? []), ...clip(dirty, lo, hi)]) } }
}

/** The data directory's file of partitions to convert back to Parquet (JSON: `{ "<table id>": ["<partition>", ...] }`). */
export const KEEP_FILE = '_parquet_keep'

/** Where {@link ParquetKeep} keeps its list across a restart (the store's internal files). */
export interface KeepFile {
  read(): Uint8Array | undefined
  write(bytes: Uint8Array): void
}

/** The partitions of each table to turn back to Parquet, and the run doing it. */
export class ParquetKeep {
  private readonly wanted = new Map<Table, Set<string>>()
  /** what {@link KEEP_FILE} says: by table id, the partitions not converted yet */
  private readonly saved = new Map<number, Set<string>>()
  private running: Promise<void> | undefined

  /** `live` tells whether a table is still in the catalog (a dropped one is not converted). */
  constructor(private readonly live: (t: Table) => boolean, private readonly toParquet: ToParquet, private readonly file?: KeepFile) {}

  /**
   * After opening: the partitions {@link KEEP_FILE} lists (written by a version before
   * `parquetFrom`, stopped before converting them) are converted; `table` finds a table by id
   * (undefined: dropped meanwhile). Those `_meta` records are noted by the store ({@link note}).
   */
  recover(table: (id: number) => Table | undefined): void {
    let bytes: Uint8Array | undefined
    try { bytes = this.file?.read() } catch { return }
    if (bytes === undefined || bytes.length === 0) return
    let list: Record<string, string[]>
    try { list = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, string[]> } catch { return }
    if (list === null || typeof list !== 'object') return
    for (const [id, names] of Object.entries(list)) {
      const t = table(Number(id))
      if (t === undefined || !Array.isArray(names)) continue
      const set = this.wanted.get(t) ?? new Set()
      for (const n of names) if (typeof n === 'string') set.add(n)
      this.wanted.set(t, set)
      this.saved.set(t.meta.id, new Set(set))
    }
    if (this.wanted.size > 0) this.start()
  }

  /**
   * After `t`'s `_meta` became `after` (a checkpoint, or opening): its partitions recorded as on
   * their way back to Parquet (`parquetFrom`) are queued; starts the run. (`_before`: unused, the
   * record is in `after`.)
   */
  note(t: Table, _before: TableFileMeta | undefined, after: TableFileMeta): void {
    let names: Set<string> | undefined
    for (const e of after.partitions) {
      if (e.parquetFrom === undefined || e.format === 'parquet') continue
      names = this.wanted.get(t) ?? new Set()
      names.add(e.name)
      this.wanted.set(t, names)
    }
    if (names !== undefined) this.start()
  }

  /** Writes {@link saved} (best effort: without it only a restart before the conversion loses the intent). */
  private save(): void {
    if (this.file === undefined) return
    const list: Record<string, string[]> = {}
    for (const [id, names] of this.saved) list[id] = [...names]
    try { this.file.write(new TextEncoder().encode(JSON.stringify(list))) } catch { /* see above */ }
  }

  /** Resolves once no conversion is wanted or running (failures are dropped: best effort). */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running
  }

  /** True while some partition waits to be converted back. */
  get busy(): boolean {
    return this.running !== undefined
  }

  private start(): void {
    if (this.running !== undefined) return
    // after the statement or checkpoint step that noted it has returned
    this.running = new Promise<void>((r) => setImmediate(r)).then(() => this.run()).finally(() => {
      this.running = undefined
      // noted between the run's last look and now
      if (this.wanted.size > 0) this.start()
    })
  }

  private async run(): Promise<void> {
    for (;;) {
      const next = this.wanted.entries().next()
      if (next.done === true) return
      const [t, names] = next.value
      this.wanted.delete(t)
      for (const name of names) {
        try {
          if (this.live(t)) await this.toParquet(t, name)
        } catch {
          // the partition stays column files (same rows); a closed store or failed write ends here
        }
      }
      // converted (or the table is gone): out of the legacy file, unless noted again meanwhile
      if (!this.wanted.has(t) && this.saved.delete(t.meta.id)) this.save()
    }
  }
}
