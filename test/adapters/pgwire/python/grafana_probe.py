"""The queries Grafana's PostgreSQL data source sends at connect and for its table / column
pickers (the current SQL builder and the older query builder), sent through psycopg2 as
Grafana's Go driver sends them: plain SQL text. Run by tools.test.ts with the server's port."""
from probe import check, error_of, need, port

psycopg2 = need("psycopg2")

conn = psycopg2.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb")
conn.autocommit = True
cur = conn.cursor()


def run(name, sql):
    def go():
        cur.execute(sql)
        check(name, [[d.name for d in cur.description], cur.fetchall()])
    err = error_of(go)
    if err is not None:
        check(name, {"error": err})


# schemas of search_path, from string_to_array / generate_series / array subscripts
SEARCH_PATH = """
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )"""
OLD_SEARCH_PATH = SEARCH_PATH.replace("quote_ident(table_schema)", "table_schema")
HIDDEN = "('information_schema', 'pg_catalog', '_timescaledb_cache', '_timescaledb_catalog', '_timescaledb_internal', 'timescaledb_information')"


def columns_of(table):
    return f"""SELECT quote_ident(column_name) AS "column", data_type AS "type"
    FROM information_schema.columns
    WHERE
      CASE WHEN array_length(parse_ident('{table}'),1) = 2
        THEN quote_ident(table_schema) = (parse_ident('{table}'))[1]
          AND quote_ident(table_name) = (parse_ident('{table}'))[2]
        ELSE quote_ident(table_name) = '{table}'
          AND {SEARCH_PATH}
      END"""


# at connect: version and TimescaleDB detection
run("version", "SELECT current_setting('server_version_num')::int/100 as version")
run("timescaledb", "SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'")
# SQL builder: schema, table and column pickers
run("schemas", f"""SELECT schema_name AS "name" FROM information_schema.schemata
    WHERE schema_name NOT IN {HIDDEN} ORDER BY schema_name""")
run("tables_in_schema", """SELECT quote_ident(table_name) AS "table" FROM information_schema.tables
      WHERE quote_ident(table_schema) = 'public' ORDER BY 1""")
run("tables", f"""SELECT
    CASE WHEN {SEARCH_PATH}
      THEN quote_ident(table_name)
      ELSE quote_ident(table_schema) || '.' || quote_ident(table_name)
    END AS "table"
    FROM information_schema.tables
    WHERE quote_ident(table_schema) NOT IN {HIDDEN}
    ORDER BY CASE WHEN {SEARCH_PATH} THEN 0 ELSE 1 END, 1""")
run("tables_v10", f"""select quote_ident(table_name) as "table" from information_schema.tables
    where quote_ident(table_schema) not in {HIDDEN}
      and table_type = 'BASE TABLE' and {SEARCH_PATH}""")
run("columns", columns_of("t"))
run("columns_qualified", columns_of("public.t"))
run("columns_unknown", columns_of("nosuch"))
# the older query builder
run("old_tables", f"SELECT quote_ident(table_name) FROM information_schema.tables WHERE {OLD_SEARCH_PATH} ORDER BY table_name")
run("old_time_columns", f"""SELECT quote_ident(column_name) FROM information_schema.columns WHERE {OLD_SEARCH_PATH} AND table_name = 't'
    AND data_type IN ('timestamp without time zone','timestamp with time zone','bigint','integer','double precision','real') ORDER BY column_name""")
run("old_metric_columns", f"""SELECT quote_ident(column_name) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 't'
    AND data_type IN ('text','character','character varying') ORDER BY column_name""")
run("old_datatype", f"SELECT udt_name FROM information_schema.columns WHERE {OLD_SEARCH_PATH} AND table_name = 't' AND column_name = 'v'")
run("old_aggregates", """SELECT DISTINCT proname FROM pg_aggregate INNER JOIN pg_proc ON pg_aggregate.aggfnoid = pg_proc.oid
    INNER JOIN pg_type ON pg_type.oid=pg_proc.prorettype WHERE pronargs=1 AND typname IN ('float8') AND aggkind='n' ORDER BY 1""")
conn.close()
