/**
 * The page compressors of the Parquet export, by codec: one function from a page's bytes to its
 * compressed bytes. Shared by the writer's thread and the compression workers
 * (worker.ts), so a page compresses to the same bytes wherever it is compressed.
 */
import { brotliCompressSync, constants as zconst, gzipSync } from 'node:zlib'
import { SqlError, SqlState } from '../errors.js'
import { snappyCompress } from './snappy-compress.js'

/** Codecs the `compression_codec` option names (QuestDB's list). */
export const CODECS = ['uncompressed', 'snappy', 'gzip', 'brotli', 'zstd', 'lz4_raw'] as const
/** One of {@link CODECS}. */
export type ParquetCodec = (typeof CODECS)[number]

/** A zstd compressor (zstd.ts), loaded before the codec is chosen. */
export type ZstdCompress = (b: Uint8Array, level: number) => Uint8Array

/** Parquet's name of a codec (the column metadata's `codec`) and its compressor (none: UNCOMPRESSED). */
export interface PageCodec {
  readonly name: 'UNCOMPRESSED' | 'SNAPPY' | 'GZIP' | 'BROTLI' | 'ZSTD'
  readonly compress: ((b: Uint8Array) => Uint8Array) | undefined
}

/** The compressor of `codec` at `level` (gzip 0-9, brotli 0-11, zstd 1-22; undefined: the codec's default). */
export function pageCodec(codec: ParquetCodec, level: number | undefined, zstd: ZstdCompress | undefined): PageCodec {
  switch (codec) {
    case 'snappy': return { name: 'SNAPPY', compress: snappyCompress }
    case 'uncompressed': return { name: 'UNCOMPRESSED', compress: undefined }
    case 'gzip': return { name: 'GZIP', compress: (b) => gzipSync(b, level === undefined ? {} : { level }) }
    case 'brotli': return {
      name: 'BROTLI',
      compress: (b) => brotliCompressSync(b, { params: { [zconst.BROTLI_PARAM_QUALITY]: level ?? 4, [zconst.BROTLI_PARAM_SIZE_HINT]: b.length } }),
    }
    case 'zstd': {
      if (zstd === undefined) throw new SqlError(SqlState.INTERNAL_ERROR, 'the zstd compressor is not loaded', 0)
      const z = zstd
      const l = level === undefined || level < 1 ? 3 : level
      return { name: 'ZSTD', compress: (b) => z(b, l) }
    }
    case 'lz4_raw':
      throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `compression codec ${codec} is not supported for writing; use snappy, gzip, brotli, zstd or uncompressed`, 0)
  }
}
