#!/usr/bin/env python3
"""Runs QuestDB's cross-driver compat steps through one Python driver.

Spawned by test/conformance/questdb-compat.test.ts. Reads a JSON plan on stdin:
{"driver": "psycopg2" | "psycopg3" | "asyncpg", "port": N, "tests": [{"name", "steps": [...]}]}
where each step has "action", "query" (with $[n] placeholders) and typed "params". Prints one
JSON line per test: {"test": name, "results": [{"ok": true, "rows": [...], "rowcount": n} |
{"ok": false, "error": "..."}]}. Values are normalised as QuestDB's runners print them
(timestamps YYYY-MM-DDTHH:MM:SS.ffffffZ, arrays {...}); the judging happens in TypeScript.
Exits 3 when the driver is not installed.
"""
import asyncio
import datetime
import decimal
import json
import re
import sys

DSN = dict(host="127.0.0.1", user="admin", password="quest", dbname="qdb")


def array_of(text):
    inner = text.strip().lstrip("{").rstrip("}").strip()
    return [] if inner == "" else [s.strip() for s in inner.split(",")]


def parse_ts(text):
    m = re.match(r"^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z?$", text)
    if m is None:
        return text
    micros = int((m.group(3) or "").ljust(6, "0")[:6])
    base = datetime.datetime.fromisoformat(m.group(1) + "T" + m.group(2))
    return base.replace(microsecond=micros)


def py_param(p):
    t, v = p["type"], p["value"]
    if t in ("INT4", "INT8"):
        return int(v)
    if t == "FLOAT8":
        return float(v)
    if t == "BOOLEAN":
        return v.lower() == "true"
    if t == "DATE":
        return datetime.date.fromisoformat(v)
    if t == "TIMESTAMP":
        return parse_ts(v)
    if t == "NUMERIC":
        return decimal.Decimal(v)
    if t == "ARRAY_FLOAT8":
        return [float(x) for x in array_of(v)]
    if t == "ARRAY_VARCHAR":
        return array_of(v)
    return v  # CHAR, VARCHAR


def norm(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return v.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(v, datetime.date):
        return v.strftime("%Y-%m-%dT00:00:00.000000Z")
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "{" + ",".join(repr(float(x)) if isinstance(x, (int, float)) and not isinstance(x, bool) else str(norm(x)) for x in v) + "}"
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    return str(v)


def pyformat(query):
    """$[n] -> %(pn)s, with literal % doubled (psycopg's paramstyle)."""
    q = query.replace("%", "%%")
    return re.sub(r"\$\[(\d+)\]", lambda m: "%(p" + m.group(1) + ")s", q)


def named_params(params):
    return {"p" + str(i + 1): py_param(p) for i, p in enumerate(params)}


def run_dbapi(conn, test):
    results = []
    for step in test["steps"]:
        try:
            cur = conn.cursor()
            if step["params"]:
                cur.execute(pyformat(step["query"]), named_params(step["params"]))
            else:
                cur.execute(step["query"])
            rows = cur.fetchall() if cur.description is not None else []
            results.append({"ok": True, "rows": [[norm(c) for c in r] for r in rows], "rowcount": cur.rowcount})
            cur.close()
        except Exception as e:  # noqa: BLE001 - every driver error is a step failure
            results.append({"ok": False, "error": (type(e).__name__ + ": " + str(e)).strip()})
    return results


def connect_dbapi(driver, port):
    if driver == "psycopg2":
        import psycopg2
        conn = psycopg2.connect(port=port, **DSN)
        conn.autocommit = True
        return conn
    import psycopg
    return psycopg.connect(port=port, autocommit=True, **DSN)


async def run_asyncpg(port, test):
    import asyncpg
    conn = await asyncpg.connect(host=DSN["host"], port=port, user=DSN["user"], password=DSN["password"], database=DSN["dbname"])
    results = []
    try:
        for step in test["steps"]:
            q = re.sub(r"\$\[(\d+)\]", lambda m: "$" + m.group(1), step["query"])
            args = [py_param(p) for p in step["params"]]
            try:
                if step["action"] == "execute":
                    status = await conn.execute(q, *args)
                    tail = status.split(" ")[-1] if status else ""
                    results.append({"ok": True, "rows": [], "rowcount": int(tail) if tail.isdigit() else -1})
                else:
                    rows = await conn.fetch(q, *args)
                    results.append({"ok": True, "rows": [[norm(c) for c in r.values()] for r in rows], "rowcount": len(rows)})
            except Exception as e:  # noqa: BLE001
                results.append({"ok": False, "error": (type(e).__name__ + ": " + str(e)).strip()})
    finally:
        await conn.close()
    return results


def main():
    plan = json.load(sys.stdin)
    driver, port = plan["driver"], plan["port"]
    try:
        __import__({"psycopg2": "psycopg2", "psycopg3": "psycopg", "asyncpg": "asyncpg"}[driver])
    except ImportError as e:
        print(json.dumps({"missing": str(e)}), flush=True)
        sys.exit(3)
    for test in plan["tests"]:
        try:
            if driver == "asyncpg":
                results = asyncio.run(run_asyncpg(port, test))
            else:
                conn = connect_dbapi(driver, port)
                try:
                    results = run_dbapi(conn, test)
                finally:
                    conn.close()
        except Exception as e:  # noqa: BLE001 - connect failure fails the whole test
            results = [{"ok": False, "error": "connect: " + str(e)} for _ in test["steps"]]
        print(json.dumps({"test": test["name"], "results": results}), flush=True)


if __name__ == "__main__":
    main()
