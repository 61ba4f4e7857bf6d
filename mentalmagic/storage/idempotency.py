"""Answers kept for ``Idempotency-Key`` (issue 23): written in the transaction of the write they
answer, so a write and its answer land together or not at all; read back for a retry within a day.

The rows hold hashes and a sealed answer (web/idempotency.py seals it under the client's key: an
answer may hold tokens, and the database never holds a token in clear). Rows older than a day
go when a new one is written.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from . import existing

KEPT = timedelta(days=1)


def _since() -> str:
    return (datetime.now(UTC) - KEPT).isoformat(timespec="milliseconds")


def find(db_path: Path | str, key_hash: str) -> tuple[str, int, bytes] | None:
    """(request hash, status, sealed answer) kept under ``key_hash`` less than a day ago, or None."""
    conn = sqlite3.connect(existing(db_path), timeout=30, uri=True)  # a file gone stays gone (storage/dbfile.py)
    try:
        return conn.execute("select request, status, answer from idempotency where key_hash = ? and created_at >= ?",
                            [key_hash, _since()]).fetchone()
    finally:
        conn.close()


def keep(conn: sqlite3.Connection, key_hash: str, request: str, status: int, answer: bytes) -> None:
    """Inside the write's transaction: the answer under ``key_hash``; a key kept meanwhile by a
    concurrent retry is an IntegrityError, and the whole write rolls back (the retry gets the first answer)."""
    conn.execute("delete from idempotency where created_at < ?", [_since()])
    conn.execute("insert into idempotency (key_hash, request, status, answer, created_at) values (?, ?, ?, ?, ?)",
                 [key_hash, request, status, answer, datetime.now(UTC).isoformat(timespec="milliseconds")])
