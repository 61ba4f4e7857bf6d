"""The whole database copied while it is served, and a copy brought back (docs/moving.md).

``backup`` reads the database through SQLite's online backup (``Connection.backup``), in one step:
one read transaction, so the copy is the database as of one moment, every write committed before
it and none after, while the server goes on writing (WAL readers don't block writers). The copy is
made under a temporary name beside its destination, synced, then renamed: the destination is the
old file or the whole new one, never half of either.

``restore`` brings a copy back the same way, and only while no process has the database open:
every process that opens it holds a shared lock on ``<db>.in-use`` (``hold``), which ``restore``
asks for alone, without waiting. Its write-ahead log is checkpointed and removed first (a log
left beside the new file would be replayed into it), and the file it replaces is kept as
``<db>.before-restore``. Where ``fcntl`` is missing (Windows), nothing says whether a server has
it open: stop the server first.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None


class InUse(Exception):
    """Another process (a server, a command) has the database open."""


class NotADatabase(Exception):
    """The file is no database of the arbiter (its ``args[0]``: SQLite's word, or the table missing)."""


_HELD: dict[str, int] = {}  # database path -> this process's descriptor holding the shared lock


def hold(db_path: Path) -> None:
    """Mark the database as open in this process until it exits: a shared lock, which ``restore``
    needs nobody to hold (and which waits for a restore under way to end). Once per process and
    path; nothing where the file system refuses ``flock``."""
    key = str(Path(db_path).resolve())
    if fcntl is None or _HELD.get(key):
        return
    try:
        fd = os.open(_marker(db_path), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
    except OSError:  # no flock here (ENOLCK, EOPNOTSUPP…): nothing says the database is open
        os.close(fd)
        return
    _HELD[key] = fd


def backup(db_path: Path, dest: Path) -> int:
    """A consistent copy of the database at ``db_path`` written to ``dest``; its size in bytes."""
    with closing(_open_existing(db_path)) as source:
        _copy(source, Path(dest))
    return Path(dest).stat().st_size


def restore(copy: Path, db_path: Path) -> Path | None:
    """The database at ``db_path`` replaced by ``copy`` (checked first), while no process has it
    open (InUse otherwise); the path the replaced file was kept at, None when there was none."""
    with closing(_open_existing(copy)) as source:
        _check(source)
        with _alone(db_path):
            kept = None
            if Path(db_path).exists():
                kept = Path(f"{db_path}.before-restore")
                with closing(sqlite3.connect(db_path)) as old:
                    _copy(old, kept)
                    old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                for suffix in ("-wal", "-shm"):
                    Path(f"{db_path}{suffix}").unlink(missing_ok=True)
            _copy(source, Path(db_path))
    return kept


def _copy(source: sqlite3.Connection, dest: Path) -> None:
    """``source`` into ``dest`` in one step of SQLite's backup, under a temporary name, synced, renamed."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        with closing(sqlite3.connect(tmp)) as target:
            source.backup(target)  # pages=-1: every page in one step, one read transaction
            target.execute("PRAGMA journal_mode=DELETE")  # one file: no log beside it to carry
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    _sync_folder(dest.parent)


def _open_existing(path: Path) -> sqlite3.Connection:
    if not Path(path).is_file():
        raise FileNotFoundError(str(path))
    return sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)


def _check(conn: sqlite3.Connection) -> None:
    try:
        ok = conn.execute("PRAGMA quick_check").fetchone()[0]
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise NotADatabase(str(e)) from None
    if ok != "ok":
        raise NotADatabase(ok)
    if not {"games", "events", "cards"} <= tables:
        raise NotADatabase("no games table")


@contextmanager
def _alone(db_path: Path):
    """The database's in-use lock held alone while the block runs: InUse if any process has it open."""
    if fcntl is None:
        yield
        return
    fd = os.open(_marker(db_path), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InUse(str(db_path)) from None
        yield
    finally:
        os.close(fd)


def _marker(db_path: Path) -> str:
    return f"{db_path}.in-use"


def _sync_folder(folder: Path) -> None:
    """The rename made durable (POSIX: the folder's entry); nothing to do where folders can't be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
