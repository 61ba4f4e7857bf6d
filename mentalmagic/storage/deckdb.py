"""Saved decks in SQLite: the list as written, its name, and the hash of its edit token.

Every write is one transaction. The list is read (``decklist.parse_deck``) each
time a deck is shown, so what it loads always follows the current card pool.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..clock import now
from ..decklist import Deck, UnknownDeck, export, parse_deck
from ..errors import Forbidden, InvalidInput
from ..ids import new_id
from ..pool import CardPool
from ..tokens import bearer, matches, new_token, token_hash
from . import connect, transaction


class DeckStore:
    """Create, read, change and delete saved decks; the edit token guards the changes."""

    def __init__(self, db_path: Path | str, pool: CardPool):
        self.db_path = Path(db_path)
        self.pool = pool
        # a Deck is immutable and depends only on the text (and this pool): listing many decks
        # or showing one twice reads each list once
        self._read = lru_cache(maxsize=256)(lambda text, suggest: parse_deck(text, self.pool, suggest=suggest))

    def _db(self):
        return connect(self.db_path, apply_schema=False)  # the schema was applied at start

    # -- reading ---------------------------------------------------------------
    def read(self, text: str, *, suggest: bool = True) -> Deck:
        """The list read against the pool: cards, problems (with suggestions unless told not), flags."""
        if not isinstance(text, str):
            return parse_deck(text, self.pool, suggest=suggest)  # its error, uncached
        return self._read(text, suggest)

    def _row(self, db, deck_id: str) -> dict:
        rows = list(db.query("select * from decks where id = ?", [deck_id]))
        if not rows:
            raise UnknownDeck(deck_id)
        return rows[0]

    def stored(self, deck_id: str) -> dict:
        """The deck's row: id, name, list, edit_token_hash, dates."""
        db = self._db()
        try:
            return self._row(db, deck_id)
        finally:
            db.conn.close()

    def get(self, deck_id: str) -> dict:
        """The deck as stored and as read now: id, name, list, dates, cards, size, problems, flags."""
        return self._view(self.stored(deck_id))

    def _view(self, row: dict, deck: Deck | None = None) -> dict:
        deck = deck or self.read(row["list"])
        return {"id": row["id"], "name": row["name"], **deck.to_dict(), "list": row["list"],
                "created_at": row["created_at"], "updated_at": row["updated_at"]}

    def list(self) -> list[dict]:
        """Every saved deck, newest change first: id, name, size (as read now), updated_at."""
        db = self._db()
        try:
            rows = list(db.query("select * from decks order by updated_at desc, id"))
        finally:
            db.conn.close()
        return [{"id": r["id"], "name": r["name"], "size": self.read(r["list"], suggest=False).size,
                 "updated_at": r["updated_at"]} for r in rows]

    def library(self, deck_id: str) -> list[str]:
        """The printed name of every physical card of a saved deck (700.2): a game's library."""
        deck = self.read(self.stored(deck_id)["list"], suggest=False)
        if not deck.size:
            raise InvalidInput(f"deck {deck_id!r} holds no card", fields={"deck": ["the deck holds no card"]})
        return deck.library()

    def export(self, deck_id: str) -> str:
        row = self.stored(deck_id)
        return export(self.read(row["list"], suggest=False), row["name"])

    # -- writing ---------------------------------------------------------------
    def create(self, name: str, text: str) -> dict:
        """Save a deck; the answer holds its edit token, shown only now (the database keeps a hash)."""
        deck = self.read(text)
        token = new_token()
        at = now()
        row = {"id": new_id(), "name": name, "list": text, "edit_token_hash": token_hash(token),
               "created_at": at, "updated_at": at}
        db = self._db()
        try:
            with transaction(db):
                db["decks"].insert(row)
        finally:
            db.conn.close()
        return {**self._view(row, deck), "edit_token": token}

    def update(self, deck_id: str, authorization: str | None, *, name: str | None = None,
               text: str | None = None) -> dict:
        """Change a deck's name and/or list, with its edit token."""
        deck = self.read(text) if text is not None else None
        db = self._db()
        try:
            with transaction(db):
                row = self._authorized(db, deck_id, authorization)
                changes = {"updated_at": now()}
                if name is not None:
                    changes["name"] = name
                if text is not None:
                    changes["list"] = text
                db["decks"].update(deck_id, changes)
                row = {**row, **changes}
        finally:
            db.conn.close()
        return self._view(row, deck)

    def delete(self, deck_id: str, authorization: str | None) -> None:
        db = self._db()
        try:
            with transaction(db):
                self._authorized(db, deck_id, authorization)
                db["decks"].delete(deck_id)
        finally:
            db.conn.close()

    def authorize(self, deck_id: str, authorization: str | None) -> None:
        """Raise unless ``authorization`` carries the deck's edit token (404, 401, 403)."""
        db = self._db()
        try:
            self._authorized(db, deck_id, authorization)
        finally:
            db.conn.close()

    def _authorized(self, db, deck_id: str, authorization: str | None) -> dict:
        """The deck's row if ``authorization`` carries its edit token: 404, then 401 (none), then 403."""
        row = self._row(db, deck_id)
        if not matches(bearer(authorization, "<edit_token> (given when the deck was saved)"), row["edit_token_hash"]):
            raise Forbidden("this token is not this deck's edit token")
        return row
