"""What a request's raw text loaded to, remembered: bots send the same questions and the same
actions turn after turn, and marshmallow's load was a large part of /candidates' own work and
of an action's (docs/performance.md). Only what loaded is kept (a refusal raises before ``keep``), and only
short texts, so the memory it takes is bounded."""

from __future__ import annotations


class Remembered:
    """A bounded map from raw request text (or a key made of it) to what loading that text gave.

    Up to ``entries`` texts of at most ``longest`` bytes each; full, it starts over. Threads share
    it: a dict's get and set are atomic in CPython, and a value lost to a race is loaded again.
    What it holds must never change once kept (frozen commands, plain dicts copied by the caller)."""

    def __init__(self, entries: int, longest: int):
        self.entries, self.longest = entries, longest
        self._kept: dict = {}

    def get(self, key):
        return self._kept.get(key)

    def keep(self, key, size: int, value) -> None:
        """Remember ``value`` for ``key``, whose raw text is ``size`` bytes long (unless too long)."""
        if size <= self.longest:
            if len(self._kept) >= self.entries:
                self._kept.clear()
            self._kept[key] = value

    def __len__(self) -> int:
        return len(self._kept)

    def __iter__(self):
        return iter(list(self._kept))  # the keys kept now (a copy: another thread may keep one meanwhile)
