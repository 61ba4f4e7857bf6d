"""Raw durable SQLite inserts on the bench's disk: the baselines of issue 8's ratio for actions.

The bench times them in process (``sqlite_inserts``, ``sqlite_inserts_at_once``); the bench's
server also does one per request on ``POST /bench/insert`` (``Inserter``), so that a route doing
nothing but the baseline's work shows what waitress and Flask leave of one raw writer's rate.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path

RAW_PAYLOAD = json.dumps({"type": "draw", "player": "p1", "cards": ["c" * 12], "count": 1})
RAW_TABLE = "CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, game TEXT, seq INTEGER, data TEXT)"
INSERT = "INSERT INTO events (game, seq, data) VALUES (?, ?, ?)"


def connect_full(path: Path) -> sqlite3.Connection:
    """The baseline's connection: WAL, synchronous=FULL (SQLite syncs the WAL inside COMMIT)."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(RAW_TABLE)
    return conn


def insert(conn: sqlite3.Connection, game: str, seq: int) -> None:
    """One durable insert: a transaction of its own."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(INSERT, (game, seq, RAW_PAYLOAD))
    conn.execute("COMMIT")


# A new file's WAL grows until SQLite's first checkpoint (1,000 pages), and a sync that grows a
# file costs more than one that overwrites it in place: on this machine, four pairs of 2,000
# inserts side by side, 4,716–5,843/s on a new file against 6,293–7,318/s past its first
# checkpoint. A server's WAL has long reached its size, so every baseline is timed on a file
# that has too (``warm``).
WARM_UP_INSERTS = 1500  # past the first checkpoint: about one page a transaction


def warm(path: Path) -> sqlite3.Connection:
    """Write to the file at ``path`` until its WAL has been checkpointed and restarted; the connection
    returned keeps the WAL at that size while it is open (the last connection to close deletes it)."""
    conn = connect_full(path)
    for i in range(WARM_UP_INSERTS):
        insert(conn, "warm-up", i)
    return conn


def sqlite_inserts(path: Path, n: int) -> float:
    """Raw durable inserts per second on the same disk: WAL, synchronous=FULL, one writer, one
    transaction each (issue 8's baseline), on a file ``warm`` holds."""
    conn = connect_full(path)
    t = time.perf_counter()
    for i in range(n):
        insert(conn, "g", i)
    rate = n / (time.perf_counter() - t)
    conn.close()
    return rate


class Inserter:
    """``insert`` on the file at ``path``, from any thread (a connection per thread, as the arbiter
    keeps): the work of ``POST /bench/insert``."""

    def __init__(self, path: Path):
        self.path, self._local = path, threading.local()
        # the file in WAL mode and its table made, once: threads connecting at once to a new file
        # race to switch its journal mode, and SQLite answers the losers "database is locked"
        connect_full(path).close()

    def __call__(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = connect_full(self.path)
        insert(conn, "g", 0)


def sqlite_inserts_at_once(path: Path, n: int, writers: int) -> float:
    """Raw durable inserts per second by ``writers`` threads at once, written the way the server
    writes (storage/durable.py): under a lock, BEGIN IMMEDIATE, the insert, COMMIT with
    synchronous=NORMAL; then, the lock let go, fdatasync of the WAL. Writers at once share the
    disk's flushes, which one writer alone can't: the baseline for bots at once doing equal work.
    On a file ``warm`` holds."""
    if not Path(f"{path}-wal").exists():  # a writer failing to open it would leave the others at the barrier
        raise FileNotFoundError(f"{path}-wal: time the baseline on a file warm() holds")
    lock, start = threading.Lock(), threading.Barrier(writers + 1)
    each = max(1, n // writers)

    def writer(k: int) -> None:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous = NORMAL")
        wal = os.open(f"{path}-wal", os.O_RDONLY)
        start.wait()
        for i in range(each):
            with lock:
                insert(conn, f"g{k}", i)
            os.fdatasync(wal)
        os.close(wal)
        conn.close()

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(writers)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return each * writers / (time.perf_counter() - t0)
