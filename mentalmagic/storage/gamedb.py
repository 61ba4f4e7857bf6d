"""Games in SQLite: the repository (load, add, append, sync), the unit of work around it, and the
store that makes them (over gameconn.GameDatabase and gamecache.VersionCache).

One use case is one transaction (BEGIN IMMEDIATE): the event, the names it takes and the
cards it moves land together or not at all, and two bots acting on one game at once are
serialised by SQLite's write lock. The state in memory is a cache keyed by the game's
version, rebuilt from the log whenever another writer got there first; a unit of work
puts what it wrote in the cache only once it has committed. The cache is bounded (least
recently used games go first) and never holds an archived game.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import orjson

from ..clock import now
from ..errors import AlreadyNamed, NameTaken, UnknownGame
from ..game import Event, Game, GameSetup, GameState, replay
from ..index import CandidateFinder
from ..names import fold
from . import idempotency
from .gamecache import VersionCache
from .gameconn import GameDatabase
from .seriesdb import SeriesStore

_TOKENS = ("select g.judge_token_hash, p.id, p.token_hash from games g left join players p on p.game_id = g.id"
           " where g.id = ?")


def _json(obj) -> str:
    """An event's data (keys sorted, as before) or a card state (a dataclass: ``CardState.to_dict``'s
    fields, in order) as stored, through orjson: ``json.dumps`` and ``dataclasses.asdict`` cost more
    than the rest of an action's write (issue 8)."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


