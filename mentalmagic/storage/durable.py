"""A games connection's commits made durable after the writer lock, not inside it (issue 8).

With ``synchronous=FULL``, SQLite fsyncs the WAL inside COMMIT, so the fsync was part of what
writers queued for: with eight bots acting at once, about half of the time each held the writer
lock (storage/writelock.py; the figures in docs/performance.md). Where it can, a games connection commits with
``synchronous=NORMAL`` instead (the WAL is written, not yet synced: SQLite documents WAL with
NORMAL as safe from corruption, only not durable), and the store calls ``fdatasync`` on the WAL:

- at the end of every unit of work, once it has let the lock go, before its caller is
  answered, whether the action landed or was refused (a refusal may rest on what another
  writer committed an instant before);
- before a read outside a unit of work shows a game at a version this process hasn't seen
  synced (the first read after another process's write: little when that write's own sync is
  done, the rest of it when not).

``fdatasync`` flushes the whole file, so every frame written before its own too (the WAL is
appended in order): what an answer shows, and what it rests on, is on disk when it is sent,
as with FULL. What doesn't wait: the check of a token (a token the judge just replaced still
fails at once), the list of games and the shell's completions. What a failed ``fdatasync``
means: the write is in the WAL and others may see it, but the disk may not hold it, and the
kernel says so only once. The store answers that write "outcome unknown", and from then on its
process (``GameStore.failed``: per process, so another worker may still answer) writes nothing
and shows nothing it doesn't already know is on disk (503 ``storage_failed``), until restarted.

Elsewhere the connection keeps ``synchronous=FULL`` and nothing is left to do: without WAL (a
file system that can't share its memory), and where ``os.fdatasync`` is missing (macOS, Windows:
one process there, and SQLite's own sync is what a judge's laptop has always had).
"""

from __future__ import annotations

import os
import sqlite3


def wal_to_sync(conn: sqlite3.Connection) -> int | None:
    """Have ``conn`` commit without its own fsync and give a descriptor of its WAL to ``fdatasync``
    after each write; None (and ``conn`` unchanged, ``synchronous=FULL``) where that can't be done.

    The WAL's path is SQLite's own (``PRAGMA database_list``: symlinks resolved, as SQLite does
    when it puts the WAL beside the real file). The descriptor lives as long as the connection:
    while a connection is open SQLite never deletes the WAL (that takes an exclusive lock, after a
    checkpoint), and a failed flush is told once to each descriptor open before it, not to one
    opened after."""
    if not hasattr(os, "fdatasync"):
        return None
    if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
        return None
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    if not path:  # a temporary or in-memory database: nothing to make durable
        return None
    # SQLite holds this very file open: failing to open it (out of descriptors…) is an error, not a
    # reason to fall back, since this connection's reads must still sync what others commit.
    fd = os.open(f"{path}-wal", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    conn.execute("PRAGMA synchronous = NORMAL")
    return fd
