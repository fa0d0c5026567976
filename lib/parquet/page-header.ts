/**
 * Parquet page headers in Thrift's compact protocol, for the pages EpochDB encodes itself
 * (plain-chunk.ts): a dictionary page and a data page v2, nothing else. Field ids and enum
 * values are those of parquet-format's `parquet.thrift` (PageHeader, DictionaryPageHeader,
 * DataPageHeaderV2; PageType, Encoding).
 */

/** Parquet's PageType values. */
export const PAGE_TYPE = { DICTIONARY_PAGE: 2, DATA_PAGE_V2: 3 } as const
/** Parquet's Encoding values used here. */
export const ENCODING = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 } as const

const I32 = 5
const STRUCT = 12
const BOOL_FALSE = 2

/** What a data page v2 header says. */
export interface DataPageV2 {
  readonly numValues: number
  readonly numNulls: number
  readonly numRows: number
  readonly encoding: number
  readonly defLength: number
  readonly repLength: number
  readonly compressed: boolean
}

class Out {
  readonly bytes: number[] = []
  private last: number[] = [0]

  varint(v: number): void {
    let x = v >>> 0
    while (x > 0x7f) { this.bytes.push((x & 0x7f) | 0x80); x >>>= 7 }
    this.bytes.push(x)
  }

  field(id: number, type: number): void {
    const delta = id - this.last[this.last.length - 1]!
    if (delta > 0 && delta <= 15) this.bytes.push((delta << 4) | type)
    else { this.bytes.push(type); this.varint(((id << 1) ^ (id >> 15)) & 0xffff) }
    this.last[this.last.length - 1] = id
  }

  i32(id: number, v: number): void {
    this.field(id, I32)
    this.varint((v << 1) ^ (v >> 31))
  }

  begin(id: number): void {
    this.field(id, STRUCT)
    this.last.push(0)
  }

  end(): void {
    this.bytes.push(0)
    this.last.pop()
  }
}

/** The header of a page of `uncompressed` / `compressed` bytes (after the header). */
export function pageHeader(uncompressed: number, compressed: number, page: { dictionary: number } | { data: DataPageV2 }): Uint8Array {
  const o = new Out()
  o.i32(1, 'dictionary' in page ? PAGE_TYPE.DICTIONARY_PAGE : PAGE_TYPE.DATA_PAGE_V2)
  o.i32(2, uncompressed)
  o.i32(3, compressed)
  if ('dictionary' in page) {
    o.begin(7)
    o.i32(1, page.dictionary)
    o.i32(2, ENCODING.PLAIN)
    o.end()
  } else {
    const d = page.data
    o.begin(8)
    o.i32(1, d.numValues)
    o.i32(2, d.numNulls)
    o.i32(3, d.numRows)
    o.i32(4, d.encoding)
    o.i32(5, d.defLength)
    o.i32(6, d.repLength)
    if (!d.compressed) o.field(7, BOOL_FALSE)
    o.end()
  }
  o.end()
  return Uint8Array.from(o.bytes)
}
