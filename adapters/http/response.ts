/**
 * Writing responses: QuestDB's content types, small whole bodies, and {@link ChunkWriter} for
 * streamed bodies with back-pressure.
 */
import type { ServerResponse } from 'node:http'
import { ByteWriter } from '../../lib/internal.js'
import { jsonString } from './json/json-string.js'

/** `Content-Type` of JSON answers. */
export const JSON_TYPE = 'application/json; charset=utf-8'
/** `Content-Type` of plain-text answers. */
export const TEXT_TYPE = 'text/plain; charset=utf-8'
/** `Content-Type` of CSV exports. */
export const CSV_TYPE = 'text/csv; charset=utf-8'

/** Sends a whole body with `status` and `type`. */
export function sendBody(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) { res.end(); return }
  // answering before the request body was read: close, so no client reuses a half-read connection
  const unread = res.req !== undefined && !res.req.complete ? { Connection: 'close' } : {}
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...unread, ...headers })
  res.end(body)
}

/** Sends a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: string): void {
  sendBody(res, status, JSON_TYPE, body)
}

/** `{"query":..,"error":..,"position":..}` (position omitted when undefined), as QuestDB writes it. */
export function errorBody(query: string, message: string, position: number | undefined): string {
  const pos = position === undefined ? '' : `,"position":${position}`
  return `{"query":${jsonString(query)},"error":${jsonString(message)}${pos}}`
}

/** Bytes buffered before a streamed response writes a chunk. */
export const CHUNK_BYTES = 64 * 1024

/**
 * Buffers a streamed body and writes it in chunks, waiting for 'drain' when the socket is
 * full. Headers go out with the first chunk, so an error before that can still be answered
 * with a proper status. Rows are encoded straight into {@link ChunkWriter.out} (a reused
 * buffer, see `json/json-rows.ts` and `csv/csv-rows.ts`); each chunk written is a copy.
 */
export class ChunkWriter {
  /** the body bytes not yet written */
  readonly out = new ByteWriter(16 * 1024)
  /** bytes written so far (after headers) */
  written = 0

  constructor(
    private readonly res: ServerResponse,
    private readonly status: number,
    private readonly headers: Record<string, string>,
  ) {}

  /** True once the headers (and some body) were sent. */
  get started(): boolean {
    return this.res.headersSent
  }

  /** True when the client went away. */
  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded
  }

  /** Appends text to the body. */
  push(s: string): void {
    this.out.text(s)
  }

  /** True when enough is buffered for a chunk. */
  get full(): boolean {
    return this.out.pos >= CHUNK_BYTES
  }

  /** Writes the buffer as one chunk; resolves when the socket can take more (or closed). */
  async flush(): Promise<void> {
    if (this.out.pos === 0 || this.closed) return
    if (!this.res.headersSent) this.res.writeHead(this.status, this.headers)
    const chunk = this.out.take()
    this.written += chunk.length
    if (!this.res.write(chunk)) await drained(this.res)
  }

  /** Ends the response with what is buffered (a single-chunk body gets a Content-Length). */
  end(): void {
    if (this.closed) return
    const body = this.out.take()
    if (!this.res.headersSent) {
      this.res.writeHead(this.status, { ...this.headers, 'Content-Length': String(body.length) })
    }
    this.res.end(body)
  }

  /** Drops what is buffered (before an error answer replaces it). */
  discard(): void {
    this.out.pos = 0
  }
}

/** Resolves on 'drain' or 'close', whichever comes first. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
