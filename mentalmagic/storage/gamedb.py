"""Games in SQLite: setup, append-only events, and their projection (cards, names).

One action is one transaction (BEGIN IMMEDIATE): the event, the names it takes
and the cards it moves land together or not at all, and two bots acting on
one game at once are serialised by SQLite's write lock. The state in memory
is a cache keyed by the game's last seq, rebuilt from the log whenever another
writer got there first.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import AlreadyNamed, Forbidden, NameTaken, NothingToUndo, Unauthorized, UnknownGame
from ..index import CandidateFinder
from ..ledger import Event, GameSetup, GameState, Player, check_setup, decide, replay
from ..names import fold
from . import connect, transaction


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Caller:
    """Who is asking: a player of this game, or its judge."""

    player: str | None
    is_judge: bool


@dataclass
class Game:
    """A game as loaded: its setup, state after the last event, and the events."""

    id: str
    setup: GameSetup
    state: GameState
    created_at: str
    version: int = 0  # games.version it was read at: seq alone repeats after an undo

    @property
    def format(self) -> str:
        return self.setup.format

    @property
    def options(self) -> dict:
        return self.setup.options

    @property
    def taken_keys(self) -> frozenset[str]:
        return self.state.names.taken_keys()


class GameStore:
    """Create, load and change games; every write in one transaction."""

    def __init__(self, db_path: Path, finder: CandidateFinder):
        self.db_path = Path(db_path)
        self.finder = finder
        self._local = threading.local()
        self._cache: dict[str, Game] = {}
        self._cache_lock = threading.Lock()

    # -- connections: one per thread, the schema already applied at start -----------
    @property
    def db(self):
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.db_path, apply_schema=False)
        return db

    # -- creating ---------------------------------------------------------------
    def create(self, fmt: str, options: dict, players: list[dict], library: list[str],
               shuffle: bool = True) -> dict:
        """A new game; returns its id, the judge's and players' tokens (shown only now)."""
        pool = self.finder.pool
        ids: set[str] = set()
        while len(ids) < len(library):  # random ids: a card id says nothing of its printed card
            ids.add(secrets.token_hex(5))
        order = list(library)
        if shuffle:
            random.SystemRandom().shuffle(order)
        found = [pool.find(name) for name in order]  # French or face names become the English name
        cards = [(cid, card.name if card else name) for cid, card, name in zip(ids, found, order, strict=True)]
        setup = GameSetup(
            format=fmt,
            players=tuple(Player(id=f"p{i}", name=p["name"], team=p.get("team")) for i, p in enumerate(players, 1)),
            library=tuple(cards),
            options=dict(options),
        )
        check_setup(setup, pool)
        game_id = secrets.token_urlsafe(9)
        judge = secrets.token_urlsafe(24)
        tokens = {p.id: secrets.token_urlsafe(24) for p in setup.players}
        created = now()
        state = GameState.initial(setup)
        with transaction(self.db) as db:
            db["games"].insert({
                "id": game_id, "created_at": created, "format": fmt,
                "options": json.dumps(setup.options), "setup": json.dumps(setup.to_dict()),
                "judge_token_hash": token_hash(judge), "seq": 0, "version": 0,
            })
            db["players"].insert_all(
                {"game_id": game_id, "id": p.id, "position": i, "name": p.name, "team": p.team,
                 "token_hash": token_hash(tokens[p.id])}
                for i, p in enumerate(setup.players)
            )
            self._write_cards(db, game_id, state, state.cards)
        self._remember(Game(game_id, setup, state, created))
        return {
            "id": game_id,
            "judge_token": judge,
            "players": [{"id": p.id, "name": p.name, "team": p.team, "token": tokens[p.id]}
                        for p in setup.players],
            "library_size": len(cards),
            "format": fmt,
            "options": setup.options,
        }

    # -- reading ----------------------------------------------------------------
    def load(self, game_id: str) -> Game:
        """The game after its last event (from the cache when nobody wrote since)."""
        row = self._row(game_id)
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == row["version"]:
            return cached
        return self._remember(self._replay(row))

    def authenticate(self, game_id: str, authorization: str | None) -> Caller:
        """The caller a bearer token stands for in this game; 401 when missing or wrong."""
        row = self._row(game_id)
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("send Authorization: Bearer <token> (a player's or the judge's token)")
        digest = token_hash(token.strip())
        if hmac.compare_digest(digest, row["judge_token_hash"]):
            return Caller(player=None, is_judge=True)
        for p in self.db.query("select id, token_hash from players where game_id = ?", [game_id]):
            if hmac.compare_digest(digest, p["token_hash"]):
                return Caller(player=p["id"], is_judge=False)
        raise Unauthorized("this token belongs to no player of this game")

    def events(self, game_id: str) -> list[Event]:
        self._row(game_id)
        return [self._event(r) for r in
                self.db.query("select * from events where game_id = ? order by seq", [game_id])]

    def names(self, game_id: str) -> list[dict]:
        self._row(game_id)
        return list(self.db.query(
            "select name, card, player, seq, exception from names where game_id = ? order by seq, name",
            [game_id]))

    # -- writing ----------------------------------------------------------------
    def act(self, game_id: str, caller: Caller, action: dict) -> tuple[Event, list[str], Game]:
        """Check and record one action; returns the event, the ids of changed cards, the new game."""
        actor = None if caller.is_judge else caller.player  # the judge acts for action["player"]
        db = self.db
        try:
            with transaction(db):
                game = self.load(game_id)  # inside the lock: nobody can write between read and append
                event = decide(game.state, game.setup, self.finder, action, actor, caller.is_judge, now())
                new_state = game.state.apply_event(event)
                db["events"].insert(self._event_row(game_id, event))
                changed = self._sync(db, game_id, game.state, new_state)
                db.execute("update games set seq = ?, version = version + 1 where id = ?", [event.seq, game_id])
        except sqlite3.IntegrityError as e:  # the database's own guards of 704.2 and 704.4
            if "names.name_key" in str(e):
                raise NameTaken("that name was taken by another card at the same moment") from e
            if "names.card" in str(e):
                raise AlreadyNamed("this card was named at the same moment") from e
            raise
        new_game = self._remember(Game(game_id, game.setup, new_state, game.created_at, game.version + 1))
        return event, changed, new_game

    def undo(self, game_id: str, caller: Caller) -> tuple[Event, Game]:
        """Take back the last event (judge only): the state is exactly what it was before it."""
        if not caller.is_judge:
            raise Forbidden("only the judge may undo")
        db = self.db
        with transaction(db):
            game = self.load(game_id)
            rows = list(db.query("select * from events where game_id = ? order by seq", [game_id]))
            if not rows:
                raise NothingToUndo("there is no event to undo", fields={"game": ["no event to undo"]})
            events = [self._event(r) for r in rows]
            last = events[-1]
            before = replay(game.setup, events[:-1])
            db.execute("delete from events where game_id = ? and seq = ?", [game_id, last.seq])
            db["undone_events"].insert({"game_id": game_id, "undone_at": now(),
                                        "event": json.dumps(last.to_dict())})
            self._sync(db, game_id, game.state, before)
            db.execute("update games set seq = ?, version = version + 1 where id = ?", [before.seq, game_id])
        return last, self._remember(Game(game_id, game.setup, before, game.created_at, game.version + 1))

    # -- helpers ---------------------------------------------------------------------
    def _row(self, game_id: str) -> dict:
        rows = list(self.db.query("select * from games where id = ?", [game_id]))
        if not rows:
            raise UnknownGame(game_id)
        return rows[0]

    def _replay(self, row: dict) -> Game:
        setup = GameSetup.from_dict(json.loads(row["setup"]))
        events = [self._event(r) for r in
                  self.db.query("select * from events where game_id = ? order by seq", [row["id"]])]
        return Game(row["id"], setup, replay(setup, events), row["created_at"], row["version"])

    def _remember(self, game: Game) -> Game:
        with self._cache_lock:
            current = self._cache.get(game.id)
            if current is None or current.version <= game.version:  # never step back to an older read
                self._cache[game.id] = game
        return game

    @staticmethod
    def _event(row: dict) -> Event:
        return Event(seq=row["seq"], type=row["type"], player=row["player"], data=json.loads(row["data"]),
                     rule=row["rule"], at=row["at"])

    @staticmethod
    def _event_row(game_id: str, e: Event) -> dict:
        return {"game_id": game_id, "seq": e.seq, "at": e.at or now(), "type": e.type, "player": e.player,
                "data": json.dumps(e.data, sort_keys=True), "rule": e.rule}

    def _sync(self, db, game_id: str, old: GameState, new: GameState) -> list[str]:
        """Rewrite the projection rows that differ between two states; return changed card ids."""
        changed = [cid for cid, c in new.cards.items() if old.cards[cid] != c]
        self._write_cards(db, game_id, new, {cid: new.cards[cid] for cid in changed})
        old_names = {(r.card, r.name, r.seq, r.exception) for r in old.names.records()}
        new_records = {(r.card, r.name, r.seq, r.exception): r for r in new.names.records()}
        for card, *_ in old_names - set(new_records):
            db.execute("delete from names where game_id = ? and card = ?", [game_id, card])
        for key in sorted(set(new_records) - old_names, key=lambda k: k[2]):
            r = new_records[key]
            db["names"].insert({"game_id": game_id, "name_key": fold(r.name), "name": r.name, "card": r.card,
                                "player": r.player, "seq": r.seq, "exception": r.exception})
        return changed

    @staticmethod
    def _write_cards(db, game_id: str, state: GameState, cards: dict) -> None:
        db["game_cards"].upsert_all(
            ({"game_id": game_id, "id": c.id, "printed": c.printed, "zone": c.zone, "owner": c.owner,
              "controller": c.controller, "face_down": int(c.face_down), "pentaland": int(c.pentaland),
              "named_as": c.named_as, "state": json.dumps(c.to_dict())} for c in cards.values()),
            pk=("game_id", "id"),
        )
