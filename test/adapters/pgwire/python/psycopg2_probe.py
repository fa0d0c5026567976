"""psycopg2 against the pgwire adapter (run by python-drivers.test.ts with the server's port)."""
import datetime
import uuid

from probe import EVERY_ROW, check, error_of, every_ddl, need, port

psycopg2 = need("psycopg2")
extras = need("psycopg2.extras")
extras.register_uuid()

conn = psycopg2.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb")
check("server_version", conn.server_version)
cur = conn.cursor()

# every type of the seeded table `t`, then its row of nulls
cur.execute("select ts, sym, v, i, l, b, s, d, u, c, ip, f, sh from t order by ts")
check("type_codes", [d.type_code for d in cur.description])
rows = cur.fetchall()
check("row", rows[0])
check("nulls", rows[1])

# parameters (psycopg2 interpolates them client-side)
cur.execute("select i, s from t where i = %s and s = %s", (3, "héllo"))
check("param_int_text", cur.fetchall())
cur.execute("select sym from t where ts = %s", (datetime.datetime(2024, 1, 1, 0, 0, 0, 1),))
check("param_timestamp", cur.fetchall())
cur.execute("select sym from t where u = %s and b = %s and l = %s", (uuid.UUID("11111111-2222-3333-4444-555555555555"), True, 9007199254740993))
check("param_uuid_bool_long", cur.fetchall())
cur.execute("select count(*) from t where sym is null and %s is null", (None,))
check("param_null", cur.fetchone())
conn.commit()

# an error carries its SQLSTATE; the connection stays usable
check("error_column", error_of(lambda: cur.execute("select nope from t")))
conn.rollback()
check("error_syntax", error_of(lambda: cur.execute("selec 1")))
conn.rollback()
cur.execute("select 42")
check("after_error", cur.fetchone())
conn.commit()

# transactions: a failed statement aborts the transaction until ROLLBACK
cur.execute("select 1")
check("error_in_tx", error_of(lambda: cur.execute("select nope from t")))
check("aborted_tx", error_of(lambda: cur.execute("select 1")))
conn.rollback()
conn.autocommit = True
cur.execute("create table p2 (ts timestamp, x long, s string) timestamp(ts) partition by day")
conn.autocommit = False
cur.execute("insert into p2 values ('2024-01-01T00:00:00Z', 1, 'rolled back')")
conn.rollback()
cur.execute("select count(*) from p2")
check("after_rollback", cur.fetchone())
conn.commit()

# executemany insert, committed
cur.executemany("insert into p2 values (%s, %s, %s)", [(datetime.datetime(2024, 1, 1, 0, 0, i % 60, i), i, f"s{i}") for i in range(500)])
conn.commit()
cur.execute("select count(*), sum(x), min(s), max(ts) from p2")
check("executemany", cur.fetchone())
conn.commit()

# a row of every type inserted with parameters and read back
conn.autocommit = True
cur.execute(every_ddl("every_p2"))
cur.execute("insert into every_p2 values (" + ", ".join(["%s"] * len(EVERY_ROW)) + ")", EVERY_ROW)
cur.execute("select * from every_p2")
check("every_row", cur.fetchone())
conn.close()
