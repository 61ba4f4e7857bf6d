"""One writer at a time on a games database, across this process's threads and the server's
other processes, with waiters woken the moment the writer is done.

SQLite lets one transaction write at a time; a second ``BEGIN IMMEDIATE`` waits in SQLite's
busy handler, which polls with sleeps of 1, 2, 5 … up to 100 ms. With several bots acting at
once, that polling, not the work, set the pace, with a long tail of waits (docs/performance.md). Taking this lock
before ``BEGIN IMMEDIATE`` queues the writers in the kernel instead: a thread lock, then
``flock`` on a file beside the database, which the kernel releases if its process dies, so a
killed worker never leaves it held.

Every unit of work takes it: the server's and the CLI's (``game …``). Deck edits and the card
import don't; when they collide with a game's write, SQLite's busy handler serves as before.
Where ``fcntl`` is missing (Windows, one server process there) or the file system refuses
``flock`` (some network mounts), the thread lock alone serves, and SQLite keeps writes correct.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None


class WriterLock:
    """``with lock:`` around a write transaction of the database at ``db_path``."""

    def __init__(self, db_path: Path):
        self.path = Path(f"{db_path}.writer")
        self._thread_lock = threading.Lock()
        self._fd: int | None = None
        self._pid = 0  # the process that opened _fd: a forked worker opens its own
        self._flock = fcntl is not None  # off once the file system refused it

    def _file(self) -> int:
        # flock excludes open files, not processes: a descriptor inherited through fork would be
        # the same open file in the master and every worker, and exclude none of them.
        if self._fd is None or self._pid != os.getpid():
            # 0o666 less the umask, like the database itself: a judge's shell and the server may
            # be different users. flock needs no write access: a file we can only read will do.
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            except PermissionError:
                self._fd = os.open(self.path, os.O_RDONLY)
            self._pid = os.getpid()
        return self._fd

    def __enter__(self) -> WriterLock:
        self._thread_lock.acquire()  # flock alone wouldn't exclude this process's other threads
        if self._flock:
            try:
                fcntl.flock(self._file(), fcntl.LOCK_EX)
            except OSError:  # no flock here (ENOLCK, EOPNOTSUPP…), or no file: SQLite's own lock serves
                self._flock = False
            except BaseException:
                self._thread_lock.release()
                raise
        return self

    def __exit__(self, *exc) -> None:
        try:
            if self._flock and self._fd is not None and self._pid == os.getpid():
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()

    def close(self) -> None:
        """Let the file go (a store that is done with; the lock must not be held)."""
        if self._fd is not None and self._pid == os.getpid():
            os.close(self._fd)
        self._fd = None

    def __del__(self) -> None:
        try:
            self.close()
        except OSError:
            pass
