"""The use cases of saved decks (700.2), each a few lines over a unit of work, as services.py is
for games: the web handlers and the CLI call these and get plain dicts back. The edit token
guards the changes (tokens.py); storage is behind ``uow.decks``. Nothing here knows HTTP or SQL.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Protocol

from .clock import now
from .decklist import Deck, export, parse_deck
from .errors import Forbidden, InvalidInput
from .ids import new_id
from .messages import say
from .pool import CardPool
from .tokens import bearer, matches, new_token, token_hash


class DeckRepository(Protocol):
    """The stored decks: rows of id, name, list (as written), edit_token_hash, created_at, updated_at."""

    def get(self, deck_id: str) -> dict: ...  # UnknownDeck (404) when there is none
    def all(self) -> list[dict]: ...  # newest change first
    def add(self, row: dict) -> None: ...
    def change(self, deck_id: str, changes: dict) -> None: ...
    def remove(self, deck_id: str) -> None: ...


class DeckUnitOfWork(Protocol):
    """``with uow: ...; uow.commit()``: the writes land together, or none. Reads need no ``with``."""

    decks: DeckRepository
    reader: DeckReader

    def __enter__(self) -> DeckUnitOfWork: ...
    def __exit__(self, *exc) -> None: ...
    def commit(self, answer: Callable[[], dict] | None = None) -> None: ...  # as services.UnitOfWork


class DeckReader:
    """A list read against the pool (``decklist.parse_deck``) each time a deck is shown, so what it
    loads follows the current pool; a Deck is immutable, so the same text is read once while remembered."""

    def __init__(self, pool: CardPool):
        self.pool = pool
        self._read = lru_cache(maxsize=256)(lambda text, suggest: parse_deck(text, pool, suggest=suggest))

    def __call__(self, text: str, *, suggest: bool = True) -> Deck:
        if not isinstance(text, str):
            return parse_deck(text, self.pool, suggest=suggest)  # its error, uncached
        return self._read(text, suggest)


# -- reads ----------------------------------------------------------------------------------------
def read_deck(uow: DeckUnitOfWork, text: str) -> Deck:
    """A list read without saving it: cards, problems with their suggestions, flags."""
    return uow.reader(text)


def dry_run(uow: DeckUnitOfWork, name: str, text: str) -> dict:
    """What saving the list would answer, saving nothing (POST /decks?dry_run=1)."""
    return {"id": None, "name": name, **uow.reader(text).to_dict(), "list": text,
            "created_at": None, "updated_at": None, "dry_run": True}


def get_deck(uow: DeckUnitOfWork, deck_id: str) -> dict:
    """The deck as stored and as read now: id, name, list, dates, cards, size, problems, flags."""
    return _view(uow, uow.decks.get(deck_id))


def list_decks(uow: DeckUnitOfWork) -> list[dict]:
    """Every saved deck, newest change first: id, name, size (as read now), updated_at."""
    return [{"id": r["id"], "name": r["name"], "size": uow.reader(r["list"], suggest=False).size,
             "updated_at": r["updated_at"]} for r in uow.decks.all()]


def deck_library(uow: DeckUnitOfWork, deck_id: str) -> list[str]:
    """The printed name of every physical card of a saved deck (700.2): a game's library."""
    deck = uow.reader(uow.decks.get(deck_id)["list"], suggest=False)
    if not deck.size:
        raise InvalidInput("deck.empty", deck=deck_id, fields={"deck": [say("deck.empty.field")]})
    return deck.library()


def export_deck(uow: DeckUnitOfWork, deck_id: str) -> str:
    """The deck as text, one `4 Shock` line per card, that ``read_deck`` reads back to the same cards."""
    row = uow.decks.get(deck_id)
    return export(uow.reader(row["list"], suggest=False), row["name"])


def authorize_deck(uow: DeckUnitOfWork, deck_id: str, authorization: str | None) -> None:
    """Raise unless ``authorization`` carries the deck's edit token: 404, then 401 (none), then 403."""
    _authorized(uow.decks.get(deck_id), authorization)


# -- writes ---------------------------------------------------------------------------------------
def create_deck(uow: DeckUnitOfWork, name: str, text: str) -> dict:
    """Save a deck; the answer holds its edit token, shown only now (the database keeps a hash)."""
    deck = uow.reader(text)
    token, at = new_token(), now()
    row = {"id": new_id(), "name": name, "list": text, "edit_token_hash": token_hash(token),
           "created_at": at, "updated_at": at}
    answer = {**_view(uow, row, deck), "edit_token": token}
    with uow:
        uow.decks.add(row)
        uow.commit(lambda: answer)
    return answer


def update_deck(uow: DeckUnitOfWork, deck_id: str, authorization: str | None, *, name: str | None = None,
                text: str | None = None) -> dict:
    """Change a deck's name and/or list, with its edit token."""
    deck = uow.reader(text) if text is not None else None
    changes = {"updated_at": now()}
    if name is not None:
        changes["name"] = name
    if text is not None:
        changes["list"] = text
    with uow:
        row = _authorized(uow.decks.get(deck_id), authorization)
        uow.decks.change(deck_id, changes)
        uow.commit()
    return _view(uow, {**row, **changes}, deck)


def delete_deck(uow: DeckUnitOfWork, deck_id: str, authorization: str | None) -> dict:
    """Delete a deck, with its edit token."""
    with uow:
        _authorized(uow.decks.get(deck_id), authorization)
        uow.decks.remove(deck_id)
        uow.commit()
    return {"deleted": deck_id}


def _authorized(row: dict, authorization: str | None) -> dict:
    if not matches(bearer(authorization, "deck.token_missing"), row["edit_token_hash"]):
        raise Forbidden("deck.token_wrong")
    return row


def _view(uow: DeckUnitOfWork, row: dict, deck: Deck | None = None) -> dict:
    deck = deck or uow.reader(row["list"])
    return {"id": row["id"], "name": row["name"], **deck.to_dict(), "list": row["list"],
            "created_at": row["created_at"], "updated_at": row["updated_at"]}
