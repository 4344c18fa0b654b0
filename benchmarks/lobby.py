"""The lobby's query on the SQLite table store with many live tables and few public ones.

Run: ``.venv/bin/python benchmarks/lobby.py [live tables]`` (100,000 by default). A store
holding that many live tables, 20 of them listed in the lobby, answers
``public_tables(0, 20)`` (the page ``GET /v1/tables`` reads) 20 times: prints the best and the
median time, and PASS when the median is at most 5 ms. The rows are written straight into the
store's file (opening 100,000 tables through the API would take minutes).
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time

from thirtyone.web.store.sqlite import SQLiteStore

TARGET_MS = 5.0
PUBLIC = 20


def main() -> None:
    live = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/tables.sqlite3"
        store = SQLiteStore(path, 86_400)
        store.ping()  # the schema is made
        now = time.time()
        with sqlite3.connect(path) as connection:
            connection.executemany(
                "INSERT INTO tables (id, version, digest, epoch, state, meta, expires) "
                "VALUES (?, 0, '', '', '{}', '{}', ?)",
                ((f"t{index}", now + 86_400) for index in range(live)))
            connection.executemany(
                "INSERT INTO lobby (table_id, listed) VALUES (?, ?)",
                ((f"t{index * (live // PUBLIC)}", now - index) for index in range(PUBLIC)))
        times = []
        for _ in range(20):
            start = time.perf_counter()
            ids, total = store.public_tables(0, PUBLIC)
            times.append((time.perf_counter() - start) * 1000)
        store.close()
        assert total == PUBLIC and len(ids) == PUBLIC, (ids, total)
        median = sorted(times)[len(times) // 2]
        print(f"lobby page of {PUBLIC} public tables among {live:,} live: best "
              f"{min(times):.2f} ms, median {median:.2f} ms")
        ok = median <= TARGET_MS
        print(f"{'PASS' if ok else 'FAIL'}  lobby at {live:,} live tables <= {TARGET_MS} ms: "
              f"{median:.2f} ms")
        raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
