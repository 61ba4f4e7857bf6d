"""Several units of work, one fsync: group commit for the games database of one process.

A durable write ends in an fsync (synchronous=FULL), and SQLite writes one transaction at a
time: with several bots acting at once, the fsyncs, one per action, set the pace. Here the
process's units of work share one writing connection and take turns on it. Each runs inside a
savepoint of the open transaction; when it ends and another is already waiting for its turn,
the transaction stays open for that one, and so on, up to MAX_BATCH; the last of the chain
commits for all of them. Nobody is answered before that COMMIT returns: every unit of work is
as durable as before, and one that fails is rolled back to its savepoint alone.

One unit of work alone commits at once, as it always did: nothing waits for company.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from pathlib import Path

import sqlite_utils

from . import connect
from .writelock import WriterLock


class _Batch:
    __slots__ = ("members", "done", "error")

    def __init__(self):
        self.members = 0  # units of work whose changes wait in the open transaction
        self.done = False
        self.error: BaseException | None = None


class GroupCommit:
    """Turns on the process's writing connection, and the batches they form."""

    MAX_BATCH = 32  # units of work in one transaction at most: a bound on how long the first waits

    def __init__(self, db_path: Path, lock: WriterLock):
        self.db_path = Path(db_path)
        self.lock = lock  # one batch at a time across the server's processes
        self._cv = threading.Condition()
        self._busy = False  # a unit of work holds the turn
        self._waiting = 0  # units of work waiting for it
        self._batch: _Batch | None = None
        self._db: sqlite_utils.Database | None = None
        self._pid = 0

    def db(self) -> sqlite_utils.Database:
        """The writing connection, used only by the unit of work that holds the turn."""
        if self._db is None or self._pid != os.getpid():  # a forked worker opens its own
            self._db = connect(self.db_path, apply_schema=False, shared=True)
            self._pid = os.getpid()
        return self._db

    def begin(self) -> None:
        """Wait for this thread's turn; join the open transaction, or open one; start a savepoint."""
        with self._cv:
            self._waiting += 1
            try:
                while self._busy:
                    self._cv.wait()
            finally:
                self._waiting -= 1
            self._busy = True
        try:
            conn = self.db().conn
            if self._batch is not None and not conn.in_transaction:  # lost (an I/O error ends it whole)
                self._close(sqlite3.OperationalError("the transaction was lost before its COMMIT"))
                conn = self.db().conn
            if self._batch is None:
                self.lock.__enter__()
                try:
                    conn.execute("BEGIN IMMEDIATE")
                except BaseException:
                    self.lock.__exit__(None, None, None)
                    raise
                self._batch = _Batch()
            conn.execute("SAVEPOINT unit")
        except BaseException:
            with self._cv:
                orphan = self._batch is not None and not self._batch.members and not self._waiting
            if orphan:  # a transaction opened for nobody: never leave it holding the lock
                self._close(None)
            self._hand_over()
            raise

    def end(self, kept: bool) -> None:
        """This turn is over, its savepoint released (``kept``) or rolled back. Hands the open
        transaction to a waiting unit of work, or commits it; returns once this one's work is
        durable, raising what the COMMIT raised."""
        batch = self._batch
        with self._cv:
            if kept:
                batch.members += 1
            if self._waiting and batch.members < self.MAX_BATCH:
                self._busy = False  # the next one runs in this transaction; the last commits
                self._cv.notify_all()
                while kept and not batch.done:
                    self._cv.wait()
                if kept and batch.error is not None:
                    raise batch.error
                return
        conn, error = self.db().conn, None
        try:
            if batch.members:
                conn.execute("COMMIT")  # the one fsync of the whole batch
            elif conn.in_transaction:
                conn.execute("ROLLBACK")
        except BaseException as e:  # noqa: BLE001 - every member of the batch hears it
            error = e
        try:
            self._close(error)
        finally:
            self._hand_over()  # whatever happened, the turn moves on: nobody waits forever
        if kept and error is not None:
            raise error

    def _close(self, error: BaseException | None) -> None:
        """End the open batch: its members wake, told ``error`` if its changes were not kept."""
        conn = self.db().conn
        try:
            if conn.in_transaction:  # a COMMIT that failed: never leave it open
                conn.execute("ROLLBACK")
        except sqlite3.Error:  # a connection that can't even roll back is dropped (closing it does)
            self._db = None
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        finally:
            with contextlib.suppress(OSError):
                self.lock.__exit__(None, None, None)
            with self._cv:
                batch, self._batch = self._batch, None
                batch.error, batch.done = error, True
                self._cv.notify_all()

    def _hand_over(self) -> None:
        with self._cv:
            self._busy = False
            self._cv.notify_all()
