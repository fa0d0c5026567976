/**
 * The ILP parser alone, in CPU time: a 75,000-row protocol-2 body (test/bench/ilp-body.ts) parsed
 * `rounds` times in 64 KiB chunks, into the rows of a request (RequestRows: the builders the
 * commit appends from) and into a sink that does nothing (the parser's own cost).
 *
 *   node --import tsx test/bench/ilp-parse.ts [rounds=20]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { Catalog } from '../../lib/storage/catalog.js'
import { LineParser, type LineSink } from '../../lib/ilp/line-parser.js'
import { RequestRows } from '../../lib/ilp/request-rows.js'
import { ilpBody } from './ilp-body.js'

const rounds = Number(process.argv[2] ?? 20)
const per = 75_000
const body = ilpBody('cpu', 0, per)
const noop: LineSink = {
  table() {}, column() {}, symbol() {}, float() {}, integer() {}, string() {}, boolean() {}, timestamp() {}, long256() {}, array() {}, decimal() {}, nul() {}, endLine() {}, abortLine() {},
}
const catalog = new Catalog()
const run = (sink: () => LineSink): number => {
  const c0 = process.cpuUsage()
  for (let r = 0; r < rounds; r++) {
    const p = new LineParser(sink(), 'n')
    let tail = 0
    for (let o = 0; o < body.length; o += 65536) {
      const chunk = tail < o ? Buffer.concat([body.subarray(tail, o), body.subarray(o, Math.min(body.length, o + 65536))]) : body.subarray(o, Math.min(body.length, o + 65536))
      const base = tail < o ? tail : o
      tail = base + p.parse(chunk, 0, chunk.length)
    }
  }
  const c = process.cpuUsage(c0)
  return (c.user + c.system) / (rounds * per)
}
for (let k = 0; k < 3; k++) {
  const parser = run(() => noop)
  const rows = run(() => new RequestRows(catalog, { autoCreateTables: true, autoCreateColumns: true, maxNameLength: 127, clock: () => 0 }))
  console.log(`parser alone ${parser.toFixed(3)} µs/row, into the request's builders ${rows.toFixed(3)} µs/row`)
}
