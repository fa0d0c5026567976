"""Streaming client of the pgwire benchmark (test/bench/pgwire.ts), run as a child process.

    python3 pgwire-stream.py '<libpq conninfo>' '<query>'

Runs the query through psycopg 3's ``cursor.stream()`` (rows arrive one at a time, libpq's
single-row mode, so the client never holds the whole result), counts the rows, and prints one
JSON line: rows, seconds (from sending the query to the last row) and bytes, the bytes the
connection received meanwhile (``tcpi_bytes_received`` of the socket's TCP_INFO, Linux >= 4.1;
0 where that is missing).
"""
import json
import socket
import struct
import sys
import time

import psycopg


# offset of tcpi_bytes_received (a u64) in Linux's struct tcp_info
BYTES_RECEIVED_AT = 128


def bytes_received(conn: psycopg.Connection) -> int:
    try:
        with socket.fromfd(conn.pgconn.socket, socket.AF_INET, socket.SOCK_STREAM) as s:
            info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    except OSError:
        return 0
    return struct.unpack_from('Q', info, BYTES_RECEIVED_AT)[0] if len(info) >= BYTES_RECEIVED_AT + 8 else 0


def main() -> None:
    conninfo, query = sys.argv[1], sys.argv[2]
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cur = conn.cursor()
        rows = 0
        before = bytes_received(conn)
        t0 = time.perf_counter()
        for _ in cur.stream(query):
            rows += 1
        seconds = time.perf_counter() - t0
        read = bytes_received(conn) - before
    print(json.dumps({'rows': rows, 'seconds': seconds, 'bytes': max(read, 0)}))


if __name__ == '__main__':
    main()
