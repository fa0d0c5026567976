"""SCRAM-SHA-256 logins with psycopg2, psycopg 3 and asyncpg: the right password runs a query, a wrong one
is refused. Run by scram.test.ts with the server's port; the password is s3cret."""
import asyncio
import importlib

from probe import async_error_of, check, error_of, port


def have(module):
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


psycopg2 = have("psycopg2")
if psycopg2 is not None:
    c = psycopg2.connect(host="127.0.0.1", port=port(), user="admin", password="s3cret", dbname="qdb")
    cur = c.cursor()
    cur.execute("select 7")
    check("psycopg2_ok", cur.fetchone()[0])
    c.close()
    check("psycopg2_wrong", error_of(lambda: psycopg2.connect(host="127.0.0.1", port=port(), user="admin", password="nope", dbname="qdb")))

psycopg = have("psycopg")
if psycopg is not None:
    with psycopg.connect(host="127.0.0.1", port=port(), user="admin", password="s3cret", dbname="qdb") as c:
        check("psycopg_ok", c.execute("select 5").fetchone()[0])
    check("psycopg_wrong", error_of(lambda: psycopg.connect(host="127.0.0.1", port=port(), user="admin", password="nope", dbname="qdb")))

asyncpg = have("asyncpg")
if asyncpg is not None:
    async def main():
        conn = await asyncpg.connect(host="127.0.0.1", port=port(), user="admin", password="s3cret", database="qdb", ssl=False)
        check("asyncpg_ok", await conn.fetchval("select 8"))
        await conn.close()
        check("asyncpg_wrong", await async_error_of(asyncpg.connect(host="127.0.0.1", port=port(), user="admin", password="nope", database="qdb", ssl=False)))
    asyncio.run(main())
