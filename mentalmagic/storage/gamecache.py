"""The games this process has read or written, each at its version: a bounded cache, least recently
used first. A game is only kept once its write has committed, never an archived one, and never
an older version over a newer: a read finds it still good when the stored version is the same."""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..game import Game


class VersionCache:
    def __init__(self, size: int = 256):
        self.size = size  # 0: nothing kept, every read replays the log
        self._games: OrderedDict[str, Game] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, game_id: str, version: int) -> tuple[Game | None, bool]:
        """(the kept game, whether it is at ``version``); counted as a hit or a miss."""
        with self._lock:
            kept = self._games.get(game_id)
            hit = kept is not None and kept.version == version
            if hit:
                self._games.move_to_end(game_id)
                self.hits += 1
            else:
                self.misses += 1
        return kept, hit

    def peek(self, game_id: str) -> Game | None:
        """The kept game, whatever its version, without counting."""
        with self._lock:
            return self._games.get(game_id)

    def keep(self, game: Game) -> Game:
        if game.archived_at is not None:  # out of the hot cache: an archived game is replayed when read
            return game
        with self._lock:
            current = self._games.get(game.id)
            if current is None or current.version <= game.version:  # never step back to an older read
                self._games[game.id] = game
                self._games.move_to_end(game.id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)
        return game

    def drop(self, game_ids: list[str]) -> None:
        with self._lock:
            for game_id in game_ids:
                self._games.pop(game_id, None)

    def ids(self) -> list[str]:
        """The kept games' ids, least recently used first."""
        with self._lock:
            return list(self._games)

    def __len__(self) -> int:
        return len(self._games)
