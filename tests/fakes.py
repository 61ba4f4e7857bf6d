"""A unit of work in memory, for the services' tests: what services.UnitOfWork promises, no SQLite.

Writes made inside ``with uow`` land only on ``commit``; every write bumps the game's version,
as the SQLite repository's do. ``peek`` gives what a ``load`` last gave (perhaps stale)."""

from __future__ import annotations

from dataclasses import replace

from mentalmagic.errors import UnknownGame
from mentalmagic.game import Event, Game, GameState


class FakeGames:
    shard = ""

    def __init__(self):
        self.games: dict[str, Game] = {}
        self.logs: dict[str, list[Event]] = {}
        self.hashes: dict[str, tuple[str, dict[str, str]]] = {}
        self.seen: dict[str, Game] = {}
        self.staged: list = []  # writes of the open unit, applied on commit

    def load(self, game_id: str) -> Game:
        if game_id not in self.games:
            raise UnknownGame(game_id)
        self.seen[game_id] = self.games[game_id]
        return self.games[game_id]

    def peek(self, game_id: str) -> Game | None:
        return self.seen.get(game_id)

    def events(self, game_id: str, since: int | None = None, limit: int | None = None) -> list[Event]:
        out = [e for e in self.logs[game_id] if since is None or e.seq > since]
        return out[:limit] if limit is not None else out

    def tokens(self, game_id: str) -> tuple[str, dict[str, str]]:
        if game_id not in self.hashes:
            raise UnknownGame(game_id)
        return self.hashes[game_id]

    def add(self, game: Game, judge_hash: str, player_hashes: dict[str, str]) -> None:
        self.staged.append(lambda: (self.games.__setitem__(game.id, game), self.logs.__setitem__(game.id, []),
                                    self.hashes.__setitem__(game.id, (judge_hash, dict(player_hashes)))))

    def append(self, game: Game, event: Event, new_state: GameState) -> tuple[Game, list[str]]:
        after = replace(game, state=new_state, version=game.version + 1)
        self.staged.append(lambda: (self.logs[game.id].append(event), self.games.__setitem__(game.id, after)))
        return after, new_state.changed_cards(game.state)

    def remove_last(self, game: Game, last: Event, before: GameState, at: str) -> Game:
        after = replace(game, state=before, version=game.version + 1)
        self.staged.append(lambda: (self.logs[game.id].pop(), self.games.__setitem__(game.id, after)))
        return after

    def set_token(self, game_id: str, player: str, token_hash: str) -> None:
        self.staged.append(lambda: self.hashes[game_id][1].__setitem__(player, token_hash))

    def summaries(self) -> list[dict]:
        return [{"id": g.id, "created_at": g.created_at, "format": g.setup.format, "seq": g.state.seq,
                 "finished_at": None, "archived_at": g.archived_at, "players": [p.name for p in g.setup.players]}
                for g in self.games.values()]

    def archive(self, idle_since: str, at: str, most: int = 200) -> list[str]:
        return []


class FakeUnitOfWork:
    def __init__(self, finder, games: FakeGames | None = None):
        self.finder = finder
        self.games = games or FakeGames()
        self.committed = 0

    def __enter__(self) -> FakeUnitOfWork:
        self.games.staged.clear()
        return self

    def commit(self, answer=None) -> None:  # no Idempotency-Key here: the answer is never kept
        for write in self.games.staged:
            write()
        self.games.staged.clear()
        self.committed += 1

    def __exit__(self, *exc) -> None:
        self.games.staged.clear()  # not committed: nothing lands
