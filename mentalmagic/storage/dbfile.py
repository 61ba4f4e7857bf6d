"""The database file a process started on, and whether its path still names that file (issue 30).

A file deleted, moved away or replaced under a running server is nothing SQLite notices: a
connection already open goes on reading and writing the file it opened, though no path names it
any more, and a new one opens (or creates, empty) whatever the path names now. A write acknowledged
into a file no path names is lost at the next restart. So a store records the file's identity
(device and inode) when it starts, and checks that the path still names that file:

- when it opens a connection, before and after (SQLite's ``mode=rw``: where the file was, a
  connection never creates an empty one);
- before a write begins, and once it is durable, before anyone is answered;
- before a read shows a game, and at each health check.

A file gone or replaced is ``StorageFailed`` (503 ``storage_failed``, ``/health`` degraded) until
the file is put back or the server restarted on the one there now. The write-ahead log isn't
checked: SQLite itself deletes and makes it anew as connections come and go.
"""

from __future__ import annotations

import os
from pathlib import Path

import sqlite_utils

from ..errors import StorageFailed
from ..messages import Message, say
from . import connect, existing


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


class DatabaseFile:
    """The file at ``path`` as it was when this was made (or first opened, when there was none)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.identity = _identity(self.path)

    def problem(self) -> Message | None:
        """Why the path no longer names the file this process started on (gone, or another file), or None."""
        if self.identity is None:
            return None
        now = _identity(self.path)
        if now is None:
            return say("health.database_gone", path=str(self.path))
        if now != self.identity:
            return say("health.database_replaced", path=str(self.path))
        return None

    def check(self) -> None:
        """StorageFailed when the path no longer names the file: nothing may be read from or written to another."""
        problem = self.problem()
        if problem:
            raise StorageFailed("storage.file_lost", why=problem)

    def check_written(self) -> None:
        """After a write committed, before it is acknowledged: StorageFailed when it went to a file no
        path names (or the path names another): it may be lost, or come back with the file."""
        problem = self.problem()
        if problem:
            raise StorageFailed("storage.failed_now", failed=say("storage.file_lost", why=problem))

    def open(self) -> sqlite_utils.Database:
        """A connection to this very file (the schema applied at start): never one to a file made
        where it was, nor to another put in its place (checked before and after opening)."""
        self.check()
        if self.identity is None:  # no file when this store was made: the first connection makes it
            db = connect(self.path, apply_schema=False)
            self.identity = _identity(self.path)
            return db
        db = connect(existing(self.path), apply_schema=False, uri=True)
        try:
            self.check()
        except BaseException:
            db.conn.close()
            raise
        return db
