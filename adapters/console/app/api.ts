/// <reference lib="dom" />
/**
 * The console's client of the REST API: /exec pages, /exp links and /imp uploads. Paths are
 * relative to the page, so the console works under a prefix. Every request carries the
 * sign-in's `Authorization` header (auth/authorized-fetch.ts).
 */
import { authorization, authorizedFetch } from './auth/authorized-fetch.js'

import { authHeaders, noteStatus } from './sign-in.js'

/** One result column as /exec describes it. */
export interface ExecColumn {
  readonly name: string
  readonly type: string
}

/** A successful /exec answer with rows. */
export interface ExecRows {
  readonly kind: 'rows'
  readonly query: string
  readonly columns: readonly ExecColumn[]
  readonly timestamp: number
  readonly dataset: readonly (readonly unknown[])[]
  readonly count: number
  readonly timings?: Readonly<Record<string, number>>
}

/** A statement without rows (DDL, INSERT, UPDATE). */
export interface ExecDone {
  readonly kind: 'done'
  readonly message: string
}

/** A failed statement: the server's message and the 0-based position in the statement. */
export interface ExecError {
  readonly kind: 'error'
  readonly message: string
  readonly position: number
}

/** What /exec answered. */
export type ExecResult = ExecRows | ExecDone | ExecError

/** Options of one /exec call. */
export interface ExecOptions {
  /** 1-based inclusive row range */
  readonly lo?: number
  readonly hi?: number
  readonly count?: boolean
  readonly timings?: boolean
  readonly signal?: AbortSignal
}

/** GET /exec. Network failures and aborts reject; SQL errors resolve as {@link ExecError}. */
export async function exec(query: string, o: ExecOptions = {}): Promise<ExecResult> {
  const p = new URLSearchParams({ query })
  if (o.lo !== undefined && o.hi !== undefined) p.set('limit', `${o.lo},${o.hi}`)
  if (o.count === true) p.set('count', 'true')
  if (o.timings === true) p.set('timings', 'true')
  const res = await authorizedFetch(`exec?${p.toString()}`, { signal: o.signal ?? null, headers: { Accept: 'application/json', ...authHeaders() } })
  const text = await res.text()
  noteStatus(res.status, text)
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    return { kind: 'error', message: `HTTP ${res.status}: ${text.slice(0, 500)}`, position: -1 }
  }
  if (typeof body.error === 'string') {
    const pos = Number(body.position ?? body.errorPos ?? -1)
    return { kind: 'error', message: body.error, position: Number.isFinite(pos) ? pos : -1 }
  }
  if (Array.isArray(body.columns)) {
    return {
      kind: 'rows', query, columns: body.columns as ExecColumn[], timestamp: Number(body.timestamp ?? -1),
      dataset: (body.dataset ?? []) as unknown[][], count: Number(body.count ?? 0),
      ...(body.timings !== undefined ? { timings: body.timings as Record<string, number> } : {}),
    }
  }
  if (typeof body.ddl === 'string') return { kind: 'done', message: `DDL ${body.ddl}` }
  if (typeof body.dml === 'string') return { kind: 'done', message: body.updated !== undefined ? `${String(body.updated)} rows updated` : `DML ${body.dml}` }
  return { kind: 'done', message: text.slice(0, 200) }
}

/** Rows of a query as plain arrays (small meta queries: tables(), table_columns()). */
export async function rowsOf(query: string): Promise<unknown[][]> {
  const r = await exec(query)
  if (r.kind === 'error') throw new Error(r.message)
  return r.kind === 'rows' ? r.dataset.map((row) => [...row]) : []
}

/** The /exp URL that downloads `query` as CSV. */
export function expUrl(query: string): string {
  return `exp?${new URLSearchParams({ query, filename: 'result' }).toString()}`
}

/**
 * Downloads `url` (an /exp link) with the sign-in credentials, which a plain link cannot carry:
 * fetched, then saved from a blob URL.
 */
export async function downloadWithCredentials(url: string, filename: string): Promise<void> {
  const res = await authorizedFetch(url, { headers: authHeaders() })
  if (!res.ok) { const body = await res.text(); noteStatus(res.status, body); throw new Error(`HTTP ${res.status}: ${body.slice(0, 300)}`) }
  const href = URL.createObjectURL(await res.blob())
  const a = document.createElement('a')
  a.href = href
  a.download = filename
  a.click()
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}

/** The /imp JSON answer (or a failure status). */
export interface ImportSummary {
  readonly status: string
  readonly location?: string
  readonly rowsImported?: number
  readonly rowsRejected?: number
  readonly columns?: readonly { readonly name: string; readonly type: string; readonly errors: number }[]
}

/** POST /imp with an upload progress callback (0..1). */
export async function importCsv(file: File, table: string, onProgress: (fraction: number) => void): Promise<ImportSummary> {
  const auth = await authorization()
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `imp?${new URLSearchParams({ name: table, fmt: 'json' }).toString()}`)
    if (auth !== undefined) xhr.setRequestHeader('Authorization', auth) // OIDC
    else for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v)
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(e.loaded / e.total) }
    xhr.onload = () => {
      noteStatus(xhr.status, xhr.responseText)
      try {
        resolve(JSON.parse(xhr.responseText) as ImportSummary)
      } catch {
        resolve({ status: `HTTP ${xhr.status}: ${xhr.responseText.slice(0, 300)}` })
      }
    }
    xhr.onerror = () => reject(new Error('the server did not answer the upload'))
    const form = new FormData()
    form.append('data', file, file.name)
    xhr.send(form)
  })
}