class GameRepository:
    """The games' rows, for one unit of work: reads from the cache when the stored version says it
    is still good; writes only inside the unit's transaction, kept in the cache once it commits."""

    def __init__(self, database: GameDatabase, cache: VersionCache, shard: str = ""):
        self.database, self.cache = database, cache
        self.shard = shard  # the prefix of the ids of the games created here (MENTALMAGIC_SHARD)
        self.written: list[Game] = []  # what this unit wrote, kept in the cache once it commits

    @property
    def db(self):
        return self.database.db

    # -- reading ------------------------------------------------------------------------------
    def load(self, game_id: str) -> Game:
        """The game after its last event: from the cache when nobody wrote since, the cache plus
        the events written since when another process only appended, else replayed from the log."""
        version = self._version(game_id)  # one indexed read: whether another process wrote since
        cached, hit = self.cache.get(game_id, version)
        if hit:  # synced outside the cache's lock: a sync may wait on the disk
            self.database.shown(game_id, version)
            return cached
        with self.database.snapshot():  # the row and the events as of one moment
            row = self._row(game_id)
            game = self._caught_up(cached, row) if cached is not None and cached.version < row["version"] else None
            if game is None:
                setup = GameSetup.from_dict(json.loads(row["setup"]))
                game = Game(row["id"], setup, replay(setup, self._read_events(game_id)), row["created_at"],
                            row["version"], archived_at=row["archived_at"])
        self.database.shown(game_id, game.version)
        return self.cache.keep(game)

    def peek(self, game_id: str) -> Game | None:
        """The game as this process last saw it, without reading the database: perhaps stale,
        perhaps None (``load`` under the writer lock says, by its version, whether it still is)."""
        return self.cache.peek(game_id)

    def _caught_up(self, cached: Game, row: dict) -> Game | None:
        """``cached`` with the events appended since folded in, or None when an undo came between.

        Every write bumps the version by one: an append adds the event after the last, an undo
        removes the last (undone_events keeps it). So after ``a`` appends and ``u`` undos the log holds
        ``a - u`` events past the cached seq while the version moved by ``a + u``: the two agree
        only when nothing was undone, and then those events are exactly the ones to fold."""
        new = self._read_events(cached.id, since=cached.state.seq)
        if len(new) != row["version"] - cached.version or (new[-1].seq if new else cached.state.seq) != row["seq"]:
            return None
        return Game(cached.id, cached.setup, cached.state.apply_events(new), cached.created_at, row["version"],
                    archived_at=row["archived_at"])

    def events(self, game_id: str, since: int | None = None, limit: int | None = None) -> list[Event]:
        """The log in order; with ``since``, only the events after that seq; at most ``limit``."""
        with self.database.snapshot():  # the version, and the events as of it
            version = self._row(game_id)["version"]
            events = self._read_events(game_id, since, limit)
        self.database.shown(game_id, version)
        return events

    def _read_events(self, game_id: str, since: int | None = None, limit: int | None = None) -> list[Event]:
        sql, args = "select seq, at, type, player, data, rule from events where game_id = ?", [game_id]
        if since is not None:
            sql += " and seq > ?"
            args.append(since)
        sql += " order by seq"
        if limit is not None:
            sql += " limit ?"
            args.append(limit)
        return [Event(seq=seq, type=typ, player=player, data=orjson.loads(data), rule=rule, at=at)
                for seq, at, typ, player, data, rule in self.db.conn.execute(sql, args)]

    def tokens(self, game_id: str) -> tuple[str, dict[str, str]]:
        """The judge's token hash, and each player's."""
        rows = self.db.conn.execute(_TOKENS, [game_id]).fetchall()
        if not rows:
            raise UnknownGame(game_id)
        return rows[0][0], {pid: h for _, pid, h in rows if pid is not None}

    def summaries(self) -> list[dict]:
        """Every game of the file, newest first: id, created_at, format, seq, finished_at and
        archived_at (None while it goes on, or is live), players' names in seat order."""
        names: dict[str, list[str]] = {}
        for r in self.db.query("select game_id, name from players order by game_id, position"):
            names.setdefault(r["game_id"], []).append(r["name"])
        return [{**r, "players": names.get(r["id"], [])}
                for r in self.db.query("select id, created_at, format, seq, finished_at, archived_at from games "
                                       "order by created_at desc, id")]

    # -- writing (inside a unit of work) ------------------------------------------------------
    def add(self, game: Game, judge_hash: str, player_hashes: dict[str, str], events: tuple[Event, ...] = ()) -> None:
        """A new game; with ``events``, one read back from its record (replay.py): its log as it was, and
        the projection of its state after them."""
        db, setup = self.db, game.setup
        db["games"].insert({
            "id": game.id, "created_at": game.created_at, "format": setup.format,
            "options": json.dumps(setup.options), "setup": json.dumps(setup.to_dict()),
            "judge_token_hash": judge_hash, "seq": game.state.seq, "version": game.version,
            **({"updated_at": now(), "finished_at": now() if game.state.finished else None} if events else {}),
        })
        db["players"].insert_all(
            {"game_id": game.id, "id": p.id, "position": i, "name": p.name, "team": p.team,
             "token_hash": player_hashes[p.id]}
            for i, p in enumerate(setup.players)
        )
        self._write_cards(game.id, game.state.cards.values())
        self.db.conn.executemany(
            "insert into events (game_id, seq, at, type, player, data, rule) values (?, ?, ?, ?, ?, ?, ?)",
            [(game.id, e.seq, e.at, e.type, e.player, _json(e.data), e.rule) for e in events])
        self._add_names(game.id, game.state.names.records())
        self.written.append(game)

    def append(self, game: Game, event: Event, new_state: GameState) -> tuple[Game, list[str]]:
        """Record ``event`` and the projection of ``new_state``; the new game and the changed card ids."""
        self.db.conn.execute(
            "insert into events (game_id, seq, at, type, player, data, rule) values (?, ?, ?, ?, ?, ?, ?)",
            [game.id, event.seq, event.at, event.type, event.player, _json(event.data), event.rule])
        changed = new_state.changed_cards(game.state)
        return self._sync(game, new_state, changed, event.at), changed

    def remove_last(self, game: Game, last: Event, before: GameState, at: str) -> Game:
        """Undo: the last event moves to undone_events and the projection goes back to ``before``."""
        self.db.execute("delete from events where game_id = ? and seq = ?", [game.id, last.seq])
        self.db["undone_events"].insert({"game_id": game.id, "undone_at": at,
                                         "event": json.dumps(last.to_dict())})
        return self._sync(game, before, at=at)

    def set_token(self, game_id: str, player: str, token_hash: str) -> None:
        self.db.execute("update players set token_hash = ? where game_id = ? and id = ?",
                        [token_hash, game_id, player])

    def archive(self, idle_since: str, at: str, most: int = 200) -> list[str]:
        """Archive the games nobody wrote to since ``idle_since`` (ISO 8601, UTC), over or not: they
        become read-only, their projection rows go (the log is the truth; a read replays it) and
        they leave the cache. At most ``most`` at a time, the longest idle first, so that one sweep
        holds the write lock briefly. The ids archived."""
        db = self.db
        ids = [r["id"] for r in db.query(
            "select id from games where archived_at is null and coalesce(updated_at, created_at) < ? "
            "order by coalesce(updated_at, created_at) limit ?", [idle_since, most])]
        for game_id in ids:
            # a new version: another process's cached copy of the game is stale from now on
            db.execute("update games set archived_at = ?, version = version + 1 where id = ?", [at, game_id])
            db.execute("delete from game_cards where game_id = ?", [game_id])
            db.execute("delete from names where game_id = ?", [game_id])
        self.cache.drop(ids)
        return ids

    # -- helpers ------------------------------------------------------------------------------
    def _row(self, game_id: str) -> dict:
        cur = self.db.conn.execute("select * from games where id = ?", [game_id])
        row = cur.fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return dict(zip([d[0] for d in cur.description], row, strict=True))

    def _version(self, game_id: str) -> int:
        row = self.db.conn.execute("select version from games where id = ?", [game_id]).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return row[0]

    def _sync(self, game: Game, new: GameState, changed: list[str] | None = None, at: str | None = None) -> Game:
        """Rewrite the projection rows that differ between the game's state and ``new``; bump the version.

        A state folded from the game's compares only the cards its event touched, and adds the
        names taken after the game's seq (a fold never gives a name back); any other (undo's
        replay) is compared whole."""
        conn, old = self.db.conn, game.state
        if changed is None:
            changed = new.changed_cards(old)
        self._write_cards(game.id, (new.cards[cid] for cid in changed))
        folded = new.folded_from is not None and new.folded_from() is old
        if folded:  # a fold that named nothing shares the registry: nothing to scan
            added = [] if new.names is old.names else new.names.taken_after(old.seq)
        else:
            old_names = {(r.card, r.name, r.seq, r.exception) for r in old.names.records()}
            new_records = {(r.card, r.name, r.seq, r.exception): r for r in new.names.records()}
            for card, _, seq, _ in old_names - set(new_records):  # a card's earlier names stay (MageRing)
                conn.execute("delete from names where game_id = ? and card = ? and seq = ?", [game.id, card, seq])
            added = [new_records[k] for k in sorted(set(new_records) - old_names, key=lambda k: k[2])]
        self._add_names(game.id, added)
        at = at or now()
        finished_at = at if new.finished else None  # nothing is written after the end but its undo
        conn.execute("update games set seq = ?, version = version + 1, updated_at = ?, finished_at = ? where id = ?",
                     [new.seq, at, finished_at, game.id])
        new_game = Game(game.id, game.setup, new, game.created_at, game.version + 1)
        self.written.append(new_game)
        return new_game

    def _add_names(self, game_id: str, records) -> None:
        if records:
            self.db.conn.executemany(
                "insert into names (game_id, name_key, name, card, player, seq, exception, anew)"
                " values (?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, fold(r.name), r.name, r.card, r.player, r.seq, r.exception, int(r.anew)) for r in records])

    def _write_cards(self, game_id: str, cards) -> None:
        """Insert or rewrite these cards' projection rows (plain SQL: sqlite-utils' upsert reads the
        table's shape on every call, which cost more than the write)."""
        self.db.conn.executemany(
            "insert into game_cards (game_id, id, printed, zone, owner, controller, face_down, pentaland, named_as,"
            " state) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (game_id, id) do update set"
            " printed = excluded.printed, zone = excluded.zone, owner = excluded.owner,"
            " controller = excluded.controller, face_down = excluded.face_down, pentaland = excluded.pentaland,"
            " named_as = excluded.named_as, state = excluded.state",
            [(game_id, c.id, c.printed, c.zone, c.owner, c.controller, int(c.face_down), int(c.pentaland),
              c.named_as, _json(c)) for c in cards])


class SqliteUnitOfWork:
    """``with uow: ... uow.commit()``: one BEGIN IMMEDIATE transaction, rolled back unless committed;
    ``uow.games`` is a repository of its own."""

    def __init__(self, store: GameStore):
        self.database = store.database
        self.games = GameRepository(store.database, store.cache, store.shard)
        self.finder = store.finder
        self.series = SeriesStore(store.database)

    def __enter__(self) -> SqliteUnitOfWork:
        database = self.database
        if database.db.conn.in_transaction:  # the writer lock isn't reentrant: refuse, don't hang
            raise RuntimeError("a unit of work inside another, on one thread")
        database.refuse_if_failed()  # after a failed sync nothing here is known durable (storage/durable.py)
        database.file.check()  # never a write into a file no path names, or another's (storage/dbfile.py)
        self.synced: list[tuple[str, int]] = []
        self.committed = False
        database.writer.__enter__()
        try:
            database.db.conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            database.writer.__exit__(None, None, None)
            raise
        self.games.written.clear()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        database = self.database
        conn = database.db.conn
        try:
            if conn.in_transaction:  # not committed, or COMMIT itself failed: never leave it open
                conn.execute("ROLLBACK")
        finally:
            database.writer.__exit__(None, None, None)
        self.games.written.clear()
        # After the lock (the next writer needn't wait for this fsync), before anyone is answered,
        # landed or refused: a refusal may rest on another writer's commit (storage/durable.py).
        database.make_durable()
        if self.committed:  # acknowledged only if it is in the file at the database's path
            database.file.check_written()
        database.mark_synced(self.synced)
        if isinstance(exc, sqlite3.IntegrityError):  # the database's own guards of 704.2 and 704.4
            if "names.name_key" in str(exc):
                raise NameTaken("name.taken_race") from exc
            if "names.card" in str(exc):
                raise AlreadyNamed("name.already_race") from exc

    remember = None  # set by the edge for an Idempotency-Key: answer -> (key hash, request hash, status, sealed)

    def commit(self, answer=None) -> None:
        """COMMIT; with ``remember`` set, ``answer()`` kept in the same transaction (storage/idempotency.py)."""
        self.database.refuse_if_failed()  # set by another thread since __enter__: build nothing on what may be lost
        if self.remember is not None and answer is not None:
            idempotency.keep(self.database.db.conn, *self.remember(answer()))
        self.database.db.conn.execute("COMMIT")
        self.committed = True
        for game in self.games.written:
            self.games.cache.keep(game)
            self.synced.append((game.id, game.version))
        self.games.written.clear()


class GameStore:
    """The games of one database file, for one process: the database (connections, durability),
    the version cache, and a unit of work per use case (each with its own repository)."""

    def __init__(self, db_path: Path, finder: CandidateFinder, cache_size: int = 256, shard: str = ""):
        self.db_path = Path(db_path)
        self.shard = shard
        self.finder = finder  # the card finder the rules name with, handed to each unit of work
        self.database = GameDatabase(self.db_path, cache_size)
        self.cache = VersionCache(cache_size)

    def unit_of_work(self) -> SqliteUnitOfWork:
        return SqliteUnitOfWork(self)

    # reads outside a use case (the CLI's table, a look-up's ?game=): a repository of their own
    def load(self, game_id: str) -> Game:
        return GameRepository(self.database, self.cache, self.shard).load(game_id)

    def events(self, game_id: str, since: int | None = None, limit: int | None = None) -> list[Event]:
        return GameRepository(self.database, self.cache, self.shard).events(game_id, since, limit)

    @property
    def writer(self):
        return self.database.writer

    @property
    def failed(self) -> str | None:
        return self.database.failed

    @property
    def file(self):
        """The file this store started on (storage/dbfile.py): /health asks whether it is still there."""
        return self.database.file


def game_ids_starting(db_path: Path, prefix: str, limit: int = 50) -> list[str]:
    """Game ids that start with ``prefix``, newest first (the shell's completion: no pool loaded)."""
    with closing(sqlite3.connect(str(db_path), timeout=5)) as conn:
        return [r[0] for r in conn.execute(
            "select id from games where substr(id, 1, ?) = ? order by created_at desc limit ?",
            [len(prefix), prefix, limit])]


def player_names_starting(db_path: Path, game_id: str, prefix: str) -> list[str]:
    """The names of a game's players that start with ``prefix``, any case (the shell's completion)."""
    with closing(sqlite3.connect(str(db_path), timeout=5)) as conn:
        rows = conn.execute("select name from players where game_id = ? order by position", [game_id])
        return [r[0] for r in rows if r[0].casefold().startswith(prefix.casefold())]


def stored_setup(db_path: Path, game_id: str) -> GameSetup | None:
    """A game's setup straight from its row (the shell's completion: no pool, no replay)."""
    with closing(sqlite3.connect(str(db_path), timeout=5)) as conn:
        row = conn.execute("select setup from games where id = ?", [game_id]).fetchone()
    return GameSetup.from_dict(json.loads(row[0])) if row else None
