/**
 * The standalone server's InfluxDB Line Protocol keys (QuestDB's names, env `QDB_LINE_*`),
 * turned into the options of ILP over HTTP and over TCP.
 */
import type { LinePartitionBy, TimeUnit } from '../../lib/index.js'

type Kind = 'bind' | 'bool' | 'string' | 'int' | 'size'

/** The ILP keys with their kind and default. */
export const ILP_KEYS: Readonly<Record<string, { kind: Kind; def: string | undefined }>> = {
  'line.http.enabled': { kind: 'bool', def: 'true' },
  'line.http.ping.version': { kind: 'string', def: 'v2.7.4' },
  'line.http.max.recv.buffer.size': { kind: 'size', def: '64M' },
  'epochdb.line.http.max.request.size': { kind: 'size', def: '64M' },
  // EpochDB's default is off (QuestDB's on): a second, unauthenticated write port is opt-in
  'line.tcp.enabled': { kind: 'bool', def: 'false' },
  'line.tcp.net.bind.to': { kind: 'bind', def: '0.0.0.0:9009' },
  'line.tcp.net.connection.limit': { kind: 'int', def: '256' },
  'line.tcp.auth.db.path': { kind: 'string', def: undefined },
  'line.tcp.commit.interval.default': { kind: 'int', def: '2000' },
  'line.tcp.timestamp': { kind: 'string', def: 'n' },
  'line.tcp.max.recv.buffer.size': { kind: 'size', def: '64M' },
  'line.default.partition.by': { kind: 'string', def: 'DAY' },
  'line.auto.create.new.tables': { kind: 'bool', def: 'true' },
  'line.auto.create.new.columns': { kind: 'bool', def: 'true' },
  'line.timestamp.default.column.type': { kind: 'string', def: 'TIMESTAMP' },
  'cairo.max.uncommitted.rows': { kind: 'int', def: '500000' },
}

/** How the loader reads a key (already checked against its kind). */
export interface IlpKeyReader {
  str(key: string): string | undefined
  bool(key: string): boolean
  int(key: string): number | undefined
  size(key: string): number | undefined
}

/** The resolved ILP configuration. */
export interface IlpConfig {
  readonly http: {
    readonly enabled: boolean
    readonly pingVersion: string
    readonly maxLineBytes: number
    readonly maxRequestBytes: number
    readonly autoCreateTables: boolean
    readonly autoCreateColumns: boolean
    readonly partitionBy: LinePartitionBy
    readonly defaultTimestampType: 'TIMESTAMP' | 'TIMESTAMP_NS'
  }
  readonly tcp: {
    readonly enabled: boolean
    readonly authDbPath: string | undefined
    readonly maxConnections: number
    readonly commitInterval: number
    readonly maxUncommittedRows: number
    readonly precision: TimeUnit
    readonly maxLineBytes: number
    readonly autoCreateTables: boolean
    readonly autoCreateColumns: boolean
    readonly partitionBy: LinePartitionBy
    readonly defaultTimestampType: 'TIMESTAMP' | 'TIMESTAMP_NS'
  }
}

const PARTITIONS: readonly LinePartitionBy[] = ['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']
const UNITS: Readonly<Record<string, TimeUnit>> = { n: 'n', ns: 'n', u: 'u', us: 'u', ms: 'ms', s: 's', m: 'm', h: 'h' }

/** The ILP options from the keys. An unknown partitioning falls back to DAY and an unknown unit to ns, as in QuestDB. */
export function ilpConfig(r: IlpKeyReader): IlpConfig {
  const p = (r.str('line.default.partition.by') ?? 'DAY').toUpperCase() as LinePartitionBy
  const partitionBy = PARTITIONS.includes(p) ? p : 'DAY'
  // TIMESTAMP or TIMESTAMP_NS in any case; anything else is TIMESTAMP, as in QuestDB
  const defaultTimestampType = (r.str('line.timestamp.default.column.type') ?? '').toUpperCase() === 'TIMESTAMP_NS' ? 'TIMESTAMP_NS' : 'TIMESTAMP'
  const common = { autoCreateTables: r.bool('line.auto.create.new.tables'), autoCreateColumns: r.bool('line.auto.create.new.columns'), partitionBy, defaultTimestampType } as const
  return {
    http: {
      enabled: r.bool('line.http.enabled'), pingVersion: r.str('line.http.ping.version')!,
      maxLineBytes: r.size('line.http.max.recv.buffer.size')!, maxRequestBytes: r.size('epochdb.line.http.max.request.size')!, ...common,
    },
    tcp: {
      enabled: r.bool('line.tcp.enabled'), authDbPath: r.str('line.tcp.auth.db.path'), maxConnections: r.int('line.tcp.net.connection.limit')!,
      commitInterval: Math.max(1, r.int('line.tcp.commit.interval.default')!), maxUncommittedRows: Math.max(1, r.int('cairo.max.uncommitted.rows')!),
      precision: UNITS[r.str('line.tcp.timestamp') ?? 'n'] ?? 'n', maxLineBytes: r.size('line.tcp.max.recv.buffer.size')!, ...common,
    },
  }
}
