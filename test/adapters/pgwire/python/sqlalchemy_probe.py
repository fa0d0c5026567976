"""SQLAlchemy (psycopg2 dialect) against the pgwire adapter: the dialect's connect-time queries,
reflection through inspect() and MetaData, and pandas read_sql through the engine when pandas
is installed. Run by tools.test.ts with the server's port."""
from probe import check, need, port

sa = need("sqlalchemy")
need("psycopg2")

engine = sa.create_engine(f"postgresql+psycopg2://admin:quest@127.0.0.1:{port()}/qdb")

with engine.connect() as c:
    # the dialect's first connect ran select pg_catalog.version(), select current_schema() and
    # show standard_conforming_strings; its state shows their answers
    d = engine.dialect
    check("dialect", [list(d.server_version_info), d.default_schema_name, d._backslash_escapes])
    check("connect_queries", [c.exec_driver_sql(q).scalar() for q in ("select current_schema()", "show standard_conforming_strings")])
    check("isolation", c.get_isolation_level())
    check("query", [list(r) for r in c.execute(sa.text("select i, s, ts from t where i = :i"), {"i": 3})])

insp = sa.inspect(engine)
check("table_names", insp.get_table_names())
check("schema_names", insp.get_schema_names())
check("has_table", [insp.has_table("t"), insp.has_table("nosuch")])
check("columns", [[col["name"], repr(col["type"]), col["nullable"], col["default"]] for col in insp.get_columns("t")])
check("pk", insp.get_pk_constraint("t"))
check("indexes", insp.get_indexes("t"))
check("foreign_keys", insp.get_foreign_keys("t"))
check("unique", insp.get_unique_constraints("t"))
check("checks", insp.get_check_constraints("t"))
check("comment", insp.get_table_comment("t"))
check("views", insp.get_view_names())

meta = sa.MetaData()
table = sa.Table("t", meta, autoload_with=engine)
check("reflected", [c.name for c in table.columns])
with engine.connect() as c:
    check("core_select", [list(r) for r in c.execute(sa.select(table.c.sym, table.c.v).where(table.c.i == 3))])

try:
    import pandas as pd
except ImportError as e:
    check("pandas", f"missing: {e}")
else:
    check("pandas", "present")
    df = pd.read_sql("select ts, sym, v, i, l from t order by ts", engine)
    check("read_sql", [list(df.columns), [str(x) for x in df.dtypes], df.iloc[0].tolist()[1:], int(df["l"].isna().sum())])
    df = pd.read_sql(sa.text("select x, x * 1.5 y from long_sequence(10) where x > :lo"), engine, params={"lo": 7})
    check("read_sql_params", df.values.tolist())
    df = pd.read_sql_table("t", engine)
    check("read_sql_table", [list(df.columns), len(df)])
    # to_sql: SQLAlchemy's CREATE TABLE (TIMESTAMP WITHOUT TIME ZONE, TEXT, FLOAT(53), BIGINT),
    # then its INSERTs; replace drops and recreates, append adds
    out = pd.DataFrame({"ts": pd.date_range("2024-01-01", periods=3, freq="h"), "sym": ["a", "b", "a"], "v": [1.5, 2.5, 3.5], "n": [1, 2, 3]})
    written = [out.to_sql("pd_out", engine, index=False, if_exists="replace"), out.to_sql("pd_out", engine, index=False, if_exists="append")]
    back = pd.read_sql("select * from pd_out", engine)
    check("to_sql", [written, [str(x) for x in back.dtypes], len(back), float(back["v"].sum()), int(back["n"].sum())])
