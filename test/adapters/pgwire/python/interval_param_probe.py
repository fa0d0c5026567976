"""`ts IN %s` with a string parameter is an interval, as the literal is (QuestDB's
InTimestampTimestampTest), through psycopg 3 and psycopg2. Run by in-interval-param.test.ts."""
from probe import check, need, port

for name in ("psycopg", "psycopg2"):
    mod = need(name)
    conn = mod.connect(host="127.0.0.1", port=port(), user="admin", password="quest", dbname="qdb")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("select count(*) from iv where ts in '2024-01-02'")
    check(f"{name}_literal", cur.fetchone()[0])
    cur.execute("select count(*) from iv where ts in %s", ("2024-01-02",))
    check(f"{name}_param", cur.fetchone()[0])
    cur.execute("select count(*) from iv where ts in %s", ("2024-01-02T12;1h",))
    check(f"{name}_param_duration", cur.fetchone()[0])
    conn.close()
