"""DECIMAL (numeric, OID 1700) with Python clients: psycopg 3 in text and binary (results and
%b parameters as decimal.Decimal), psycopg2's inlined Decimal parameters, asyncpg's binary numeric
parameters, SQLAlchemy reflection of a DECIMAL column, and pandas read_sql / to_sql with a Numeric
column and with Decimal objects. Run by decimal-python.test.ts with the server's port."""
import asyncio
import decimal

from probe import check, error_of, need, port

psycopg = need("psycopg")
sa = need("sqlalchemy")
psycopg2 = need("psycopg2")
asyncpg = need("asyncpg")
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

# psycopg2 inlines a Decimal as a bare number (`1.05`, `-20.10`) and NaN as 'NaN'::numeric: they
# land in DECIMAL columns exactly (PostgreSQL's numeric literal), and compare exactly in WHERE
c2 = psycopg2.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb")
c2.autocommit = True
cur2 = c2.cursor()
cur2.execute("create table dec_p2 (id int, price decimal(18,4), wide decimal(40,12), x double)")
cur2.executemany("insert into dec_p2 values (%s, %s, %s, %s)", [
    (1, D("1.05"), D("123456789012345678901234.000000000001"), D("2.5")),
    (2, D("-20.1"), D("-0.000000000001"), None), (3, D("NaN"), None, None)])
cur2.execute("select id, price, wide, x from dec_p2 order by id")
check("p2_rows", cur2.fetchall())
cur2.execute("select id from dec_p2 where price = %s or wide = %s", (D("1.0500"), D("-1E-12")))
check("p2_where", cur2.fetchall())
check("p2_overflow", error_of(lambda: cur2.execute("insert into dec_p2 (id, price) values (%s, %s)", (4, D("123456789012345.5")))))


async def with_asyncpg():
    # asyncpg encodes by the type Describe reports: numeric for a DECIMAL column's parameter
    c = await asyncpg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", database="qdb")
    try:
        await c.execute("create table dec_apg (id int, price decimal(18,4), wide decimal(40,12))")
        await c.execute("insert into dec_apg values ($1, $2, $3)", 1, D("-1234.5678"), D("12345678901234567890123.123456789012"))
        await c.executemany("insert into dec_apg (id, price) values ($1, $2)", [(2, D("0.0001")), (3, D("7"))])
        check("apg_rows", [list(r) for r in await c.fetch("select id, price, wide from dec_apg order by id")])
        check("apg_where", [r[0] for r in await c.fetch("select id from dec_apg where price > $1 order by id", D("0"))])
        # a parameter cast to DECIMAL is described as numeric too (QuestDB's compat suite does this)
        check("apg_cast", await c.fetchval("select cast($1 as decimal(10,2)) + 1m", D("1.10")))
    finally:
        await c.close()

asyncio.run(with_asyncpg())

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
    # Decimal objects: psycopg2 inlines them as bare numbers, which a DECIMAL column takes exactly
    objs = pd.DataFrame({"id": [3, 4], "amount": [D("1.05"), D("-0.01")]})
    appended = objs.to_sql("pd_dec", engine, index=False, if_exists="append")
    back = pd.read_sql("select id, amount from pd_dec order by id", engine, coerce_float=False)
    check("to_sql_decimal_objects", [appended, back["amount"].tolist()])
    # a new table from Decimal objects, typed Numeric(12, 2) by to_sql's dtype, read back exact
    fresh = pd.DataFrame({"amount": [D("99999999.99"), D("0.10"), None]})
    created = fresh.to_sql("pd_dec2", engine, index=False, if_exists="replace", dtype={"amount": sa.Numeric(12, 2)})
    back = pd.read_sql("select amount from pd_dec2 order by amount", engine, coerce_float=False)
    check("to_sql_new_decimal", [created, back["amount"].tolist()])
