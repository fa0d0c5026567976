/**
 * A raw protocol client for byte-level tests: frontend messages built with node-postgres's
 * `pg-protocol` serializer, backend messages decoded by its parser — an independent oracle for
 * the bytes the adapter produces.
 */
import { connect, type Socket } from 'node:net'
import { createRequire } from 'node:module'
import type { BackendMessage } from 'pg-protocol/dist/messages.js'

// the CommonJS build: tap's TypeScript loader trips over pg-protocol's ESM wrapper
const protocol = createRequire(import.meta.url)('pg-protocol') as typeof import('pg-protocol')

/** pg-protocol's frontend message serializer. */
export const serialize = protocol.serialize
const parse = protocol.parse

/** A connected raw client. */
export class WireClient {
  readonly messages: BackendMessage[] = []
  private waiters: (() => void)[] = []
  closed = false

  private constructor(readonly socket: Socket) {
    void parse(socket, (m) => {
      this.messages.push(m)
      for (const w of this.waiters.splice(0)) w()
    })
    socket.on('close', () => {
      this.closed = true
      for (const w of this.waiters.splice(0)) w()
    })
    socket.on('error', () => undefined)
  }

  /** Opens a socket to 127.0.0.1:`port` (from `localAddress`, e.g. 127.0.0.2, to act as another client address). */
  static async open(port: number, localAddress?: string): Promise<WireClient> {
    const socket = connect({ port, host: '127.0.0.1', ...(localAddress === undefined ? {} : { localAddress }) })
    await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject) })
    return new WireClient(socket)
  }

  /** Opens and logs in as admin/quest (cleartext). */
  static async login(port: number): Promise<WireClient> {
    const c = await WireClient.open(port)
    c.send(serialize.startup({ user: 'admin', database: 'qdb' }))
    await c.until('authenticationCleartextPassword')
    c.send(serialize.password('quest'))
    await c.until('readyForQuery')
    c.messages.length = 0
    return c
  }

  /** Sends raw bytes. */
  send(b: Buffer): void {
    this.socket.write(b)
  }

  /** Waits until a message named `name` has arrived (or the socket closed); returns it. */
  async until(name: string, timeoutMs = 5000): Promise<BackendMessage | undefined> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const m = this.messages.find((x) => x.name === name)
      if (m !== undefined || this.closed) return m
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${name}; got ${this.messages.map((x) => x.name).join(',')}`)
      await new Promise<void>((resolve) => { this.waiters.push(resolve); setTimeout(resolve, 50) })
    }
  }

  /** Takes and clears the messages received so far, after waiting for `name`. */
  async take(name = 'readyForQuery'): Promise<BackendMessage[]> {
    await this.until(name)
    return this.messages.splice(0)
  }

  /** Waits for the server to close the socket. */
  async closedByServer(timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    return this.closed
  }

  /** Closes the socket. */
  end(): void {
    this.socket.destroy()
  }
}
