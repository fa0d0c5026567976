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
 */
import type { Table } from '../table.js'
import type { PartitionEntry, TableFileMeta } from './table-files.js'

/** Converts the partitions `choose` picks of `t` to Parquet (the store's `convertPartitions`). */
export type ToParquet = (t: Table, choose: (entries: readonly PartitionEntry[]) => ReadonlySet<PartitionEntry>) => Promise<number>

/** The partitions of each table to turn back to Parquet, and the run doing it. */
export class ParquetKeep {
  private readonly wanted = new Map<Table, Set<string>>()
  private running: Promise<void> | undefined

  /** `live` tells whether a table is still in the catalog (a dropped one is not converted). */
  constructor(private readonly live: (t: Table) => boolean, private readonly toParquet: ToParquet) {}

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
    if (names !== undefined) this.start()
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
      } catch {
        // the partition stays column files (same rows); a closed store or failed write ends here
      } finally {
        release()
      }
    }
  }
}
