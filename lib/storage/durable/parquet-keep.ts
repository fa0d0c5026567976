/**
 * Keeps converted partitions Parquet. A checkpoint writes the rows it has in memory as column
 * files: after an out-of-order append (every partition from the earliest it touches), an UPDATE
 * or a column ADD/DROP/RENAME (every partition), partitions converted to Parquet would come back
 * native. QuestDB keeps a Parquet partition Parquet after such writes, so each checkpoint is
 * compared with the `_meta` before it ({@link ParquetKeep.note}): a partition that was Parquet
 * and is now column files is converted back to Parquet right after, as `CONVERT PARTITION TO
 * PARQUET` would, holding the table's write lock alone (no append or checkpoint of the table
 * interleaves; the conversion is the same crash-safe `_meta` swap). Partitions the checkpoint left
 * alone keep their file as it is. Until the conversion ends (or if it fails: best effort, the
 * rows are the same either way) the partition reads from its column files.
 *
 * The partitions still to convert are also written to the data directory's {@link KEEP_FILE}
 * (table id → partition names) right after the checkpoint that made them native, and taken out
 * once converted: a process that stops before converting them (a crash, a kill) converts them
 * when the directory is next opened ({@link ParquetKeep.recover}).
 */
import type { Table } from '../table.js'
import type { PartitionEntry, TableFileMeta } from './table-files.js'

/** Converts the partitions `choose` picks of `t` to Parquet (the store's `convertPartitions`). */
export type ToParquet = (t: Table, choose: (entries: readonly PartitionEntry[]) => ReadonlySet<PartitionEntry>) => Promise<number>

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
   * After opening: the partitions {@link KEEP_FILE} lists (a process stopped before converting
   * them) are converted; `table` finds a table by id (undefined: dropped meanwhile).
   */
  recover(table: (id: number) => Table | undefined): void {
    let bytes: Uint8Array | undefined
    try { bytes = this.file?.read() } catch { return }
    if (bytes === undefined || bytes.length === 0) return
    let list: Record<string, string[]>
    try { list = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, string[]> } catch { return }
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
   * After a checkpoint of `t` replaced `_meta` `before` with `after`: the partitions Parquet in
   * `before` and column files in `after` (by name) are to be converted back; starts the run.
   */
  note(t: Table, before: TableFileMeta, after: TableFileMeta): void {
    if (before === after) return
    const was = new Set<string>()
    for (const e of before.partitions) if (e.format === 'parquet') was.add(e.name)
    if (was.size === 0) return
    let names: Set<string> | undefined
    for (const e of after.partitions) {
      if (e.format === 'parquet' || !was.has(e.name)) continue
      names = this.wanted.get(t) ?? new Set()
      names.add(e.name)
      this.wanted.set(t, names)
    }
    if (names === undefined) return
    const saved = this.saved.get(t.meta.id) ?? new Set()
    for (const n of names) saved.add(n)
    this.saved.set(t.meta.id, saved)
    this.save()
    this.start()
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
      const release = await t.writers.exclusive()
      try {
        if (this.live(t)) await this.toParquet(t, (entries) => new Set(entries.filter((e) => names.has(e.name) && e.format !== 'parquet')))
        // converted (or the table is gone): out of the file, unless noted again meanwhile
        if (!this.wanted.has(t) && this.saved.delete(t.meta.id)) this.save()
      } catch {
        // the partition stays column files (same rows); a closed store or failed write ends here
      } finally {
        release()
      }
    }
  }
}
