/**
 * PostgreSQL type OIDs and sizes for the engine's column types, as QuestDB's PGWire reports them
 * (reference §4.5), and the engine type that a parameter OID maps to.
 */
import type { ArrayType, ColumnType, DecimalType } from '../../lib/index.js'
import { ARRAY_MAX_DIMS, PG_ARRAY_TYPES, PG_SCALAR_TYPES, arrayType, isGeohash } from '../../lib/internal.js'
import { numericPgType } from './encode-numeric.js'

const ARRAY_TYPES: readonly ArrayType[] = Array.from({ length: ARRAY_MAX_DIMS }, (_, i) => arrayType(i + 1))

const BUILTINS = [...PG_SCALAR_TYPES, ...PG_ARRAY_TYPES]

/** The OID of the built-in type named `typname`, read from the engine's pg_type table (lib/types/pg-types.ts). */
function oidOf(typname: string): number {
  const t = BUILTINS.find((b) => b.name === typname)
  if (t === undefined) throw new TypeError(`pgwire: no built-in type ${typname}`)
  return t.oid
}

/** Type OIDs used on the wire: the engine's pg_type numbers, by name. */
export const Oid = {
  BOOL: oidOf('bool'), BYTEA: oidOf('bytea'), CHAR: oidOf('char'), NAME: oidOf('name'), INT8: oidOf('int8'), INT2: oidOf('int2'),
  INT4: oidOf('int4'), TEXT: oidOf('text'), OID: oidOf('oid'), FLOAT4: oidOf('float4'), FLOAT8: oidOf('float8'),
  /** PostgreSQL's `unknown` (a literal's type before resolution): on the wire only, not listed in pg_type here */
  UNKNOWN: 705,
  BPCHAR: oidOf('bpchar'), VARCHAR: oidOf('varchar'), DATE: oidOf('date'), TIME: oidOf('time'),
  TIMESTAMP: oidOf('timestamp'), TIMESTAMPTZ: oidOf('timestamptz'), INTERVAL: oidOf('interval'), NUMERIC: oidOf('numeric'), UUID: oidOf('uuid'),
  INT8_ARRAY: oidOf('_int8'), FLOAT8_ARRAY: oidOf('_float8'), VARCHAR_ARRAY: oidOf('_varchar'), TEXT_ARRAY: oidOf('_text'), INT4_ARRAY: oidOf('_int4'),
  BOOL_ARRAY: oidOf('_bool'), INT2_ARRAY: oidOf('_int2'), FLOAT4_ARRAY: oidOf('_float4'), BPCHAR_ARRAY: oidOf('_bpchar'), TIMESTAMP_ARRAY: oidOf('_timestamp'),
  TIMESTAMPTZ_ARRAY: oidOf('_timestamptz'), UUID_ARRAY: oidOf('_uuid'),
} as const

/** How a column type appears in a RowDescription. */
export interface PgType {
  readonly oid: number
  readonly size: number
  readonly modifier: number
  /** false when the value is always sent as text, even when binary is requested (QuestDB's rule) */
  readonly binary: boolean
}

const text = (oid: number): PgType => ({ oid, size: -1, modifier: -1, binary: false })

/** The wire type of each engine type. */
export const PG_TYPES: Readonly<Record<ColumnType, PgType>> = {
  BOOLEAN: { oid: Oid.BOOL, size: 1, modifier: -1, binary: true },
  BYTE: { oid: Oid.INT2, size: 2, modifier: -1, binary: true },
  SHORT: { oid: Oid.INT2, size: 2, modifier: -1, binary: true },
  CHAR: { oid: Oid.BPCHAR, size: -1, modifier: 5, binary: false },
  INT: { oid: Oid.INT4, size: 4, modifier: -1, binary: true },
  LONG: { oid: Oid.INT8, size: 8, modifier: -1, binary: true },
  FLOAT: { oid: Oid.FLOAT4, size: 4, modifier: -1, binary: true },
  DOUBLE: { oid: Oid.FLOAT8, size: 8, modifier: -1, binary: true },
  DATE: { oid: Oid.TIMESTAMP, size: 8, modifier: -1, binary: true },
  TIMESTAMP: { oid: Oid.TIMESTAMP, size: 8, modifier: -1, binary: true },
  TIMESTAMP_NS: { oid: Oid.TIMESTAMP, size: 8, modifier: -1, binary: true },
  STRING: text(Oid.VARCHAR),
  VARCHAR: text(Oid.VARCHAR),
  SYMBOL: text(Oid.VARCHAR),
  LONG256: text(Oid.VARCHAR),
  IPV4: text(Oid.VARCHAR),
  INTERVAL: text(Oid.VARCHAR),
  INTERVAL_NS: text(Oid.VARCHAR),
  NULL: text(Oid.VARCHAR),
  UUID: { oid: Oid.UUID, size: 16, modifier: -1, binary: true },
  BINARY: { oid: Oid.BYTEA, size: -1, modifier: -1, binary: true },
  ...(Object.fromEntries(ARRAY_TYPES.map((t) => [t, { oid: Oid.FLOAT8_ARRAY, size: -1, modifier: -1, binary: true }])) as Record<ArrayType, PgType>),
}

const GEOHASH_PG = text(Oid.VARCHAR)

/** The wire type of an engine type (DECIMAL(p,s) is `numeric` with its type modifier). */
export function pgTypeOf(t: ColumnType): PgType {
  // GEOHASH is varchar, sent as its text even in binary (QuestDB's rule)
  return PG_TYPES[t] ?? (isGeohash(t) ? GEOHASH_PG : numericPgType(t as DecimalType))
}

/**
 * The engine type each declared parameter OID defines, as QuestDB's defineBindVariableType does:
 * int2/int4/int8 → SHORT/INT/LONG, float4/float8 → FLOAT/DOUBLE, bool → BOOLEAN, timestamp(tz)
 * and date → TIMESTAMP (their values arrive as lossless text). Describe of a statement has no
 * values to type the parameters by, so without these `select $1` with postgres.js's int8 or
 * bool parameter was described as varchar. Text, numeric (typed by its value at Bind,
 * numeric-param.ts) and unspecified OIDs are left to the use; undefined when none is defined.
 */
export function declaredEngineTypes(oids: readonly number[]): (ColumnType | undefined)[] | undefined {
  let out: (ColumnType | undefined)[] | undefined
  oids.forEach((oid, i) => {
    const t = DECLARED[oid]
    if (t !== undefined) (out ??= new Array<ColumnType | undefined>(oids.length))[i] = t
  })
  return out
}

const DECLARED: Readonly<Record<number, ColumnType>> = {
  [Oid.INT2]: 'SHORT', [Oid.INT4]: 'INT', [Oid.INT8]: 'LONG', [Oid.FLOAT4]: 'FLOAT', [Oid.FLOAT8]: 'DOUBLE', [Oid.BOOL]: 'BOOLEAN',
  [Oid.TIMESTAMP]: 'TIMESTAMP', [Oid.TIMESTAMPTZ]: 'TIMESTAMP', [Oid.DATE]: 'TIMESTAMP',
}
