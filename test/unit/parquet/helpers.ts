/** Shared by the Parquet tests: a table of every storable type, and DuckDB as an independent reader. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { Database } from '../../../lib/index.js'

/** A fresh temporary directory, removed when the test ends. */
export function tmpDir(t: { teardown: (fn: () => void) => void }, prefix = 'epochdb-parquet-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Every storable type, with nulls where the type has them. */
export const ALL_TYPES_DDL = `CREATE TABLE every (b BOOLEAN, bt BYTE, sh SHORT, c CHAR, i INT, l LONG, f FLOAT, d DOUBLE, dt DATE,
  s STRING, v VARCHAR, sy SYMBOL, u UUID, ip IPV4, l256 LONG256, bin BINARY, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY`

/** Fills `every` with `n` random rows (seeded) plus edge values. */
export async function fillEvery(db: Database, n: number): Promise<void> {
  await db.query(ALL_TYPES_DDL)
  await db.query(`INSERT INTO every SELECT rnd_boolean(), rnd_byte(), rnd_short(), rnd_char(), rnd_int(-1000, 1000, 3), rnd_long(-100000000000, 100000000000, 3),
    rnd_float(3), rnd_double(3), rnd_date('2015-01-01', '2030-01-01', 3), rnd_str(1, 8, 3), rnd_varchar(1, 8, 3),
    rnd_symbol(4, 1, 4, 3), CASE WHEN rnd_int(0, 3, 0) = 0 THEN NULL ELSE rnd_uuid4() END, rnd_ipv4('10.0.0.0/8', 3), rnd_long256(), rnd_bin(1, 8, 3),
    timestamp_sequence('2024-01-01', 3600000000L) FROM long_sequence(${n}, 42, 7)`)
  await db.query(`INSERT INTO every VALUES (true, -128, -32768, 'é', 2147483647, 9223372036854775807, 3.4e38, -1.7976931348623157e308,
    '1970-01-01T00:00:00.000Z', 'ünï''cøde ✓', '', 'sym with space', '00000000-0000-0000-0000-000000000001', '255.255.255.255',
    '0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', null, '2099-12-31T23:59:59.999999Z')`)
}

/** Rows of `sql` run by DuckDB (each value as DuckDB's node client gives it). */
export async function duckRows(sql: string): Promise<unknown[][]> {
  const inst = await DuckDBInstance.create(':memory:')
  const con = await inst.connect()
  try {
    return (await con.runAndReadAll(sql)).getRows() as unknown[][]
  } finally {
    con.closeSync()
    inst.closeSync()
  }
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase()

/** DuckDB's query of an exported `every` file, in the canonical forms {@link epochCanonical} gives. */
export function duckEverySql(path: string): string {
  return `SELECT b, bt, sh, c, i, l::VARCHAR, f, d, epoch_ms(dt)::VARCHAR, s, v, sy, u::VARCHAR, ip, hex(l256), hex(bin), epoch_us(ts)::VARCHAR
    FROM read_parquet('${path}') ORDER BY ts`
}

/** One row of EpochDB's `SELECT * FROM every` (JS values) in canonical forms. */
export function epochCanonical(row: readonly unknown[]): unknown[] {
  const [b, bt, sh, c, i, l, f, d, dt, s, v, sy, u, ip, l256, bin, ts] = row
  const ipNum = (x: unknown): number | null => (x === null ? null : (x as string).split('.').reduce((a, p) => a * 256 + Number(p), 0))
  return [b, bt, sh, c === null ? null : (c as string).charCodeAt(0), i, l === null ? null : String(l), f === null ? null : Math.fround(f as number), d,
    dt === null ? null : String((dt as Date).getTime()), s, v, sy, u, ipNum(ip), l256 === null ? null : (l256 as string).slice(2).toUpperCase().padStart(64, '0'),
    bin === null ? null : hex(bin as Uint8Array), String(ts)]
}

/** DuckDB's row, floats narrowed as EpochDB's FLOAT is. */
export function duckCanonical(row: readonly unknown[]): unknown[] {
  return row.map((x, k) => (k === 6 && typeof x === 'number' ? Math.fround(x) : typeof x === 'bigint' ? Number(x) : x))
}
