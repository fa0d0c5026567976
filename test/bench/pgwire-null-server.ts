/**
 * A PostgreSQL wire protocol server that does no work, for the pgwire benchmark's client
 * ceiling: `node --import tsx test/bench/pgwire-null-server.ts`. It logs every connection in
 * without a password, answers Parse, Bind, Describe, Execute, Close and Sync with their
 * completions (Describe with NoData, Execute with `INSERT 0 1`) and a simple Query with
 * CommandComplete, and runs nothing. Node `pg` sending pipelined INSERTs to it measures how many
 * statements per second the client itself can send and settle on this machine, which bounds
 * what any server can show in the benchmark's single-row INSERT case.
 *
 * Framing and encoding are the adapter's own (`FrontendParser`, `backend-serializer`). Prints
 * `{"port":N}` as its first stdout line; SIGTERM or SIGINT exits.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net'
import * as be from '../../adapters/pgwire/backend-serializer.js'
import { BufferWriter } from '../../adapters/pgwire/buffer-writer.js'
import { FrontendParser } from '../../adapters/pgwire/frontend-parser.js'

function serve(socket: Socket): void {
  const parser = new FrontendParser(1 << 30)
  const w = new BufferWriter()
  let ready = false
  let flushing = false
  // answers go out once per event-loop turn, so a pipeline's answers share a write (as the real
  // server's do); a write per received chunk would cost the client a read per answer
  const flush = (): void => {
    flushing = false
    if (w.length > 0 && !socket.destroyed) socket.write(w.flush())
  }
  socket.setNoDelay(true)
  socket.on('error', () => socket.destroy())
  socket.on('data', (chunk: Buffer) => {
    parser.push(chunk)
    try {
      while (!ready) {
        const p = parser.nextStartup()
        if (p === undefined) return
        if (p.kind !== 'startup') { socket.write('N'); continue }
        be.auth.ok(w)
        be.parameterStatus(w, 'server_version', '15.0')
        be.parameterStatus(w, 'client_encoding', 'UTF8')
        be.backendKeyData(w, 1, 1)
        be.readyForQuery(w, 'I')
        ready = true
      }
      for (let m = parser.next(); m !== undefined; m = parser.next()) {
        switch (m.kind) {
          case 'parse': be.empty(w, '1'); break
          case 'bind': be.empty(w, '2'); break
          case 'describe': be.empty(w, 'n'); break
          case 'execute': be.commandComplete(w, 'INSERT 0 1'); break
          case 'close': be.empty(w, '3'); break
          case 'sync': be.readyForQuery(w, 'I'); break
          case 'query': be.commandComplete(w, 'SELECT 0'); be.readyForQuery(w, 'I'); break
          case 'terminate': socket.end(); return
          default: break
        }
      }
    } finally {
      if (w.length > 0 && !flushing) { flushing = true; setImmediate(flush) }
    }
  })
}

const server = createServer(serve)
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n')
process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))
