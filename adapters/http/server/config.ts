/**
 * The standalone server's configuration with QuestDB's key names: defaults, then a
 * `server.conf` file, then `QDB_*` environment variables. Unknown keys are warned about; bad
 * values stop start-up with a {@link ConfigError} naming the key and the source.
 */
import { envName, parseProperties } from './properties.js'

/** A `host:port` listen address. */
export interface BindAddress {
  readonly host: string
  readonly port: number
}

/** The resolved configuration. */
export interface ServerConfig {
  readonly http: BindAddress
  readonly httpEnabled: boolean
  readonly pg: BindAddress
  readonly pgEnabled: boolean
  readonly cairoRoot: string
  readonly httpUser: string | undefined
  readonly httpPassword: string | undefined
  readonly pgUser: string
  readonly pgPassword: string
  readonly readOnly: boolean
  readonly maxResponseRows: number | undefined
  readonly keepAliveTimeoutMs: number
  readonly maxQueryLength: number
  /** `query.timeout` (alias `query.timeout.sec`): milliseconds after which a query ends with 57014; 0 = none */
  readonly queryTimeoutMs: number
}

/** A configuration value that cannot be used. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

type Kind = 'bind' | 'bool' | 'string' | 'int'

/** Keys the server reads, with their kind and default (QuestDB's `http.net.bind.to` is an alias of `http.bind.to`). */
export const KEYS: Readonly<Record<string, { kind: Kind; def: string | undefined }>> = {
  'http.bind.to': { kind: 'bind', def: '0.0.0.0:9000' },
  'http.net.bind.to': { kind: 'bind', def: undefined },
  'http.enabled': { kind: 'bool', def: 'true' },
  'pg.net.bind.to': { kind: 'bind', def: '0.0.0.0:8812' },
  'pg.enabled': { kind: 'bool', def: 'true' },
  'cairo.root': { kind: 'string', def: './qdb_root' },
  'http.user': { kind: 'string', def: undefined },
  'http.password': { kind: 'string', def: undefined },
  'pg.user': { kind: 'string', def: 'admin' },
  'pg.password': { kind: 'string', def: 'quest' },
  'http.security.readonly': { kind: 'bool', def: 'false' },
  'http.security.max.response.rows': { kind: 'int', def: undefined },
  'http.keep-alive.timeout': { kind: 'int', def: '5' },
  'http.request.header.buffer.size': { kind: 'int', def: '65536' },
  'query.timeout': { kind: 'string', def: '60s' },
  'query.timeout.sec': { kind: 'string', def: undefined },
}

/** Resolves the configuration from a server.conf text (or none) and an environment. */
export function loadConfig(confText: string | undefined, env: Readonly<Record<string, string | undefined>>, warn: (msg: string) => void): ServerConfig {
  const values = new Map<string, { value: string; source: string }>()
  if (confText !== undefined) {
    const { entries, errors } = parseProperties(confText)
    if (errors.length > 0) throw new ConfigError(`server.conf: ${errors.join('; ')}`)
    for (const e of entries) {
      if (KEYS[e.key] === undefined) { warn(`server.conf line ${e.line}: unknown key '${e.key}' ignored`); continue }
      values.set(e.key, { value: e.value, source: `server.conf line ${e.line}` })
    }
  }
  const byEnv = new Map(Object.keys(KEYS).map((k) => [envName(k), k]))
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('QDB_') || value === undefined) continue
    const key = byEnv.get(name)
    if (key === undefined) { warn(`environment: unknown variable ${name} ignored`); continue }
    values.set(key, { value, source: `environment ${name}` })
  }
  const raw = (key: string): { value: string; source: string } | undefined => values.get(key) ?? (KEYS[key]!.def === undefined ? undefined : { value: KEYS[key]!.def!, source: 'default' })
  const str = (key: string): string | undefined => raw(key)?.value
  const bool = (key: string): boolean => {
    const r = raw(key)!
    if (r.value !== 'true' && r.value !== 'false') throw bad(key, r, 'true or false')
    return r.value === 'true'
  }
  const int = (key: string): number | undefined => {
    const r = raw(key)
    if (r === undefined) return undefined
    if (!/^\d+$/.test(r.value)) throw bad(key, r, 'a non-negative integer')
    return Number(r.value)
  }
  const bind = (key: string): BindAddress => {
    const r = raw(key)!
    const m = /^(.*):(\d{1,5})$/.exec(r.value)
    if (m === null || Number(m[2]) > 65535 || m[1]!.length === 0) throw bad(key, r, 'host:port with a port 0-65535')
    return { host: m[1]!, port: Number(m[2]) }
  }
  // a duration with a unit (500ms, 60s, 5m, 1h); a bare number is in `bare` units; 0 = none
  const duration = (key: string, bare: 'ms' | 's'): number => {
    const r = raw(key)!
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(r.value.trim())
    if (m === null) throw bad(key, r, 'a duration such as 60s, 500ms, 5m or 0')
    return Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? bare) as 'ms' | 's' | 'm' | 'h'])
  }
  const httpUser = str('http.user')
  const httpPassword = str('http.password')
  if ((httpUser === undefined) !== (httpPassword === undefined)) throw new ConfigError('http.user and http.password must be set together')
  return {
    http: values.has('http.bind.to') || !values.has('http.net.bind.to') ? bind('http.bind.to') : bind('http.net.bind.to'),
    httpEnabled: bool('http.enabled'),
    pg: bind('pg.net.bind.to'),
    pgEnabled: bool('pg.enabled'),
    cairoRoot: str('cairo.root')!,
    httpUser, httpPassword,
    pgUser: str('pg.user')!,
    pgPassword: str('pg.password')!,
    readOnly: bool('http.security.readonly'),
    maxResponseRows: int('http.security.max.response.rows'),
    keepAliveTimeoutMs: int('http.keep-alive.timeout')! * 1000,
    maxQueryLength: int('http.request.header.buffer.size')!,
    queryTimeoutMs: values.has('query.timeout') || !values.has('query.timeout.sec')
      ? duration('query.timeout', 'ms') : duration('query.timeout.sec', 's'),
  }
}

function bad(key: string, r: { value: string; source: string }, expected: string): ConfigError {
  return new ConfigError(`bad value for ${key} (${r.source}): '${r.value}', expected ${expected}`)
}
