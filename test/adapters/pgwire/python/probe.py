"""Shared helpers of the driver probes: import a driver or report it missing, and print one
JSON line per check ({"check": name, "value": ...}) with values made JSON-safe in a form the
TypeScript tests compare exactly (datetimes as ISO text, UUIDs as text, bytes as hex,
floats as repr, Decimals as text, each tagged with its Python type where the type matters)."""
import datetime
import decimal
import importlib
import json
import sys
import uuid


def need(module):
    """The module, or exit 3 after printing {"missing": why} (the test then skips)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        print(json.dumps({"missing": f"{module}: {e}"}), flush=True)
        sys.exit(3)


def port():
    return int(sys.argv[1])


def plain(v):
    """A JSON-safe, type-revealing form of a driver value."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v if abs(v) < 2**53 else f"int:{v}"
    if isinstance(v, float):
        return f"float:{v!r}"
    if isinstance(v, datetime.datetime):
        return f"datetime:{v.isoformat()}"
    if isinstance(v, datetime.date):
        return f"date:{v.isoformat()}"
    if isinstance(v, uuid.UUID):
        return f"uuid:{v}"
    if isinstance(v, decimal.Decimal):
        return f"decimal:{v}"
    if isinstance(v, (bytes, bytearray, memoryview)):
        return f"bytes:{bytes(v).hex()}"
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    return f"{type(v).__name__}:{v}"


def check(name, value):
    print(json.dumps({"check": name, "value": plain(value)}), flush=True)


def error_of(fn):
    """Runs fn; returns [class name, sqlstate, first message line] of what it raised, or None."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the test asserts the class and code
        code = getattr(e, "pgcode", None) or getattr(e, "sqlstate", None)
        return [type(e).__name__, code, str(e).splitlines()[0] if str(e) else ""]
    return None


async def async_error_of(coro):
    try:
        await coro
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, getattr(e, "sqlstate", None), str(e).splitlines()[0] if str(e) else ""]
    return None


def every_ddl(table):
    """DDL of a table with a column of every type, in the order of EVERY_ROW."""
    return EVERY_DDL.replace("every", table, 1)


# one row of every type the tests insert and read back
EVERY_DDL = ("create table every (ts timestamp, sym symbol, v double, i int, l long, b boolean, s string, d date,"
             " u uuid, c char, ip ipv4, f float, sh short, bt byte, vc varchar, bin binary) timestamp(ts) partition by day")
EVERY_ROW = (
    datetime.datetime(2024, 1, 1, 12, 30, 45, 123456), "sym-a", 1.25, 7, 2**62 + 1, True, "héllo ✓", datetime.datetime(2024, 2, 3, 4, 5, 6),
    uuid.UUID("11111111-2222-3333-4444-555555555555"), "c", "10.0.0.1", 0.5, 12, 3, "varchar", b"\x00\x01\xff",
)
