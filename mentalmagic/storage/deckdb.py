"""Saved decks in SQLite: the list as written, its name, and the hash of its edit token.

Storage only: ``DeckStore.unit_of_work()`` gives what decks.py's use cases run over. Every
write is one transaction (``with uow: …; uow.commit()``); a read outside one opens its own
short connection. Each connection is to the file the store started on (storage/dbfile.py), and a
write is acknowledged only once it is known to be in the file at the database's path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from ..decklist import UnknownDeck
from ..decks import DeckReader
from ..pool import CardPool
from . import idempotency
from .dbfile import DatabaseFile


class DeckStore:
    """The database file and the pool the lists are read against: one per app or CLI run."""

    def __init__(self, db_path: Path | str, pool: CardPool):
        self.db_path = Path(db_path)
        self.file = DatabaseFile(self.db_path)
        self.reader = DeckReader(pool)  # shared by every unit of work: its remembered lists too

    def unit_of_work(self) -> DeckUnitOfWork:
        return DeckUnitOfWork(self.file, self.reader)


class DeckUnitOfWork:
    def __init__(self, file: DatabaseFile, reader: DeckReader):
        self.file, self.reader = file, reader
        self.decks = DeckRepository(self._db)
        self._open: sqlite_utils.Database | None = None

    def __enter__(self) -> DeckUnitOfWork:
        self._open = self.file.open()  # the schema was applied at start
        self._open.conn.execute("BEGIN IMMEDIATE")  # writers queue: nothing half-lands
        return self

    remember = None  # as SqliteUnitOfWork's: an Idempotency-Key's answer kept in the same transaction

    def commit(self, answer=None) -> None:
        if self.remember is not None and answer is not None:
            idempotency.keep(self._open.conn, *self.remember(answer()))
        self._open.conn.execute("COMMIT")  # synchronous=FULL: on disk once it returns
        self.file.check_written()

    def __exit__(self, *exc) -> None:
        db, self._open = self._open, None
        try:
            if db.conn.in_transaction:  # not committed (an error, or a refusal): nothing lands
                db.conn.execute("ROLLBACK")
        finally:
            db.conn.close()

    @contextmanager
    def _db(self) -> Iterator[sqlite_utils.Database]:
        """The unit's connection inside ``with``; else a short one of its own."""
        if self._open is not None:
            yield self._open
            return
        db = self.file.open()
        try:
            yield db
        finally:
            db.conn.close()


class DeckRepository:
    """The ``decks`` table (decks.DeckRepository)."""

    def __init__(self, db: Callable):
        self._db = db

    def get(self, deck_id: str) -> dict:
        with self._db() as db:
            rows = list(db.query("select * from decks where id = ?", [deck_id]))
        if not rows:
            raise UnknownDeck(deck_id)
        return rows[0]

    def all(self) -> list[dict]:
        with self._db() as db:
            return list(db.query("select * from decks order by updated_at desc, id"))

    def add(self, row: dict) -> None:
        with self._db() as db:
            db["decks"].insert(row)

    def change(self, deck_id: str, changes: dict) -> None:
        with self._db() as db:
            db["decks"].update(deck_id, changes)

    def remove(self, deck_id: str) -> None:
        with self._db() as db:
            db["decks"].delete(deck_id)
