/**
 * PostgreSQL type OIDs and sizes for the engine's column types, as QuestDB's PGWire reports them
 * (reference §4.5), and the engine type that a parameter OID maps to.
 */
import { type ArrayType, type ColumnType, ARRAY_MAX_DIMS, arrayType } from '../../lib/index.js'

const ARRAY_TYPES: readonly ArrayType[] = Array.from({ length: ARRAY_MAX_DIMS }, (_, i) => arrayType(i + 1))

/** Type OIDs used on the wire. */
export const Oid = {
  BOOL: 16, BYTEA: 17, CHAR: 18, NAME: 19, INT8: 20, INT2: 21, INT4: 23, TEXT: 25, OID: 26,
  FLOAT4: 700, FLOAT8: 701, UNKNOWN: 705, BPCHAR: 1042, VARCHAR: 1043, DATE: 1082, TIME: 1083,
  TIMESTAMP: 1114, TIMESTAMPTZ: 1184, INTERVAL: 1186, NUMERIC: 1700, UUID: 2950,
  INT8_ARRAY: 1016, FLOAT8_ARRAY: 1022, VARCHAR_ARRAY: 1015, TEXT_ARRAY: 1009, INT4_ARRAY: 1007,
  BOOL_ARRAY: 1000, INT2_ARRAY: 1005, FLOAT4_ARRAY: 1021, BPCHAR_ARRAY: 1014, TIMESTAMP_ARRAY: 1115,
  TIMESTAMPTZ_ARRAY: 1185, UUID_ARRAY: 2951,
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
  STRING: text(Oid.VARCHAR),
  VARCHAR: text(Oid.VARCHAR),
  SYMBOL: text(Oid.VARCHAR),
  LONG256: text(Oid.VARCHAR),
  IPV4: text(Oid.VARCHAR),
  INTERVAL: text(Oid.VARCHAR),
  NULL: text(Oid.VARCHAR),
  UUID: { oid: Oid.UUID, size: 16, modifier: -1, binary: true },
  BINARY: { oid: Oid.BYTEA, size: -1, modifier: -1, binary: true },
  ...(Object.fromEntries(ARRAY_TYPES.map((t) => [t, { oid: Oid.FLOAT8_ARRAY, size: -1, modifier: -1, binary: true }])) as Record<ArrayType, PgType>),
}

/**
 * The engine types a Parse's declared parameter OIDs give the parameters, or undefined when none
 * does. Only timestamps: their values arrive as text (lossless to the microsecond), and without
 * the declared type `select $1` would answer text where PostgreSQL answers a timestamp. Numbers
 * and booleans already carry their type in their decoded value, and text is left to the use.
 */
export function declaredEngineTypes(oids: readonly number[]): (ColumnType | undefined)[] | undefined {
  let out: (ColumnType | undefined)[] | undefined
  oids.forEach((oid, i) => {
    if (oid === Oid.TIMESTAMP || oid === Oid.TIMESTAMPTZ || oid === Oid.DATE) (out ??= new Array<ColumnType | undefined>(oids.length))[i] = 'TIMESTAMP'
  })
  return out
}
