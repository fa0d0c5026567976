/**
 * Calls to the identity provider with a deadline and a size cap: a slow provider answers
 * "unavailable" after `timeoutMs`, a body larger than `maxBytes` is cut off and refused, so a
 * misbehaving provider can neither hang requests nor fill memory.
 */
import { request as httpsRequest } from 'node:https'
import { unavailable } from './errors.js'
import type { TlsTrust } from './options.js'

/** What one provider call returned. */
export interface ProviderResponse {
  readonly status: number
  readonly contentType: string
  readonly body: string
}

/** Limits of provider calls. */
export interface FetchLimits {
  /** `acl.oidc.http.timeout`: milliseconds until the whole answer (headers and body) is in */
  readonly timeoutMs: number
  /** `acl.oidc.response.buffer.size`: bytes of body accepted */
  readonly maxBytes: number
  /** `acl.oidc.tls.*`: a private CA or validation off, for https URLs */
  readonly tls?: TlsTrust | undefined
}

/** The limits of a guard's provider calls. */
export function limitsOf(o: { readonly httpTimeoutMs: number; readonly responseBufferSize: number; readonly tls: TlsTrust | undefined }): FetchLimits {
  return { timeoutMs: o.httpTimeoutMs, maxBytes: o.responseBufferSize, tls: o.tls }
}

/**
 * GETs (or POSTs) `url` and reads the body up to `limits.maxBytes`. Network errors, the
 * deadline and an oversized body throw an `unavailable` {@link OidcError}.
 */
export async function providerFetch(url: string, limits: FetchLimits, init: { headers?: Record<string, string>; method?: string; body?: string } = {}): Promise<ProviderResponse> {
  if (limits.tls !== undefined && url.startsWith('https:')) return httpsFetch(url, limits, limits.tls, init)
  const signal = AbortSignal.timeout(limits.timeoutMs)
  let res: Response
  try {
    res = await fetch(url, { ...init, signal, redirect: 'manual' })
  } catch (e) {
    throw unavailable(signal.aborted ? `no answer from ${url} within ${limits.timeoutMs} ms` : `${url}: ${causeText(e)}`, e)
  }
  const declared = Number(res.headers.get('content-length') ?? '-1')
  if (declared > limits.maxBytes) {
    await res.body?.cancel().catch(() => undefined)
    throw unavailable(`${url} answered ${declared} bytes, more than acl.oidc.response.buffer.size (${limits.maxBytes})`)
  }
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    const reader = res.body?.getReader()
    while (reader !== undefined) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > limits.maxBytes) {
        await reader.cancel().catch(() => undefined)
        throw unavailable(`${url} answered more than acl.oidc.response.buffer.size (${limits.maxBytes} bytes)`)
      }
      chunks.push(value)
    }
  } catch (e) {
    if ((e as { failure?: string }).failure !== undefined) throw e
    throw unavailable(signal.aborted ? `no answer from ${url} within ${limits.timeoutMs} ms` : `${url}: ${causeText(e)}`, e)
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.concat(chunks).toString('utf8') }
}

/** {@link providerFetch} over node:https with the configured trust (fetch cannot take a CA). */
function httpsFetch(url: string, limits: FetchLimits, tls: TlsTrust, init: { headers?: Record<string, string>; method?: string; body?: string }): Promise<ProviderResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...init.headers, ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }) }
    const req = httpsRequest(url, { method: init.method ?? 'GET', headers, ...tls })
    const fail = (e: unknown): void => { clearTimeout(timer); req.destroy(); reject(e) }
    const timer = setTimeout(() => fail(unavailable(`no answer from ${url} within ${limits.timeoutMs} ms`)), limits.timeoutMs)
    req.on('error', (e) => fail(unavailable(`${url}: ${causeText({ cause: e })}`, e)))
    req.on('response', (res) => {
      const declared = Number(res.headers['content-length'] ?? '-1')
      if (declared > limits.maxBytes) { fail(unavailable(`${url} answered ${declared} bytes, more than acl.oidc.response.buffer.size (${limits.maxBytes})`)); return }
      const chunks: Buffer[] = []
      let total = 0
      res.on('data', (c: Buffer) => {
        total += c.length
        if (total > limits.maxBytes) { fail(unavailable(`${url} answered more than acl.oidc.response.buffer.size (${limits.maxBytes} bytes)`)); return }
        chunks.push(c)
      })
      res.on('error', (e) => fail(unavailable(`${url}: ${causeText({ cause: e })}`, e)))
      res.on('end', () => {
        clearTimeout(timer)
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') })
      })
    })
    req.end(init.body)
  })
}

/** Parses a JSON object body, or throws `unavailable` naming what came instead. */
export function jsonObject(r: ProviderResponse, what: string): Record<string, unknown> {
  let v: unknown
  try {
    v = JSON.parse(r.body)
  } catch {
    throw unavailable(`${what} is not JSON (content-type ${r.contentType || 'none'}, starts ${JSON.stringify(r.body.slice(0, 40))})`)
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw unavailable(`${what} is not a JSON object`)
  return v as Record<string, unknown>
}

function causeText(e: unknown): string {
  const c = (e as { cause?: { code?: string; message?: string } }).cause
  return c?.code ?? c?.message ?? (e as Error).message
}
