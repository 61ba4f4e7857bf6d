"""Wiring for one process: the database file, the card pool and its index.

Shared by the web app and the CLI so both see the same cards the same way.
When MENTALMAGIC_CARDS names another source than the one stored, the card
tables are rebuilt before the pool is loaded (games are kept).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cards import Source, source_from_env

from .index import CandidateFinder
from .pool import CardPool
from .storage import connect
from .storage.carddb import build_cards, is_current, read_finder, stored_source

ROOT = Path(__file__).resolve().parents[1]


def default_db_path() -> Path:
    """MENTALMAGIC_DB, else instance/mentalmagic.sqlite in the project (Flask's instance folder)."""
    return Path(os.environ.get("MENTALMAGIC_DB") or ROOT / "instance" / "mentalmagic.sqlite")


@dataclass
class Runtime:
    db_path: Path
    pool: CardPool
    finder: CandidateFinder
    games: object = field(default=None)  # the game store, attached by the web app


def terminal_progress(label: str):
    """A progress callback that counts cards on a terminal, and stays silent elsewhere."""
    if not sys.stderr.isatty():
        return None
    count = 0

    def tick(n: int = 1):
        nonlocal count
        count += n
        if count % 1000 == 0:
            print(f"\r{label}: {count} cards", end="", file=sys.stderr, flush=True)

    return tick


def ensure_cards(db_path: Path, source: Source | None = None, *, force: bool = False) -> bool:
    """Build the card tables if the stored ones come from another source; True if built."""
    source = source or source_from_env()
    db = connect(db_path)
    try:
        if not force and is_current(db, source):
            return False
        tick = terminal_progress(f"importing {source.label}")
        n = build_cards(db, source, tick)
        if tick:
            print(f"\rimported {n} cards from {source.label}", file=sys.stderr)
        return True
    finally:
        db.conn.close()


def open_runtime(db_path: Path, source: Source | None = None, *, rebuild: bool = True) -> Runtime:
    """Load the pool and its default index, first making the card tables current.

    ``rebuild=False`` (the CLI's look-ups) builds only an empty database and
    otherwise uses the stored cards as they are: a judge's query must never
    swap the cards under a running server. ``stale_source()`` says when they differ.
    """
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    if rebuild or not has_cards(db_path):
        ensure_cards(db_path, source)
    finder = read_finder(db_path)  # with the default format's index, from the pool cache when current
    return Runtime(db_path=db_path, pool=finder.pool, finder=finder)


def has_cards(db_path: Path) -> bool:
    db = connect(db_path)
    try:
        return stored_source(db) is not None
    finally:
        db.conn.close()


def stale_source(db_path: Path, source: Source | None = None) -> str | None:
    """A warning when the stored cards come from another source than the setting names."""
    source = source or source_from_env()
    db = connect(db_path)
    try:
        stored = stored_source(db)
    finally:
        db.conn.close()
    if stored and stored["signature"] != source.signature:
        return (f"the card database holds {stored['label']}, but MENTALMAGIC_CARDS names {source.label}; "
                "run `mentalmagic build-cards` to switch")
    return None
