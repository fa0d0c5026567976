"""asyncpg against the pgwire adapter: fetch / fetchrow / fetchval, prepared statements,
executemany, binary codecs of every type, a cursor inside a transaction, errors with their
SQLSTATE. Run by python-drivers.test.ts with the server's port."""
import asyncio
import datetime

from probe import EVERY_ROW, async_error_of, check, every_ddl, need, port

asyncpg = need("asyncpg")


async def main():
    conn = await asyncpg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", database="qdb")

    rows = await conn.fetch("select ts, sym, v, i, l, b, s, d, u, c, ip, f, sh from t order by ts")
    check("row", list(rows[0].values()))
    check("nulls", list(rows[1].values()))
    check("fetchrow", dict(await conn.fetchrow("select i, s, u from t where i = $1 and s = $2", 3, "héllo")))
    check("fetchval", await conn.fetchval("select count(*) from t where ts >= $1", datetime.datetime(2024, 1, 2)))

    # the lone parameter of IN over text is described as text[], so asyncpg sends a list
    in_list = await conn.prepare("select i from t where sym in ($1)")
    check("in_list", [[p.name for p in in_list.get_parameters()], await in_list.fetchval(["z", "a"]), await in_list.fetch([])])

    # a prepared statement: parameter and result types from Describe, reused with new values
    st = await conn.prepare("select x, x * 2.5 d, x % 2 = 0 even from long_sequence(10) where x <= $1")
    check("prepared_types", [[p.name for p in st.get_parameters()], [[a.name, a.type.name] for a in st.get_attributes()]])
    check("prepared_3", [list(r.values()) for r in await st.fetch(3)])
    check("prepared_1", [list(r.values()) for r in await st.fetch(1)])

    # binary codecs of every type: executemany inserts, then the same values come back
    await conn.execute(every_ddl("every_apg"))
    ins = await conn.prepare("insert into every_apg values (" + ", ".join(f"${k + 1}" for k in range(len(EVERY_ROW))) + ")")
    check("insert_param_types", [p.name for p in ins.get_parameters()])
    nulls = tuple(datetime.datetime(2024, 1, 2) if k == 0 else None for k in range(len(EVERY_ROW)))
    await conn.executemany(ins.get_query(), [EVERY_ROW, nulls])
    back = await conn.fetch("select * from every_apg order by ts")
    check("every_same", list(back[0].values()) == list(EVERY_ROW))
    check("every_row", list(back[0].values()))
    check("every_nulls", list(back[1].values()))
    check("every_where", await conn.fetchval("select count(*) from every_apg where u = $1 and ip = $2 and f = $3 and sh = $4 and bt = $5 and d = $6",
                                             EVERY_ROW[8], EVERY_ROW[10], EVERY_ROW[11], EVERY_ROW[12], EVERY_ROW[13], EVERY_ROW[7]))

    # executemany: many rows through one prepared INSERT
    await conn.execute("create table apg (ts timestamp, x long, s string) timestamp(ts) partition by day")
    await conn.executemany("insert into apg values ($1, $2, $3)", [(datetime.datetime(2024, 1, 1, 0, 0, i % 60, i), i, f"s{i}") for i in range(1000)])
    check("executemany", list((await conn.fetchrow("select count(*), sum(x), max(s) from apg")).values()))

    # a cursor inside a transaction reads a large result in prefetch-sized chunks (Execute with a row limit)
    async with conn.transaction():
        total = count = 0
        async for r in conn.cursor("select x from long_sequence(50000)", prefetch=1000):
            total += r["x"]
            count += 1
        check("cursor_iter", [count, total])
        cur = await conn.cursor("select x from long_sequence(100) where x > $1", 90)
        check("cursor_fetch", [r["x"] for r in await cur.fetch(3)] + [r["x"] for r in await cur.fetch(2)])

    # errors carry their SQLSTATE; the connection stays usable
    check("error_column", await async_error_of(conn.fetch("select nope from t")))
    check("error_syntax", await async_error_of(conn.fetch("selec 1")))
    check("error_table", await async_error_of(conn.fetch("select * from nosuch where x = $1", 1)))
    check("after_error", await conn.fetchval("select 42"))

    # a failed statement inside a transaction rolls it back
    async def failing_tx():
        async with conn.transaction():
            await conn.execute("insert into apg values ('2024-02-01T00:00:00Z', -1, 'never')")
            await conn.fetch("select nope from apg")
    check("error_in_tx", await async_error_of(failing_tx()))
    check("after_tx_rollback", await conn.fetchval("select count(*) from apg where x = -1"))
    await conn.close()


asyncio.run(main())
