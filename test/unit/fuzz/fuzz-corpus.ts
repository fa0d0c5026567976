/**
 * The fuzz corpus: a small schema and valid statements over it, plus the token pool that
 * mutations draw from. Statements stay away from DROP/TRUNCATE so the schema survives.
 */

/** Statements that set up the schema every fuzz run starts from. */
export const SCHEMA: readonly string[] = [
  'CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, x INT, v DOUBLE, s STRING, b BOOLEAN, l LONG) TIMESTAMP(ts) PARTITION BY DAY',
  "INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 'a', 1, 1.5, 'one', true, 10), ('2024-01-01T00:00:01Z', 'b', 2, 2.5, 'two', false, 20), ('2024-01-02T00:00:00Z', 'a', NULL, NULL, NULL, false, NULL)",
  'CREATE TABLE u (ts TIMESTAMP, sym SYMBOL, bid DOUBLE) TIMESTAMP(ts)',
  "INSERT INTO u VALUES ('2024-01-01T00:00:00Z', 'a', 1.0), ('2024-01-01T00:00:02Z', 'b', 2.0)",
  'CREATE TABLE k (id INT, name STRING)',
  "INSERT INTO k VALUES (1, 'x'), (2, 'y')",
]

/** Valid statements that mutations start from. */
export const CORPUS: readonly string[] = [
  'SELECT * FROM t',
  'SELECT ts, sym, x FROM t WHERE x > 1',
  'SELECT sym, avg(v), min(v), max(v), count() FROM t',
  'SELECT sym, sum(x) FROM t GROUP BY sym ORDER BY sym',
  'SELECT x * 2 + 1, -v, s || \'!\' FROM t',
  "SELECT * FROM t WHERE ts IN '2024-01-01'",
  "SELECT * FROM t WHERE ts BETWEEN '2024-01-01' AND '2024-01-02' AND sym = 'a'",
  'SELECT ts, count() FROM t SAMPLE BY 1h',
  'SELECT ts, sum(v) FROM t SAMPLE BY 1d FILL(NULL)',
  'SELECT ts, avg(v) FROM t SAMPLE BY 1m FILL(PREV) ALIGN TO CALENDAR',
  'SELECT * FROM t LATEST ON ts PARTITION BY sym',
  'SELECT t.ts, t.sym, u.bid FROM t ASOF JOIN u ON (sym)',
  'SELECT t.ts, u.bid FROM t LT JOIN u ON (sym) TOLERANCE 1s',
  'SELECT * FROM t SPLICE JOIN u ON (sym)',
  'SELECT k.name, t.x FROM t JOIN k ON t.x = k.id',
  'SELECT k.name, t.x FROM k LEFT JOIN t ON t.x = k.id ORDER BY k.name',
  'SELECT x FROM t UNION ALL SELECT id FROM k',
  'SELECT x FROM t EXCEPT SELECT id FROM k',
  'SELECT * FROM t ORDER BY v DESC LIMIT 2',
  'SELECT * FROM t LIMIT -1',
  'SELECT * FROM t LIMIT 1, 2',
  'SELECT DISTINCT sym FROM t',
  'SELECT CASE WHEN x > 1 THEN \'big\' ELSE \'small\' END FROM t',
  'SELECT cast(x AS LONG), x::double, cast(ts AS LONG) FROM t',
  'SELECT coalesce(x, 0), nullif(x, 1), abs(v), round(v, 1) FROM t',
  "SELECT length(s), upper(s), substring(s, 1, 2) FROM t WHERE s LIKE 'o%'",
  "SELECT timestamp_floor('1h', ts), dateadd('d', 1, ts), extract(year FROM ts) FROM t",
  'SELECT x, row_number() OVER (PARTITION BY sym ORDER BY ts) FROM t',
  'SELECT * FROM (SELECT sym, count() c FROM t) WHERE c > 1',
  'WITH q AS (SELECT * FROM t WHERE x IS NOT NULL) SELECT count() FROM q',
  'SELECT * FROM long_sequence(5)',
  'SELECT rnd_double(), rnd_int(1, 10, 0), rnd_symbol(\'p\', \'q\') FROM long_sequence(3)',
  'SELECT * FROM generate_series(1, 5)',
  'SELECT * FROM tables()',
  "SELECT * FROM table_columns('t')",
  'SHOW TABLES',
  'SHOW COLUMNS FROM t',
  'EXPLAIN SELECT * FROM t WHERE x = 1',
  "INSERT INTO t VALUES ('2024-01-03T00:00:00Z', 'c', 3, 3.5, 'three', true, 30)",
  "INSERT INTO k (id, name) VALUES (3, 'z')",
  'INSERT INTO k SELECT id + 10, name FROM k WHERE id < 3',
  "UPDATE k SET name = 'w' WHERE id = 1",
  'CREATE TABLE IF NOT EXISTS f1 (a INT, b STRING)',
  'ALTER TABLE k ADD COLUMN IF NOT EXISTS extra DOUBLE',
  'select 1',
  "select '2024-01-01'::timestamp + 1",
  'select 1 / 0, 1.0 / 0, -2147483648, 9223372036854775807L',
  't',
  '(t WHERE x = 1)',
]

/** Tokens that mutations insert or substitute. */
export const TOKEN_POOL: readonly string[] = [
  'SELECT', 'FROM', 'WHERE', 'GROUP', 'BY', 'ORDER', 'LIMIT', 'SAMPLE', 'FILL', 'LATEST', 'ON', 'PARTITION',
  'ASOF', 'LT', 'SPLICE', 'JOIN', 'LEFT', 'CROSS', 'UNION', 'ALL', 'EXCEPT', 'INTERSECT', 'AND', 'OR', 'NOT',
  'IN', 'IS', 'NULL', 'BETWEEN', 'LIKE', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'AS', 'CAST', 'DISTINCT',
  'OVER', 'WITH', 'ALIGN', 'TO', 'CALENDAR', 'TIME', 'ZONE', 'TIMESTAMP', 'INSERT', 'INTO', 'VALUES',
  '(', ')', ',', ';', '.', '*', '+', '-', '/', '%', '=', '<', '>', '<=', '>=', '!=', '<>', '||', '::', '~',
  '0', '1', '-1', '2147483648', '9223372036854775808', '1e308', '0.5', "'a'", "''", "'2024-01-01'", "'x;1d'",
  't', 'u', 'k', 'ts', 'sym', 'x', 'v', 's', 'b', 'l', 'count()', 'sum', 'avg(', 'now()', 'long_sequence(',
  '1h', '1d', '-5m', '0s', 'true', 'false', '$1', '"q"', '[', ']', '@', '#', '\\', '\u00e9',
]
