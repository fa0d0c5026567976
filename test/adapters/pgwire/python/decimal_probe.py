"""DECIMAL (numeric, OID 1700) with Python clients: psycopg 3 in text and binary (results and
%b parameters as decimal.Decimal), SQLAlchemy reflection of a DECIMAL column, and pandas
read_sql / to_sql with a Numeric column. Run by decimal-python.test.ts with the server's port."""
import decimal

from probe import check, error_of, need, port

psycopg = need("psycopg")
sa = need("sqlalchemy")
need("psycopg2")
D = decimal.Decimal

conn = psycopg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb", autocommit=True)
conn.execute("create table dec_py (id int, price decimal(18,4), wide decimal(40,12))")
conn.execute("insert into dec_py values (1, 12.3400m, 123456789012345678901234.000000000001m),"
             " (2, -0.0500m, -0.5m), (3, 0m, null), (4, 99999999999999.9999m, 10000m)")
for mode, binary in (("text", False), ("binary", True)):
    cur = conn.cursor(binary=binary)
    cur.execute("select price, wide from dec_py order by id")
    check(f"{mode}_formats", [cur.pgresult.fformat(k) for k in range(cur.pgresult.nfields)])
    check(f"{mode}_rows", cur.fetchall())
    check(f"{mode}_types", [cur.description[0].type_code, cur.description[0].precision, cur.description[0].scale])

# binary numeric parameters (%b): exact Decimals in, exact Decimals out
cur = conn.cursor(binary=True)
for ph in ("%b", "%t"):
    conn.execute(f"insert into dec_py values (10, {ph}, {ph})", (D("-1234.5678"), D("0.000000000001")))
cur.execute("select price, wide from dec_py where id = 10")
check("param_rows", cur.fetchall())
cur.execute("select %b::decimal(30,6) + 1m", (D("12345678901234567890.123456"),))
check("param_wide", cur.fetchone())
check("overflow", error_of(lambda: conn.execute("select %b::decimal(4,2)", (D("123.45"),))))

engine = sa.create_engine(f"postgresql+psycopg2://admin:quest@127.0.0.1:{port()}/qdb")
insp = sa.inspect(engine)
check("reflect", [[c["name"], repr(c["type"])] for c in insp.get_columns("dec_py")])

try:
    import pandas as pd
except ImportError as e:
    check("pandas", f"missing: {e}")
else:
    check("pandas", "present")
    # read_sql turns Decimals into float64 by default (coerce_float), as with PostgreSQL; without it they stay exact
    df = pd.read_sql("select id, price from dec_py where id < 10 order by id", engine)
    exact = pd.read_sql("select id, price from dec_py where id < 10 order by id", engine, coerce_float=False)
    check("read_sql", [str(df["price"].dtype), df["price"].tolist(), exact["price"].tolist()])
    # to_sql with a Numeric column: SQLAlchemy's CREATE TABLE says NUMERIC(12, 2). psycopg2 inlines a
    # Decimal as a bare number (a DOUBLE literal, which QuestDB does not convert to DECIMAL implicitly),
    # so values go as text, which converts exactly
    out = pd.DataFrame({"id": [1, 2], "amount": ["1.05", "-20.10"]})
    written = out.to_sql("pd_dec", engine, index=False, if_exists="replace", dtype={"amount": sa.Numeric(12, 2)})
    back = pd.read_sql("select id, amount from pd_dec order by id", engine, coerce_float=False)
    check("to_sql", [written, back["amount"].tolist(), [[c["name"], repr(c["type"])] for c in sa.inspect(engine).get_columns("pd_dec")]])
    refused = pd.DataFrame({"id": [3], "amount": [D("1.05")]})
    check("to_sql_decimal_objects", error_of(lambda: refused.to_sql("pd_dec", engine, index=False, if_exists="append")))
