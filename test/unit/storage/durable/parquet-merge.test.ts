// planMerge: which old row groups a partition's rows still hold unchanged (copied) and which rows
// are encoded anew; addDirty/touches: the ranges a DEDUP table's appends may have changed.
import t from 'tap'
import type { FileMetaData, RowGroup } from 'hyparquet'
import { planMerge } from '../../../../lib/storage/durable/parquet-merge.js'
import { MAX_DIRTY_RANGES, addDirty, touches } from '../../../../lib/storage/durable/parquet-keep.js'
import { FOOTER_KEY } from '../../../../lib/parquet/schema.js'
import type { Vector } from '../../../../lib/types/vector.js'

const META = { columns: [{ name: 'ts', type: 'TIMESTAMP' as const }, { name: 'x', type: 'LONG' as const }], timestampIndex: 0 }

/** A footer with one group per [min, max, rows]. */
function footer(groups: readonly [number, number, number][], columns = META.columns): FileMetaData {
  const group = ([lo, hi, rows]: [number, number, number]): RowGroup => ({
    num_rows: BigInt(rows), total_byte_size: 0n,
    columns: [{ file_offset: 0n, meta_data: { type: 'INT64', encodings: [], path_in_schema: ['ts'], codec: 'SNAPPY', num_values: BigInt(rows), total_uncompressed_size: 0n, total_compressed_size: 0n, data_page_offset: 4n, statistics: { min_value: BigInt(lo), max_value: BigInt(hi) } } }],
  })
  return {
    version: 2, schema: [], num_rows: 0n, row_groups: groups.map(group), metadata_length: 0,
    key_value_metadata: [{ key: FOOTER_KEY, value: JSON.stringify({ version: 1, columns, timestamp: 0 }) }],
  } as FileMetaData
}

const ts = (values: readonly number[]): Vector => ({ kind: 'f64', type: 'TIMESTAMP', length: values.length, data: Float64Array.from(values) }) as unknown as Vector

t.test('planMerge copies the groups whose range holds exactly their rows', async (t) => {
  // old groups: [0..2] [10..12] [20..22], 3 rows each
  const md = footer([[0, 2, 3], [10, 12, 3], [20, 22, 3]])
  // a row in the middle group, one in the gap after it, one after the end
  const rows = [0, 1, 2, 10, 11, 11, 12, 15, 20, 21, 22, 30]
  t.same(planMerge(md, META, ts(rows), rows.length, undefined, 0), [
    { kind: 'copy', start: 0, end: 3, group: 0 },
    { kind: 'encode', start: 3, end: 8 },
    { kind: 'copy', start: 8, end: 11, group: 2 },
    { kind: 'encode', start: 11, end: 12 },
  ])
  // a row equal to a group's first timestamp belongs to its range: re-encoded
  const same = [0, 0, 1, 2, 10, 11, 12, 20, 21, 22]
  t.same(planMerge(md, META, ts(same), same.length, undefined, 0).map((s) => s.kind), ['encode', 'copy', 'copy'])
  t.same(planMerge(md, META, ts(same), same.length, undefined, 0)[0], { kind: 'encode', start: 0, end: 4 })
})

t.test('planMerge encodes everything when the old file cannot be trusted', async (t) => {
  const rows = [0, 1, 2]
  const all = [{ kind: 'encode', start: 0, end: 3 }]
  t.same(planMerge(undefined, META, ts(rows), 3), all, 'no old file')
  t.same(planMerge(footer([[0, 2, 3]], [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'y', type: 'LONG' }]), META, ts(rows), 3), all, 'other columns')
  t.same(planMerge(footer([[0, 2, 3]]), META, ts(rows), 3, [1, 1]), all, 'a DEDUP append may have replaced a row in the group')
  t.same(planMerge(footer([[0, 2, 3]]), META, ts(rows), 3, [5, 9]), [{ kind: 'copy', start: 0, end: 3, group: 0 }], 'dirty ranges elsewhere')
  t.same(planMerge(footer([[0, 2, 3]]), META, ts([...rows, 5]), 4), [{ kind: 'encode', start: 0, end: 4 }], 'a small group next to late rows is encoded with them')
  t.same(planMerge(footer([[0, 2, 3]]), META, ts([...rows, 5]), 4, undefined, 3), [{ kind: 'copy', start: 0, end: 3, group: 0 }, { kind: 'encode', start: 3, end: 4 }], 'one of the threshold\'s size is kept')
  // groups out of order (not a file EpochDB writes): never a copy behind what is placed
  t.same(planMerge(footer([[10, 12, 1], [0, 2, 3]]), META, ts([0, 1, 2, 10]), 4, undefined, 0).filter((s) => s.kind === 'copy').length, 1)
})

t.test('addDirty keeps sorted, joined ranges, at most MAX_DIRTY_RANGES', async (t) => {
  const v = (xs: number[]) => ({ data: Float64Array.from(xs) })
  let r = addDirty(undefined, v([5_000_000, 1_000_000, 2_000_000]), 3, Number)
  t.same(r, [1_000_000, 5_000_000], 'values less than a minute apart: one range')
  r = addDirty(r, v([500_000_000]), 1, Number)
  t.same(r, [1_000_000, 5_000_000, 500_000_000, 500_000_000])
  t.ok(touches(r, 4_000_000, 4_000_000) && touches(r, 0, 1_000_000) && !touches(r, 6_000_000, 499_999_999))
  const many = Array.from({ length: 2000 }, (_, i) => i * 1e9)
  r = addDirty(undefined, v(many), many.length, Number)
  t.ok(r.length / 2 <= MAX_DIRTY_RANGES, 'capped')
  t.ok(many.every((x) => touches(r, x, x)), 'every value still covered')
})
