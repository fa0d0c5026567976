/**
 * The Parquet reader's Snappy decompressor: our own decoder in WebAssembly (snappy-decode.wat,
 * generated into snappy-decode-wasm.ts), which moves literals and copies 8 bytes at a time, in
 * place of hysnappy's (1.3–1.6x its speed on Parquet pages of doubles and timestamps, the bulk of
 * a `read_parquet` scan's CPU). {@link readCompressors} is hyparquet-compressors' set with it.
 *
 * Every malformed stream is an Error (the readers turn it into their file's error): a length that
 * disagrees with the page header, a literal or copy running past the input or the output, a copy
 * reaching before the output's start, or output left short.
 */
import { compressors } from 'hyparquet-compressors'
import { SNAPPY_DECODE_WASM } from './snappy-decode-wasm.js'

/** The bytes the decoder may write past the output's end (and read past the input's). */
const SLACK = 16
const ERRORS: Readonly<Record<number, string>> = {
  [-3]: 'premature end of input',
  [-4]: 'output overrun',
  [-5]: 'copy offset out of range',
  [-6]: 'output shorter than its length',
}

interface Decoder {
  readonly memory: WebAssembly.Memory
  readonly decode: (src: number, srcEnd: number, dst: number, dstLen: number) => number
}

let decoder: Decoder | undefined

function load(): Decoder {
  if (decoder !== undefined) return decoder
  const bytes = Uint8Array.from(atob(SNAPPY_DECODE_WASM), (c) => c.charCodeAt(0))
  const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports
  return decoder = { memory: exports.memory as WebAssembly.Memory, decode: exports.decode as Decoder['decode'] }
}

/** The `outputLength` bytes the Snappy block `input` holds, or an Error when it is malformed. */
export function snappyDecode(input: Uint8Array, outputLength: number): Uint8Array {
  return snappyDecodeView(input, outputLength).slice()
}

/**
 * {@link snappyDecode}'s bytes as a view of the decoder's memory, valid only until the next call
 * (which overwrites them, and may move the memory): for a caller that copies the values out at
 * once (a flat data page placed into its vector), saving a copy and an allocation per page.
 */
export function snappyDecodeView(input: Uint8Array, outputLength: number): Uint8Array {
  const d = load()
  // the preamble: the uncompressed length as a varint
  let p = 0
  let length = 0
  for (let shift = 0; ; shift += 7) {
    if (p >= input.length || shift > 28) throw new RangeError('invalid snappy length header')
    const b = input[p++]!
    length += (b & 0x7f) * 2 ** shift
    if (b < 0x80) break
  }
  if (length !== outputLength) throw new RangeError(`snappy length ${length} is not the page's ${outputLength}`)
  const inLength = input.length - p
  const out = (inLength + SLACK + 7) & ~7
  const need = out + outputLength + SLACK
  if (d.memory.buffer.byteLength < need) d.memory.grow(Math.ceil((need - d.memory.buffer.byteLength) / 65536))
  const m = new Uint8Array(d.memory.buffer)
  m.set(input.subarray(p), 0)
  const r = d.decode(0, inLength, out, outputLength)
  if (r !== 0) throw new RangeError(`failed to uncompress snappy data: ${ERRORS[r] ?? r}`)
  return m.subarray(out, out + outputLength)
}

/** hyparquet-compressors' decompressors, Snappy by {@link snappyDecode}. */
export const readCompressors: typeof compressors = { ...compressors, SNAPPY: snappyDecode }
