"""One games database file for one process: a connection per thread (with its WAL's descriptor
when this process syncs it itself), the writer lock units of work queue on, what is known to
be on disk (storage/durable.py), and whether the path still names the file (storage/dbfile.py).
Nothing here knows a game's rows."""

from __future__ import annotations

import os
import threading
import weakref
from contextlib import contextmanager
from pathlib import Path

from ..errors import StorageFailed
from ..messages import Message, say
from .backup import hold
from .dbfile import DatabaseFile
from .durable import wal_to_sync
from .writelock import WriterLock


class GameDatabase:
    def __init__(self, db_path: Path, cache_size: int = 256):
        self.db_path = Path(db_path)
        hold(self.db_path)  # open here: no restore replaces it under this process (storage/backup.py)
        self.file = DatabaseFile(self.db_path)  # the file this process started on (storage/dbfile.py)
        self._local = threading.local()
        self._lock = threading.Lock()
        self.writer = WriterLock(self.db_path)  # units of work queue here, not in SQLite's busy handler
        self._synced: dict[str, int] = {}  # game id -> a version of it known to be on disk (storage/durable.py)
        self._synced_max = 4 * max(cache_size, 256)  # bounded: forgetting costs one sync a game
        self.failed: Message | None = None  # why this store takes no more writes: the disk failed a sync

    @property
    def db(self):
        """This thread's connection."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self.file.open()
            wal = self._local.wal = wal_to_sync(db.conn)  # None: SQLite syncs inside COMMIT (storage/durable.py)
            if wal is not None:  # closed with the connection, when its thread is gone
                weakref.finalize(db, os.close, wal)
        return db

    @contextmanager
    def snapshot(self):
        """One read transaction (a unit of work's own transaction when inside one)."""
        conn = self.db.conn
        if conn.in_transaction:
            yield
            return
        conn.execute("BEGIN")
        try:
            yield
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")

    def shown(self, game_id: str, version: int) -> None:
        """Before a read outside a unit of work shows ``version`` of a game: on disk, synced here
        unless this process already knows it is (storage/durable.py); and from the file this process
        started on, still at its path (storage/dbfile.py)."""
        self.file.check()
        if getattr(self._local, "wal", None) is None or self.db.conn.in_transaction:
            return  # SQLite synced it inside COMMIT; or a unit of work, which syncs when it ends
        with self._lock:
            if self._synced.get(game_id, -1) >= version:
                return
        self.make_durable()
        self.mark_synced([(game_id, version)])

    def mark_synced(self, games: list[tuple[str, int]]) -> None:
        with self._lock:
            if len(self._synced) > self._synced_max:
                self._synced.clear()
            for game_id, version in games:
                if self._synced.get(game_id, -1) < version:
                    self._synced[game_id] = version

    def refuse_if_failed(self) -> None:
        """StorageFailed once the disk failed a sync here: nothing written since is known durable."""
        if self.failed:
            raise StorageFailed(self.failed)

    def make_durable(self) -> None:
        """``fdatasync`` this thread's WAL, when its connection left that to us: everything committed
        to the file so far is on disk when this returns. A failure stops this store's writes."""
        wal = getattr(self._local, "wal", None)
        if wal is None:
            return
        self.refuse_if_failed()  # the kernel tells a failed flush once: a later fdatasync passing proves nothing
        try:
            os.fdatasync(wal)
        except OSError as e:
            self.failed = say("storage.failed", path=str(self.db_path), why=str(e.strerror or e))
            raise StorageFailed("storage.failed_now", failed=self.failed) from None
