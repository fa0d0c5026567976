"""float8[] through psycopg2, psycopg 3 (text and binary) and asyncpg (binary, after its type
introspection): 1-D and 2-D arrays as parameters and results. Run by python-arrays.test.ts."""
import asyncio
from probe import check, need, port

for name in ("psycopg2", "psycopg"):
    mod = need(name)
    conn = mod.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute(f"create table arr_{name} (id int, v double[], m double[][])")
    cur.execute(f"insert into arr_{name} values (%s, %s, %s)", (1, [1.5, None, 3.0], [[1.0, 2.0], [3.0, 4.0]]))
    cur.execute(f"select v, m, array_sum(m) from arr_{name}")
    check(f"{name}_text", list(cur.fetchone()))
    if name == "psycopg":
        bcur = conn.cursor(binary=True)
        bcur.execute(f"select v, m from arr_{name}")
        check(f"{name}_binary", list(bcur.fetchone()))
    conn.close()


async def main():
    asyncpg = need("asyncpg")
    conn = await asyncpg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", database="qdb")
    await conn.execute("create table arr_asyncpg (id int, v double[], m double[][])")
    await conn.execute("insert into arr_asyncpg values ($1, $2, $3)", 1, [1.5, None, 3.0], [[1.0, 2.0], [3.0, 4.0]])
    row = await conn.fetchrow("select v, m, array_position($1, 2.0) p from arr_asyncpg", [1.0, 2.0])
    check("asyncpg", [list(row["v"]), [list(r) for r in row["m"]], row["p"]])
    await conn.close()

asyncio.run(main())
