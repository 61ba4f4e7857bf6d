"""The storage edge: SQLite through sqlite-utils. No rule of Mental Magic lives here."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import sqlite_utils


def _schema_path() -> Path:
    """schema.sql: the top level of a checkout holds the one source; the wheel carries a copy beside
    this module (setup.py), since an installed package has no top level of its own."""
    here = Path(__file__).resolve().parent
    installed = here / "schema.sql"
    return installed if installed.is_file() else here.parents[1] / "schema.sql"


SCHEMA_PATH = _schema_path()


def existing(path: str | Path) -> str:
    """A URI opening the database file at ``path`` only if it is there: SQLite would make an empty
    one in its place (issue 30: a file deleted under a running server must stay gone, not become
    an empty database)."""
    return f"file:{quote(str(Path(path).absolute()))}?mode=rw"


def connect(path: str | Path, *, apply_schema: bool = True, uri: bool = False) -> sqlite_utils.Database:
    """Open the database (``path`` a URI with ``uri``: ``existing``), apply schema.sql, and set the
    pragmas every connection needs.

    The connection is in autocommit mode; every multi-step write goes through
    ``transaction()`` so that it lands whole or not at all.
    """
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None, uri=uri)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 30000")
    if str(path) != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")  # durable commits: a game survives a crash
    if apply_schema:
        _names_anew(conn)
        conn.executescript(SCHEMA_PATH.read_text(encoding="utf-8"))
        _add_missing_columns(conn)
    return sqlite_utils.Database(conn, execute_plugins=False)  # no plugin: no scan of every package's entry points


# Columns added to a table after its first release: (table, column, definition). schema.sql
# creates new databases whole; an older file gets the column here, once.
ADDED_COLUMNS = [
    ("series", "name", "TEXT"),
    ("games", "version", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "updated_at", "TEXT"),
    ("games", "finished_at", "TEXT"),
    ("games", "archived_at", "TEXT"),
    ("faces", "power", "TEXT"),
    ("faces", "toughness", "TEXT"),
    ("faces", "loyalty", "TEXT"),
    ("faces", "defense", "TEXT"),
    # colour identity (903.4, #10): card tables built before it are rebuilt (carddb.CARD_SCHEMA)
    ("card_source", "card_schema", "INTEGER NOT NULL DEFAULT 1"),
    ("cards", "color_identity", "TEXT"),
    ("faces", "colors", "TEXT"),
]


def _names_anew(conn: sqlite3.Connection) -> None:
    """A names table from before MageRing's renamed cards (issue 25) held one row per card, keyed so:
    rebuilt once, rows kept, keyed by card and seq (schema.sql makes its indexes again)."""
    def old() -> bool:
        have = {row[1] for row in conn.execute("PRAGMA table_info(names)")}
        return bool(have) and "anew" not in have

    if not old():
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if old():  # another process may have rebuilt it while this one waited
            conn.execute("ALTER TABLE names RENAME TO names_before_anew")
            conn.execute("DROP INDEX IF EXISTS names_one_card_per_name")
            conn.execute(_names_table())
            conn.execute("INSERT INTO names (game_id, name_key, name, card, player, seq, exception)"
                         " SELECT game_id, name_key, name, card, player, seq, exception FROM names_before_anew")
            conn.execute("DROP TABLE names_before_anew")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _names_table() -> str:
    """schema.sql's CREATE TABLE for names, as written there."""
    text = SCHEMA_PATH.read_text(encoding="utf-8")
    start = text.index("CREATE TABLE IF NOT EXISTS names (")
    return text[start:text.index(");", start) + 2]


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    for table, column, definition in ADDED_COLUMNS:
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


@contextmanager
def transaction(db: sqlite_utils.Database):
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error: writers queue, nothing half-lands."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.conn.execute("COMMIT")
    except BaseException:
        if db.conn.in_transaction:  # also when COMMIT itself failed: never leave it open
            db.conn.execute("ROLLBACK")
        raise
