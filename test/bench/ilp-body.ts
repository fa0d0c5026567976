/**
 * The ILP benches' request bodies: `count` 10-column rows (2 SYMBOL tags, 6 DOUBLE as protocol-2
 * binary doubles, 1 LONG, the designated timestamp in µs) as the Node client writes them with
 * protocol version 2, built straight into one buffer (building must not cost more than parsing).
 *
 * Not a test: a helper of test/bench/ilp.ts and test/bench/ilp-memory.ts.
 */

const SYMS = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'META', 'TSLA', 'AMD']

/** A body of rows `from .. from + count - 1` of `table`, timestamps `ts0 + i * step` µs. */
export function ilpBody(table: string, from: number, count: number, ts0 = 1_700_000_000_000_000, step = 1): Buffer<ArrayBuffer> {
  const buf = Buffer.allocUnsafe(count * (table.length + 200))
  let p = 0
  const text = (s: string): void => { p += buf.write(s, p, 'latin1') }
  const dbl = (name: string, v: number): void => { text(name); buf[p++] = 61; buf[p++] = 61; buf[p++] = 0x10; buf.writeDoubleLE(v, p); p += 8 }
  for (let k = 0; k < count; k++) {
    const i = from + k
    text(`${table},sym=${SYMS[i & 7]},venue=${i & 1 ? 'X' : 'Y'} `)
    dbl('bid', 100 + (i % 100) / 8); buf[p++] = 44
    dbl('ask', 100.5 + (i % 100) / 8); buf[p++] = 44
    dbl('bid_sz', i % 1000); buf[p++] = 44
    dbl('ask_sz', (i * 7) % 1000); buf[p++] = 44
    dbl('last', 100.25); buf[p++] = 44
    dbl('vwap', 100.125)
    text(`,seq=${i}i ${ts0 + i * step}t\n`)
  }
  return buf.subarray(0, p)
}
