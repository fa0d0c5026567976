/**
 * The keywords of the SQL dialect and how they may be used as names.
 *
 * Every word the grammar matches literally is a keyword token (type = the upper-case word).
 * Most keywords are *soft*: QuestDB users name columns `timestamp`, `symbol`, `value`, `first`,
 * `partition`, ... so the grammar accepts a soft keyword wherever a name is expected. Only the
 * {@link RESERVED_KEYWORDS} can never be names (quote them: `"select"`).
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** Words that are never identifiers (they would make the grammar ambiguous). */
export const RESERVED_KEYWORDS: readonly string[] = [
  'ALL', 'ALTER', 'AND', 'AS', 'ASOF', 'BETWEEN', 'BY', 'CASE', 'CAST', 'CREATE', 'CROSS',
  'DISTINCT', 'DROP', 'ELSE', 'END', 'EXCEPT', 'EXISTS', 'EXPLAIN', 'FALSE', 'FROM', 'FULL',
  'GROUP', 'ILIKE', 'IN', 'INNER', 'INSERT', 'INTERSECT', 'INTO', 'IS', 'JOIN', 'LEFT', 'LIKE',
  'LIMIT', 'LT', 'NAN', 'NOT', 'NULL', 'ON', 'OR', 'ORDER', 'OUTER', 'OVER', 'RIGHT', 'SELECT',
  'SET', 'SPLICE', 'THEN', 'TRUE', 'UNBOUNDED', 'UNION', 'UPDATE', 'VALUES', 'WHEN', 'WHERE',
  'WITH',
]

/** Keywords that are also valid names (columns, tables, aliases). */
export const SOFT_KEYWORDS: readonly string[] = [
  'ABORT', 'ADD', 'ALIGN', 'ASC', 'ATOMIC', 'BEGIN', 'BYPASS', 'CACHE', 'CALENDAR', 'CANCEL', 'CAPACITY',
  'CHARACTERISTICS', 'CLOSE', 'COLUMN', 'COLUMNS', 'COMMIT', 'COMPILE', 'COPY', 'CUMULATIVE', 'CURRENT',
  'DECLARE', 'DEDUP', 'DELETE', 'DESC', 'DISABLE', 'ENABLE', 'EXCLUDE', 'EXTRACT', 'FETCH',
  'FILL', 'FIRST', 'FOLLOWING', 'FOR', 'FORMAT', 'GROUPS', 'HORIZON', 'IF', 'IGNORE', 'INCLUDE', 'INDEX', 'KEYS', 'LAST',
  'LATEST', 'LATERAL', 'LIST', 'MATERIALIZED', 'MOVE', 'NO', 'NOCACHE', 'NULLS', 'OBSERVATION', 'OFFSET',
  'OTHERS', 'PARAM', 'PARAMETERS', 'PARTITION', 'PARTITIONS', 'PIVOT', 'PRECEDING', 'PREVAILING', 'QUERY', 'RANGE', 'RENAME',
  'RESPECT', 'ROLLBACK', 'ROW', 'ROWS', 'SAMPLE', 'SESSION', 'SHOW', 'START', 'STEP', 'TABLE', 'TABLES',
  'TIME', 'TIMESTAMP', 'TO', 'TOLERANCE', 'TRANSACTION', 'TRUNCATE', 'TTL', 'TYPE', 'UPSERT',
  'USER', 'USERS', 'VIEW', 'WAL', 'WINDOW', 'WORK', 'ZONE',
  // the second words of PostgreSQL type names (`double precision`, `character varying`,
  // `timestamp without time zone`)
  'PRECISION', 'VARYING', 'WITHOUT',
  // access control (GRANT, CREATE SERVICE ACCOUNT, ALTER GROUP ... WITH EXTERNAL ALIAS, ...)
  'ACCOUNT', 'ACCOUNTS', 'ALIAS', 'ASSUME', 'EXIT', 'EXTERNAL', 'GRANT', 'OPTION', 'OWNED', 'PASSWORD',
  'PERMISSIONS', 'REFRESH', 'REMOVE', 'REVOKE', 'SERVICE', 'TOKEN', 'VERIFICATION',
  // DROP TABLE t CASCADE PERMISSIONS
  'CASCADE',
]

/** All keywords, upper-case (for the console's completion and highlighting). */
export const KEYWORDS: readonly string[] = [...RESERVED_KEYWORDS, ...SOFT_KEYWORDS].sort()

/**
 * Soft keywords that may not be an *implicit* alias (`FROM t sample` is not an alias: SAMPLE BY
 * follows), because a clause of the enclosing statement can start with them.
 */
export const NOT_BARE_ALIAS: ReadonlySet<string> = new Set([
  'ALIGN', 'ASC', 'DESC', 'EXCLUDE', 'FILL', 'IGNORE', 'LATEST', 'NULLS', 'PARTITION', 'RESPECT',
  'SAMPLE', 'TIMESTAMP', 'TOLERANCE', 'WINDOW', 'TO', 'ROWS', 'RANGE', 'GROUPS', 'CUMULATIVE',
  'PRECEDING', 'FOLLOWING', 'CURRENT', 'INDEX', 'CAPACITY', 'CACHE', 'NOCACHE', 'DEDUP', 'TTL',
  'WAL', 'BYPASS', 'PRECISION', 'VARYING', 'WITHOUT',
  // `t PIVOT (...)`, `sum(x) FOR col IN (...)`
  'PIVOT', 'FOR', 'LATERAL',
  // `FROM t HORIZON JOIN m ...` (INCLUDE / PREVAILING / STEP never follow a FROM item or select item)
  'HORIZON',
])

/**
 * Soft keywords that begin a statement; the query shorthand (`trades WHERE ...` meaning
 * `SELECT * FROM trades WHERE ...`) cannot use them as its table name (`commit` is a statement).
 */
export const STATEMENT_STARTERS: ReadonlySet<string> = new Set([
  'ABORT', 'BEGIN', 'CLOSE', 'COMMIT', 'COMPILE', 'COPY', 'DECLARE', 'DELETE', 'FETCH', 'MOVE', 'RENAME',
  'ROLLBACK', 'SHOW', 'START', 'TRUNCATE',
  'ADD', 'ASSUME', 'EXIT', 'GRANT', 'REMOVE', 'REVOKE',
])
