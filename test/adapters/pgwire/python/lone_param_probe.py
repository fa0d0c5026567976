"""A lone parameter (`select %s`) with each Python driver: it comes back typed as the driver
bound it. psycopg2 inlines values as literals (an int is INT/LONG, a float or Decimal a DOUBLE
literal, as QuestDB types them); psycopg 3 declares int2/int8/float8/bool/numeric, in text and
binary (%b) form, and gets that type back — a Decimal as an exact numeric with its own scale.
Run by lone-param.test.ts with the server's port."""
import decimal

from probe import check, need, port

psycopg = need("psycopg")
psycopg2 = need("psycopg2")
D = decimal.Decimal
VALUES = [1, 2**40, 1.5, D("1.50"), D("-0.001"), D("1E-12"), D("12E2"), D("123456789012345678901234.5"), True]

c2 = psycopg2.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb")
c2.autocommit = True
cur = c2.cursor()
out = []
for v in VALUES:
    cur.execute("select %s", (v,))
    out.append([cur.fetchone()[0], cur.description[0].type_code])
check("psycopg2", out)

c3 = psycopg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb", autocommit=True)
for ph in ("%t", "%b"):
    out = []
    for v in VALUES + [D("NaN")]:
        cur = c3.execute(f"select {ph} as x", (v,))
        out.append([cur.fetchone()[0], cur.description[0].type_code])
    check(f"psycopg3{ph}", out)
# a numeric parameter the statement types keeps that type (compared with a DECIMAL(5,2) here)
cur = c3.execute("select x from long_sequence(3) where cast(x as decimal(5,2)) > %s", (D("1.5"),))
check("psycopg3_used", cur.fetchall())
# a numeric parameter beside an integer: a fraction makes it a DECIMAL the LONG widens to (it was
# 22P02, '1.5' read as a LONG); a whole number stays the integer, so LIMIT takes it
out = []
for ph in ("%t", "%b"):
    out.append(c3.execute(f"select count() from long_sequence(3) where x > {ph}", (D("1.5"),)).fetchone()[0])
    out.append(c3.execute(f"select count() from long_sequence(3) where cast(x as int) = {ph}", (D("2.0"),)).fetchone()[0])
    cur = c3.execute(f"select x + {ph} from long_sequence(2)", (D("0.25"),))
    out.append([[str(r[0]) for r in cur.fetchall()], cur.description[0].type_code])
    out.append(len(c3.execute(f"select x from long_sequence(5) limit {ph}", (D("2"),)).fetchall()))
check("psycopg3_beside_integer", out)

# asyncpg sends every parameter untyped (OID 0) and encodes by the type the server describes.
# QuestDB 9 describes a lone `$1` as varchar (an undefined bind variable in a projection), so
# asyncpg itself refuses a Decimal there before sending anything; text is accepted, and a cast
# (QuestDB's compat suite writes `cast($[2] AS DECIMAL(18, 3))`) makes it numeric.
asyncpg = need("asyncpg")
import asyncio  # noqa: E402
from probe import async_error_of  # noqa: E402


async def apg():
    conn = await asyncpg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", database="qdb")
    out = []
    st = await conn.prepare("select $1")
    out.append([t.name for t in st.get_parameters()])
    out.append(await async_error_of(st.fetchval(D("1.50"))))
    out.append(await st.fetchval("1.50"))
    for sql in ("select $1::decimal(10,2)", "select cast($1 as decimal(18,3))"):
        st = await conn.prepare(sql)
        out.append([[t.name for t in st.get_parameters()], await st.fetchval(D("1.50"))])
    await conn.close()
    check("asyncpg_lone_numeric", out)

asyncio.run(apg())
