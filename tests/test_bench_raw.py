"""The bench's raw-insert baselines (bench/raw.py): the work they time is the work they claim.

Figures are the bench's (`make bench`); these only check what a broken baseline would get wrong.
"""

from __future__ import annotations

import sqlite3
import struct
import threading
from contextlib import closing

import pytest

from bench.raw import WARM_UP_INSERTS, Inserter, connect_full, sqlite_inserts, sqlite_inserts_at_once, warm


def rows(path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("select count(*) from events").fetchone()[0]


def checkpoints(wal) -> int:
    """The WAL header's checkpoint sequence number: how many times the WAL was reset and reused."""
    return struct.unpack(">I", wal.read_bytes()[12:16])[0]


def test_a_warmed_file_keeps_its_grown_wal_while_held(tmp_path):
    """A fresh WAL grows until the first checkpoint (1,000 pages); the baselines time one that has
    grown and been reused, as a server's has, and it stays that file while ``warm``'s connection is open."""
    db, wal = tmp_path / "raw.sqlite", tmp_path / "raw.sqlite-wal"
    held = warm(db)
    try:
        page = held.execute("PRAGMA page_size").fetchone()[0]
        assert wal.stat().st_size >= 1000 * page  # grown to the checkpoint's size
        assert checkpoints(wal) >= 1  # then reset, and written again from its start
        inode = wal.stat().st_ino
        sqlite_inserts(db, 200)  # a connection of its own, opened and closed
        sqlite_inserts_at_once(db, 200, 4)
        assert wal.stat().st_ino == inode  # never deleted and made anew: the inserts overwrite it in place
        assert rows(db) == WARM_UP_INSERTS + 200 + 200
    finally:
        held.close()


def test_the_writers_at_once_refuse_a_file_nobody_warmed(tmp_path):
    with pytest.raises(FileNotFoundError, match="warm"):  # rather than a writer dying and the rest waiting
        sqlite_inserts_at_once(tmp_path / "cold.sqlite", 10, 2)


def test_the_baseline_syncs_every_commit():
    with closing(connect_full(":memory:")) as conn:
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: SQLite syncs inside COMMIT


def test_the_insert_route_does_one_durable_insert_a_call_on_a_connection_per_thread(tmp_path):
    db = tmp_path / "route.sqlite"
    insert = Inserter(db)
    conns = []

    def call():
        insert()
        insert()
        conns.append(insert._local.conn)

    threads = [threading.Thread(target=call) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert rows(db) == 6
    assert len({id(c) for c in conns}) == 3  # SQLite connections aren't shared between threads
    assert all(c.execute("PRAGMA synchronous").fetchone()[0] == 2 for c in conns)
    for c in conns:
        c.close()
