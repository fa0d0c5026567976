/**
 * zstd for the Parquet export, from the optional package `@hpcc-js/wasm-zstd` (the reference
 * zstd compiled to WebAssembly: no native build step). It is not a dependency of EpochDB: it is
 * imported on first use, and when it is not installed `compression_codec=zstd` is refused with
 * 0A000 saying so. Reading zstd needs nothing extra (hyparquet-compressors decompresses it).
 */
import { SqlError, SqlState } from '../errors.js'

/** The package's name (an application that wants zstd exports installs it). */
export const ZSTD_PACKAGE = '@hpcc-js/wasm-zstd'

/** What EpochDB uses of the package. */
interface ZstdModule {
  Zstd: { load(): Promise<{ compress(data: Uint8Array, level?: number): Uint8Array }> }
}

let loading: Promise<(b: Uint8Array, level: number) => Uint8Array> | undefined

/**
 * A zstd compressor (`level` 1-22; 3 is zstd's default), or a SqlError 0A000 when the optional
 * package is not installed. The WebAssembly module is loaded once per process.
 */
export async function zstdCompressor(): Promise<(b: Uint8Array, level: number) => Uint8Array> {
  loading ??= (async () => {
    let mod: ZstdModule
    try {
      // a variable specifier: the package is optional, so neither tsc nor a bundler resolves it
      const name: string = ZSTD_PACKAGE
      mod = (await import(name)) as ZstdModule
    } catch {
      loading = undefined
      throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED,
        `compression codec zstd is not supported for writing: it needs the optional package ${ZSTD_PACKAGE} (npm install ${ZSTD_PACKAGE}); use snappy, gzip, brotli or uncompressed`, 0)
    }
    const z = await mod.Zstd.load()
    // the module's compress returns a view of its own heap for some builds: copy it out
    return (b: Uint8Array, level: number): Uint8Array => z.compress(b, level).slice()
  })()
  return loading
}
