"""psycopg 3 against the pgwire adapter: text and binary results and parameters, type round
trips, server-side streaming, a named cursor (refused: DECLARE), prepared statements and
pipeline mode. Run by python-drivers.test.ts with the server's port."""
import datetime
import uuid

from probe import EVERY_ROW, check, error_of, every_ddl, need, port

psycopg = need("psycopg")

conn = psycopg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb", autocommit=True)
SEEDED = "select ts, sym, v, i, l, b, s, d, u, c, ip, f, sh from t order by ts"

# the seeded table in text and in binary; fformat says how each column really came
for mode, binary in (("text", False), ("binary", True)):
    cur = conn.cursor(binary=binary)
    cur.execute(SEEDED)
    check(f"{mode}_formats", [cur.pgresult.fformat(k) for k in range(cur.pgresult.nfields)])
    rows = cur.fetchall()
    check(f"{mode}_row", rows[0])
    check(f"{mode}_nulls", rows[1])

# a row of every type: inserted with binary parameters (%b), text parameters (%t) and
# server-chosen ones (%s), read back in binary and in text
conn.execute(every_ddl("every_p3"))
for ph in ("%b", "%t", "%s"):
    conn.execute("insert into every_p3 values (" + ", ".join([ph] * len(EVERY_ROW)) + ")", EVERY_ROW)
for mode, binary in (("text", False), ("binary", True)):
    rows = conn.cursor(binary=binary).execute("select * from every_p3").fetchall()
    check(f"every_{mode}_same", [list(r) == list(EVERY_ROW) for r in rows])
check("every_row", conn.execute("select * from every_p3 limit 1").fetchone())

# typed parameters round-trip through binary results
cur = conn.cursor(binary=True)
cur.execute("select %b::long, %b::int, %b::double, %b::boolean, %b::timestamp, %b::uuid, %b::short",
            (2**40 + 1, -5, 2.5, False, datetime.datetime(2020, 1, 2, 3, 4, 5, 6), uuid.UUID("0f23f033-8449-4318-b3c1-bf38fc5a218c"), 300))
check("binary_params", cur.fetchone())
# a bare timestamp parameter keeps the type psycopg declares (timestamptz for an aware datetime,
# timestamp for a naive one), in text and in binary
utc = datetime.timezone.utc
check("bare_timestamp_params", [
    conn.execute("select %t", (datetime.datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=utc),)).fetchone()[0],
    conn.execute("select %b", (datetime.datetime(2024, 1, 2, 3, 4, 5, 6),)).fetchone()[0],
    conn.execute("select %t", (datetime.date(2024, 2, 29),)).fetchone()[0],
])
# a list for the lone parameter of IN is an array (text[] in text, binary in binary)
check("in_list", [
    conn.execute("select sym from t where sym in (%s)", (["z", "a"],)).fetchall(),
    conn.cursor(binary=True).execute("select sym from t where sym in (%b)", (["a"],)).fetchall(),
    conn.execute("select sym from t where sym in (%s)", ([],)).fetchall(),
])
check("uuid_text_param", conn.execute("select sym from t where u = %t", (uuid.UUID("11111111-2222-3333-4444-555555555555"),)).fetchone())

# server-side streaming: rows arrive one at a time through the extended protocol
total = count = 0
for (x,) in conn.cursor().stream("select x from long_sequence(100000)"):
    total += x
    count += 1
check("stream", [count, total])
check("stream_binary", sum(1 for _ in conn.cursor(binary=True).stream("select ts, v from t")))

# a named (server-side) cursor is DECLARE ... CURSOR: refused with 0A000, the connection lives on
with psycopg.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb") as tx:
    def named():
        with tx.cursor(name="srv") as c:
            c.execute("select x from long_sequence(10)")
            c.fetchmany(3)
    check("named_cursor", error_of(named))
    tx.rollback()
    check("after_named_cursor", tx.execute("select 7").fetchone())

# prepared statements: prepare=True makes a named server-side statement reused with new values
for k in (1, 2, 3):
    got = conn.execute("select x * %s from long_sequence(3) where x = %s", (10, k), prepare=True).fetchone()
    check(f"prepared_{k}", got)
check("prepared_error", error_of(lambda: conn.execute("select nope from t where i = %s", (1,), prepare=True)))
check("after_prepared_error", conn.execute("select %s::int + 1", (41,), prepare=True).fetchone())

# pipeline mode: several statements sent before any result is read
conn.execute("create table pipe (ts timestamp, x long) timestamp(ts) partition by day")
with conn.pipeline():
    for k in range(20):
        conn.execute("insert into pipe values (%s, %s)", (datetime.datetime(2024, 1, 1, 0, 0, k), k))
    c1 = conn.execute("select count(*), sum(x) from pipe")
    c2 = conn.execute("select %s::int * 2", (21,))
check("pipeline", [c1.fetchone(), c2.fetchone()])


def failing_pipeline():
    with conn.pipeline():
        conn.execute("select 1")
        conn.execute("select nope from t")
        conn.execute("select 2")


check("pipeline_error", error_of(failing_pipeline))
check("after_pipeline_error", conn.execute("select 3").fetchone())
conn.close()
