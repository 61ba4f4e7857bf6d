"""The bench's raw-insert baselines (bench/raw.py): the work they time is the work they claim.

Figures are the bench's (`make bench`); these only check what a broken baseline would get wrong.
"""

from __future__ import annotations

import sqlite3
import threading

from bench.raw import WARM_UP_INSERTS, Inserter, sqlite_inserts, sqlite_inserts_at_once, warm


def rows(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("select count(*) from events").fetchone()[0]


def test_a_warmed_file_keeps_a_wal_past_its_first_checkpoint_while_held(tmp_path):
    """A fresh WAL grows until the first checkpoint (1,000 pages); the baselines time one that has
    grown, as a server's has, and it stays grown while ``warm``'s connection is open."""
    db = tmp_path / "raw.sqlite"
    held = warm(db)
    try:
        page = held.execute("PRAGMA page_size").fetchone()[0]
        wal = tmp_path / "raw.sqlite-wal"
        assert wal.stat().st_size >= 1000 * page  # grown to the checkpoint's size, then overwritten in place
        grown = wal.stat().st_size
        assert sqlite_inserts(db, 200) > 0  # another connection, opened and closed: the WAL stays
        assert sqlite_inserts_at_once(db, 200, 4) > 0
        assert wal.stat().st_size == grown
        assert rows(db) == WARM_UP_INSERTS + 200 + 200
    finally:
        held.close()


def test_the_insert_route_does_one_durable_insert_a_call_from_any_thread(tmp_path):
    db = tmp_path / "route.sqlite"
    insert = Inserter(db)
    threads = [threading.Thread(target=insert) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    insert()
    assert rows(db) == 4
    assert insert._local.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL, as the baseline
