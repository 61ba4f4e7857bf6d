"""When the disk under the database refuses writes (issue 23): full, read-only, failing; or the
file is broken (issue 30): it can't be opened, or it is damaged.

SQLite says so with an error code (``SQLITE_FULL``, ``SQLITE_READONLY``, ``SQLITE_IOERR``,
``SQLITE_CANTOPEN``, ``SQLITE_CORRUPT``, ``SQLITE_NOTADB``), the file system with an errno. Such a
failure is no bug of the arbiter: the web edge answers it ``503 storage_failed`` (the transaction
rolled back: nothing is half-applied), ``/health`` says ``degraded`` while it lasts, and the log
gets one line a minute at most, not a traceback a request. ``Trouble`` is what one process has
seen; ``probe`` asks the disk itself.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from ..messages import Message, say
from . import existing

# SQLite's primary result codes (the low byte of an extended one) and errnos that mean the disk
# or the file (an ext4 shut down under the server answers all three of IOERR, CORRUPT and CANTOPEN)
KINDS = {sqlite3.SQLITE_FULL: "disk_full", sqlite3.SQLITE_READONLY: "read_only", sqlite3.SQLITE_IOERR: "io_error",
         sqlite3.SQLITE_CANTOPEN: "cant_open", sqlite3.SQLITE_CORRUPT: "corrupt", sqlite3.SQLITE_NOTADB: "corrupt"}
ERRNOS = {errno.ENOSPC: "disk_full", errno.EDQUOT: "disk_full", errno.EROFS: "read_only", errno.EIO: "io_error"}
# kind -> the message saying it (messages.py: worded in the reader's language; str() in the process's)
SAYS = {"disk_full": say("storage.disk_full"), "read_only": say("storage.read_only"),
        "io_error": say("storage.io_error"), "cant_open": say("storage.cant_open"), "corrupt": say("storage.corrupt")}
# kind -> the answer's message: a disk that refuses writes (reads still go), or a file nothing can use
REFUSES = {"disk_full": "storage.refuses", "read_only": "storage.refuses", "io_error": "storage.unusable_now",
           "cant_open": "storage.unusable_now", "corrupt": "storage.unusable_now"}
DISK_KINDS = ("disk_full", "read_only", "io_error")  # what a start refuses as "can't be written", not "restore"

# Room a write may need on the database's file system (a page of the WAL and one of the file,
# and a checkpoint's): below it /health says degraded before writes start failing.
RESERVE = 1024 * 1024
LOG_EVERY = 60.0  # seconds between two log lines about the same trouble, per process


def kind_of(e: BaseException) -> str | None:
    """``disk_full``, ``read_only``, ``io_error``, ``cant_open`` or ``corrupt`` when ``e`` is the disk
    refusing or the file broken; else None."""
    if isinstance(e, sqlite3.Error):
        code = getattr(e, "sqlite_errorcode", None)
        return KINDS.get(code & 0xFF) if code is not None else None
    if isinstance(e, OSError):
        return ERRNOS.get(e.errno)
    return None


def reason(kind: str, db_path: Path | str, detail: str = "") -> Message:
    """One line: what failed, on which file, and that writes resume by themselves."""
    if detail:
        return say("storage.writes_fail_why", says=SAYS[kind], path=str(db_path), why=detail)
    return say("storage.writes_fail", says=SAYS[kind], path=str(db_path))


class Trouble:
    """What this process has seen of the disk: the last failure until a write succeeds again, and
    when it last logged one (once a minute at most, with how many it left out)."""

    def __init__(self, db_path: Path | str, log_every: float = LOG_EVERY):
        self.db_path, self.log_every = db_path, log_every
        self._lock = threading.Lock()
        self.current: Message | None = None  # the reason, while writes fail (/health words it)
        self._logged_at = float("-inf")
        self._unlogged = 0

    def failed(self, kind: str, detail: str, log) -> None:
        """A write failed with ``kind``; ``log(line)`` is called at most once every ``log_every`` s."""
        with self._lock:
            self.current = said = reason(kind, self.db_path, detail)
        self.told(said, log)

    def told(self, said: Message, log) -> None:
        """``log`` of ``said`` and how many were left out since the last line, unless a line was logged
        less than ``log_every`` s ago (then only counted)."""
        line = None
        with self._lock:
            now = time.monotonic()
            if now - self._logged_at >= self.log_every:
                more = f" ({self._unlogged} more since the last line)" if self._unlogged else ""
                line, self._logged_at, self._unlogged = f"{said}{more}", now, 0
            else:
                self._unlogged += 1
        if line:
            log(line)

    def recovered(self) -> None:
        with self._lock:
            self.current = None


def probe(db_path: Path | str) -> tuple[str, str] | None:
    """Why a write to the database at ``db_path`` would fail now (its kind and SQLite's or the
    system's words), or None: one tiny write in a transaction (read-only file or mount, I/O
    errors), and the room left on its file system."""
    try:
        conn = sqlite3.connect(existing(db_path), timeout=5, isolation_level=None, uri=True)
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("insert into health (id, checked_at) values (1, ?) on conflict (id) do update set "
                             "checked_at = excluded.checked_at", [datetime.now(UTC).isoformat(timespec="seconds")])
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
        finally:
            conn.close()
    except (sqlite3.Error, OSError) as e:
        kind = kind_of(e)
        if kind is None:  # busy with writers (a write would wait, not fail), or no database: said elsewhere
            return None
        return kind, " ".join(str(e).split())
    free = free_bytes(db_path)
    if free is not None and free < RESERVE:
        return "disk_full", f"{free // 1024} KiB left"
    return None


def read_only(db_path: Path | str) -> Message | None:
    """Why the database file or its directory (SQLite writes its WAL and -shm there) can't be
    written, or None: a read-only mount, or permissions."""
    path = Path(db_path)
    with contextlib.suppress(OSError, AttributeError):
        if os.statvfs(path.parent).f_flag & os.ST_RDONLY:
            return say("storage.mounted_read_only", path=str(path.parent))
    for p in (path, path.parent):
        if p.exists() and not os.access(p, os.W_OK):
            return say("storage.not_writable", path=str(p))
    return None


def free_bytes(db_path: Path | str) -> int | None:
    """Bytes an unprivileged writer may still use on the database's file system (None: not known)."""
    if not hasattr(os, "statvfs"):
        return None
    try:
        st = os.statvfs(Path(db_path).parent)
    except OSError:
        return None
    return st.f_bavail * st.f_frsize
